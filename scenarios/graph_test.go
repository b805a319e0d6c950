package scenarios_test

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/scenarios"
)

func TestGraphFromFile(t *testing.T) {
	s, err := scenarios.Load("testdata/stg-file.yaml")
	if err != nil {
		t.Fatal(err)
	}
	stg, err := models.ReadSTGFile("testdata/graphs/sample.stg", models.STGOptions{KeepDummies: true})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Problem.DAG
	if len(g.Tasks) != len(stg.DAG.Tasks) || len(g.Edges) != len(stg.DAG.Edges) {
		t.Fatalf("loaded %d tasks, %d edges; the file has %d, %d", len(g.Tasks), len(g.Edges), len(stg.DAG.Tasks), len(stg.DAG.Edges))
	}
	for i, task := range g.Tasks {
		if task.Weight != 1 {
			t.Fatalf("task %d weight %v, want 1 (unit_weights)", i, task.Weight)
		}
	}
}

func TestGraphGenerators(t *testing.T) {
	for name, want := range map[string]int{"clustering-fft": 223, "clustering-gauss": 299} {
		s, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(s.Problem.DAG.Tasks); n != want {
			t.Errorf("%s: %d tasks, want %d", name, n, want)
		}
	}
}

func TestGraphErrors(t *testing.T) {
	for file, want := range map[string]string{
		"testdata/stg-cycle.yaml": "line 6: problem.dag.from.stg",
		"testdata/dag-both.yaml":  "line 7: problem.dag.from: give either tasks and edges or from",
	} {
		_, err := scenarios.Load(file)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want one containing %q", file, err, want)
		}
	}
}

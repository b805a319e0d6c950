package scenarios_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/formats/stg"
	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/scenarios"
)

func TestGraphFromFile(t *testing.T) {
	s, err := scenarios.Load("testdata/stg-file.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file, err := stg.ReadFile("testdata/graphs/sample.stg", stg.Options{KeepDummies: true})
	if err != nil {
		t.Fatal(err)
	}
	g := s.Problem.DAG
	if len(g.Tasks) != len(file.DAG.Tasks) || len(g.Edges) != len(file.DAG.Edges) {
		t.Fatalf("loaded %d tasks, %d edges; the file has %d, %d", len(g.Tasks), len(g.Edges), len(file.DAG.Tasks), len(file.DAG.Edges))
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

// TestGraphWarnings: a DOT file's Graphviz attributes give one warning
// that names the scenario, the line and field of the file, and each
// attribute; a graph with none gives none.
func TestGraphWarnings(t *testing.T) {
	s, err := scenarios.Load("testdata/dot-styled.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 {
		t.Fatalf("warnings %q, want one", s.Warnings)
	}
	for _, want := range []string{"scenario testdata/dot-styled.yaml: line 8: problem.dag.from.dot: testdata/graphs/styled.dot: ignoring 7 DOT attribute(s)",
		"(graph rankdir; node [...] shape; node label, fillcolor, style; edge color, weight)"} {
		if !strings.Contains(s.Warnings[0], want) {
			t.Errorf("warning %q does not say %q", s.Warnings[0], want)
		}
	}
	if g := s.Problem.DAG; len(g.Tasks) != 3 || g.Tasks[0].Weight != 2 || g.Edges[0].Data != 3 || g.Edges[1].Data != 0 {
		t.Errorf("graph read as %+v", g)
	}
	for _, name := range []string{"testdata/stg-file.yaml", "delay-small"} {
		if s, err := scenarios.Load(name); err != nil || len(s.Warnings) != 0 {
			t.Errorf("%s: %v, warnings %q", name, err, s.Warnings)
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

func TestGraphFromWfCommons(t *testing.T) {
	src := filepath.Join(shareddata.WfCommonsDir(t), "montage-chameleon-dss-05d-001.json")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "wf"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(data), `"runtimeInSeconds": 534.058`, `"runtimeInSeconds": -1`, 1)
	for name, body := range map[string]string{"wf/montage.json": string(data), "wf/bad.json": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scenario := func(file string) string {
		return "name: wfcommons\nplatform:\n  delay: {rho: 1}\nproblem:\n  dag:\n    from: {wfcommons: " + file + "}\npolicies: [dsc, sequential]\n"
	}
	tests := []struct {
		name, file string
		tasks      int    // want this many tasks, if no error
		err        string // want an error containing this
	}{
		{"relative", "wf/montage.json", 58, ""},
		{"absolute", src, 58, ""},
		{"bad runtime", "wf/bad.json", 0, "line 6: problem.dag.from.wfcommons: " + filepath.Join(dir, "wf/bad.json") + ": workflow.execution.tasks[0].runtimeInSeconds: must be a finite number >= 0, got -1"},
		{"missing", "wf/none.json", 0, "problem.dag.from.wfcommons"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name+".yaml")
			if err := os.WriteFile(path, []byte(scenario(tt.file)), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := scenarios.Load(path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := s.Problem.DAG
			if len(g.Tasks) != tt.tasks || len(g.Edges) != 114 {
				t.Errorf("%d tasks, %d edges; want %d, 114", len(g.Tasks), len(g.Edges), tt.tasks)
			}
			if g.Tasks[0].Name != "mProject_ID0000001" || g.Tasks[0].Weight != 534.058 {
				t.Errorf("task 0 is %+v, want mProject_ID0000001 of weight 534.058", g.Tasks[0])
			}
		})
	}
}

// TestDatalessGraphWarns: a task graph whose edges carry no data warns on
// a crossbar, naming problem.dag and its line, and not on the delay
// platform, where an edge costs ρ whatever its data, nor once an edge
// carries data.
func TestDatalessGraphWarns(t *testing.T) {
	const crossbar = "platform:\n  crossbar:\n    beta: 0.1\n    duplex: full\n    processors: [{gamma: 1}, {gamma: 1}]\n"
	for _, tc := range []struct {
		name, text string
		warns      bool
	}{
		{"fft on a crossbar", crossbar + "problem: {dag: {from: {fft: 4}}}\npolicies: [dsc]\n", true},
		{"fft on the delay platform", "platform: {delay: {rho: 1}}\nproblem: {dag: {from: {fft: 4}}}\npolicies: [sequential]\n", false},
		{"data on an edge", crossbar + "problem: {dag: {tasks: [{weight: 1}, {weight: 1}], edges: [{from: 0, to: 1, data: 2}]}}\npolicies: [dsc]\n", false},
		{"no data on a crossbar", crossbar + "problem: {dag: {tasks: [{weight: 1}, {weight: 1}], edges: [{from: 0, to: 1}]}}\npolicies: [dsc]\n", true},
	} {
		s, err := scenarios.Parse("s.yaml", []byte(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		warned := slices.ContainsFunc(s.Warnings, func(w string) bool {
			return strings.Contains(w, "s.yaml: line 6: problem.dag: none of the task graph's")
		})
		if warned != tc.warns {
			t.Errorf("%s: warnings %q, want the dataless warning: %v", tc.name, s.Warnings, tc.warns)
		}
	}
}

package scenarios_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/formats/wfcommons"
	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/scenarios"
)

// TestWorkflowCopies checks the task graphs the bundled workflow
// scenarios list against the WfCommons instances they copy: the same
// tasks, runtimes and edges, the data in megabytes.
func TestWorkflowCopies(t *testing.T) {
	dir := shareddata.WfCommonsDir(t)
	for name, file := range map[string]string{
		"workflow-montage":     "montage-chameleon-dss-05d-001.json",
		"workflow-epigenomics": "epigenomics-chameleon-hep-1seq-100k-001.json",
	} {
		t.Run(name, func(t *testing.T) {
			sc, err := scenarios.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			w, err := wfcommons.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			got, want := sc.Problem.DAG, w.DAG
			if len(got.Tasks) != len(want.Tasks) || len(got.Edges) != len(want.Edges) {
				t.Fatalf("%d tasks and %d edges, the instance has %d and %d", len(got.Tasks), len(got.Edges), len(want.Tasks), len(want.Edges))
			}
			for v := range want.Tasks {
				if got.Tasks[v] != want.Tasks[v] {
					t.Errorf("task %d: %+v, want %+v", v, got.Tasks[v], want.Tasks[v])
				}
			}
			for i, e := range want.Edges {
				g := got.Edges[i]
				if g.From != e.From || g.To != e.To || math.Abs(g.Data*1e6-e.Data) > 1e-9*e.Data {
					t.Errorf("edge %d: %+v, want %+v with data in MB", i, g, e)
				}
			}
		})
	}
}

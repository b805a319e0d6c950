package heft_test

import (
	"context"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/heft"
	"github.com/netsched/netsched/sim"
)

// TestZeroWeights: tasks of weight 0 (a workflow's bookkeeping jobs) and
// edges without data are placed and verified like any other, several at
// one instant on one processor.
func TestZeroWeights(t *testing.T) {
	g := &models.DAG{Tasks: []models.Task{{Name: "in", Weight: 0}, {Name: "a", Weight: 0}, {Name: "b", Weight: 0},
		{Name: "c", Weight: 2}, {Name: "out", Weight: 0}},
		Edges: []models.DAGEdge{{From: 0, To: 1}, {From: 0, To: 2}, {From: 0, To: 3, Data: 1}, {From: 1, To: 4}, {From: 2, To: 4}, {From: 3, To: 4, Data: 1}}}
	for _, procs := range [][]models.Processor{{{Gamma: 1}}, {{Gamma: 1}, {Gamma: 1}}} {
		pl := &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.HalfDuplex, Processors: procs}}
		for _, alg := range []heft.Algorithm{heft.HEFT, heft.CPOP} {
			s, err := heft.Plan(context.Background(), pl, g, alg, nil)
			if err != nil {
				t.Fatal(err)
			}
			checktest.Verify(t, pl, &models.Problem{DAG: g}, s, sim.Timed)
			checktest.Solves(t, pl, &models.Problem{DAG: g}, s, sim.Ordered)
			if s.Claimed != 2 {
				t.Errorf("%v on %d processors: makespan %g, want 2", alg, len(procs), s.Claimed)
			}
		}
	}
}

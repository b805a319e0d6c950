package clustering

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// TestBoundedClosedForms checks the clustering policies on a bounded delay
// platform (Bounded) against what is known without them, on FFT(8) with
// unit tasks: on one processor the makespan is the total weight (one
// cluster, no delay); with a processor per task each cluster keeps its
// own and the makespan is the unbounded one; on 4 it lies between the
// total weight over 4 and the total weight. Every schedule is verified.
func TestBoundedClosedForms(t *testing.T) {
	g, err := models.FFT(8)
	if err != nil {
		t.Fatal(err)
	}
	g = g.UnitWeights()
	total := 0.0
	for _, task := range g.Tasks {
		total += task.Weight
	}
	for _, name := range []string{"dsc", "cass2", "cross", "convex"} {
		e, _ := policies.Lookup(name)
		plan := func(p int) *sim.Schedule {
			t.Helper()
			pl := &models.Platform{Delay: &models.Delay{Rho: 2, Processors: p}}
			pr := &models.Problem{DAG: g}
			s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Seed: 1})
			if err != nil {
				t.Fatalf("%s on %d processors: %v", name, p, err)
			}
			checktest.Verify(t, pl, pr, s, sim.Timed)
			return s
		}
		unbounded := plan(0)
		if one := plan(1).Claimed; math.Abs(one-total) > 1e-9 {
			t.Errorf("%s on 1 processor: makespan %v, want the total weight %v", name, one, total)
		}
		if many := plan(len(g.Tasks)).Claimed; math.Abs(many-unbounded.Claimed) > 1e-9 {
			t.Errorf("%s on %d processors: makespan %v, want the unbounded %v", name, len(g.Tasks), many, unbounded.Claimed)
		}
		if four := plan(4).Claimed; four < total/4-1e-9 || four > total+1e-9 {
			t.Errorf("%s on 4 processors: makespan %v, outside [total/4, total] = [%v, %v]", name, four, total/4, total)
		}
	}
}

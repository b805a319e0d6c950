package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies/broadcast/internal/treegen"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// TestOptimalNoWorseThanHeuristics checks that optimal, stopped early by a
// node budget, returns a schedule no slower than the fnf and ecef
// policies' (it keeps their backfilled schedules, see search.ecef), which
// verifies, with a lower bound no higher than it; that the policies'
// schedules verify too; and that on some trees backfill is what makes
// optimal's schedule faster than the search's own.
func TestOptimalNoWorseThanHeuristics(t *testing.T) {
	ins, err := treegen.RandomHards(4, 24, 64)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(4) {
		ins = append(ins, clusteredInstance(seed, 20), smpMiniInstance(seed, 20))
	}
	faster := 0
	for i, in := range ins {
		heuristic := math.Inf(1)
		for _, name := range []string{"fnf", "ecef"} {
			s := mustPlan(t, name, in)
			checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
			heuristic = min(heuristic, s.Claimed)
		}
		res, err := Optimal(context.Background(), in, Options{Bound: true, ECEF: true, MaxNodes: 100})
		if err != nil {
			t.Fatal(err)
		}
		checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
		if got := res.Schedule.Claimed; got > heuristic || res.LowerBound > got {
			t.Errorf("tree %d: optimal's schedule %g, lower bound %g; fnf's and ecef's best %g", i, got, res.LowerBound, heuristic)
		}
		nw, err := treenet.NewNetwork(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearch(nw, Options{})
		if err := s.first.ecef(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s.backfilled < s.best {
			faster++
		}
	}
	if faster == 0 {
		t.Error("backfill made no first schedule faster")
	}
}

package broadcast

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// greedyTrees are 60 trees (3,000 under NETSCHED_SLOW=1) of four kinds
// the bound is checked on (of up to 40 or 60 participants), random trees
// with relays of 64 and 96 participants, and the SMP tree of 64.
func greedyTrees(t *testing.T) []policies.Instance {
	var ins []policies.Instance
	for seed := range uint64(slowtest.Pick(60, 3000)) {
		switch seed % 4 {
		case 0:
			ins = append(ins, clusteredInstance(seed, 40))
		case 1:
			in, err := randomInstance(seed, 60)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, in)
		case 2:
			ins = append(ins, smpMiniInstance(seed, 40))
		case 3:
			ins = append(ins, twoSpeedInstance(seed, 40))
		}
	}
	ins = append(ins, hardInstances(t, 4, 64, 96)...)
	tr, err := smpTree(64)
	if err != nil {
		t.Fatal(err)
	}
	return append(ins, instanceOf(tr, models.DefaultMessageSize, "0"))
}

// TestGreediesAgreeWithFullScans checks ecef and bestSender (fnf's choice
// of sender) against their definitions on every tree of greedyTrees, with
// and without backfill. At every step of ecef built by fitting every
// holder–non-holder pair, for every non-holder, bestSender must pick the
// option the scan of its holders picks, and planECEF the same transfer as
// the scan. The calendar takes an overlap within its tolerance as none,
// so fitting a transfer later can give an earlier start by that much
// (sim.Reservations): where planECEF's transfer arrives within the
// tolerance of the scan's, the two may part, and the scan then takes
// planECEF's transfer and goes on.
func TestGreediesAgreeWithFullScans(t *testing.T) {
	ins := greedyTrees(t)
	for _, backfill := range []bool{false, true} {
		t.Run(fmt.Sprintf("backfill=%v", backfill), func(t *testing.T) {
			parted, steps := 0, 0
			for i, in := range ins {
				p, n := agreeWithScan(t, i, in, backfill)
				parted, steps = parted+p, steps+n
			}
			t.Logf("planECEF parted from the scan within the tolerance at %d of %d transfers", parted, steps)
		})
	}
}

// agreeWithScan runs the check of TestGreediesAgreeWithFullScans on tree
// i, and returns at how many of its transfers planECEF parted from the
// scan within the tolerance.
func agreeWithScan(t *testing.T, i int, in policies.Instance, backfill bool) (parted, steps int) {
	t.Helper()
	nw, err := treenet.NewNetwork(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got := newGreedy(nw)
	got.backfill = backfill
	if err := planECEF(context.Background(), got); err != nil {
		t.Fatal(err)
	}
	want := newGreedy(nw)
	want.backfill = backfill
	for ; want.missing > 0; steps++ {
		best := scanStep(t, want)
		if m := got.c.Moves[steps]; m.From != best.from || m.To != best.to {
			o := want.try(m.From, m.To)
			if o.arrive-best.arrive > sim.Tolerance*max(1, best.arrive) {
				t.Fatalf("tree %d, transfer %d: planECEF placed %+v, which arrives at %v now; the scan's best is %+v", i, steps, m, o.arrive, best)
			}
			best = o
			parted++
		}
		want.take(best)
	}
	return parted, steps
}

// hardInstances are randomHardInstance's trees of seeds 0 to seeds−1 with
// each number of participants.
func hardInstances(t *testing.T, seeds uint64, parts ...int) []policies.Instance {
	t.Helper()
	var ins []policies.Instance
	for seed := range seeds {
		for _, p := range parts {
			in, err := randomHardInstance(seed, p)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, in)
		}
	}
	return ins
}

// scanStep is ecef's next transfer in g by its definition, fitting every
// holder–non-holder pair; it checks bestSender against the scan of every
// holder for each non-holder on the way.
func scanStep(t *testing.T, g *greedy) option {
	t.Helper()
	best := option{arrive: math.Inf(1)}
	for _, v := range g.nw.Parts {
		if g.holds(v) {
			continue
		}
		scan := option{arrive: math.Inf(1)}
		for _, u := range g.nw.Parts {
			if o := g.try(u, v); g.holds(u) && g.better(o, scan) {
				scan = o
			}
		}
		if got, _ := g.bestSender(v); got != scan {
			t.Fatalf("after %d transfers: bestSender(%d) = %+v, the scan of every holder %+v", len(g.c.Moves), v, got, scan)
		}
		if g.better(scan, best) {
			best = scan
		}
	}
	return best
}

// TestOptimalNoWorseThanHeuristics checks that optimal, stopped early by a
// node budget, returns a schedule no slower than the fnf and ecef
// policies' (it keeps their backfilled schedules, see search.ecef), which
// verifies, with a lower bound no higher than it; that the policies'
// schedules verify too; and that on some trees backfill is what makes
// optimal's schedule faster than the search's own.
func TestOptimalNoWorseThanHeuristics(t *testing.T) {
	ins := hardInstances(t, 4, 24, 64)
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
		if err := s.ecef(context.Background()); err != nil {
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

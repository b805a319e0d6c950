package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// exhaustive is the reference for the optimal policy: it enumerates every
// sequence of transfers from a holder to a non-holder, each started at the
// earliest time ≥ the previous start at which it fits (paper 004 §2.1),
// with no pruning but dropping a sequence once it is no better than the
// best complete one. It shares nothing with the search but sim's routes and
// reservation calendar.
func exhaustive(tr *models.Tree, size float64, roots []string) float64 {
	routes := replay.NewRoutes(tr)
	resv := routes.NewReservations()
	ready := make([]float64, len(tr.Nodes))
	var parts []int
	for v, n := range tr.Nodes {
		ready[v] = math.Inf(1)
		if !n.Relay {
			parts = append(parts, v)
		}
	}
	for _, r := range roots {
		v, _ := tr.NodeIndex(r)
		ready[v] = 0
	}
	missing := len(parts) - len(roots)
	best := math.Inf(1)
	var rec func(tLast, makespan float64)
	rec = func(tLast, makespan float64) {
		if missing == 0 {
			best = math.Min(best, makespan)
			return
		}
		for _, u := range parts {
			if math.IsInf(ready[u], 1) {
				continue
			}
			for _, v := range parts {
				if !math.IsInf(ready[v], 1) {
					continue
				}
				rt := routes.Route(u, v)
				dur := size / rt.Bandwidth
				start := resv.EarliestFit(math.Max(tLast, ready[u]), rt.Channels, rt.Offsets, dur, rt.Bandwidth)
				arrive := start + rt.Latency + dur
				if math.Max(makespan, arrive) >= best {
					continue
				}
				resv.Reserve(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
				ready[v] = arrive
				missing--
				rec(start, math.Max(makespan, arrive))
				missing++
				ready[v] = math.Inf(1)
				resv.Release(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
			}
		}
	}
	rec(0, 0)
	return best
}

// wholeMessage are the baselines that move the whole message: optimal is
// never worse than them.
var wholeMessage = []string{"mpich-binomial", "lam", "binary-tree", "fnf", "ecef"}

func TestOptimalEqualsExhaustive(t *testing.T) {
	trees, maxParts := slowtest.Pick(120, 320), slowtest.Pick(7, 8)
	for seed := range uint64(trees + trees/4) {
		in, err := randomInstance(seed, maxParts)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case seed >= uint64(trees) && seed%3 == 0:
			in = clusteredInstance(seed, maxParts)
		case seed >= uint64(trees) && seed%3 == 1:
			in = twoSpeedInstance(seed, maxParts)
		case seed >= uint64(trees):
			in = smpMiniInstance(seed, maxParts)
		case seed%3 == 2:
			in = symmetricInstance(seed, maxParts)
		}
		want := exhaustive(in.Platform.Tree, 1, in.Problem.Broadcast.Roots)
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got := res.Schedule.Claimed
		if !approx(got, want) || !res.Proven {
			t.Errorf("seed %d (%d nodes, roots %v): optimal %.12g (proven %v), exhaustive %.12g",
				seed, len(in.Platform.Tree.Nodes), in.Problem.Broadcast.Roots, got, res.Proven, want)
		}
		checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
		checkBroadcast(t, in, res.Schedule)
		for _, name := range wholeMessage {
			if len(in.Problem.Broadcast.Roots) > 1 && name != "fnf" && name != "ecef" {
				continue
			}
			s := mustPlan(t, name, in)
			checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
			checkBroadcast(t, in, s)
			if s.Claimed < got*(1-1e-9) {
				t.Errorf("seed %d: %s %.12g beats optimal %.12g", seed, name, s.Claimed, got)
			}
		}
	}
}

// TestOptimalPruningsAgree runs every combination of the prunings (the
// transposition table and deepening included) on small
// random trees: all must find the same optimum.
func TestOptimalPruningsAgree(t *testing.T) {
	trees := slowtest.Pick(30, 80)
	for seed := range uint64(trees) {
		in, err := randomInstance(1000+seed, 6)
		if err != nil {
			t.Fatal(err)
		}
		if seed%2 == 1 {
			in = symmetricInstance(seed, 7)
		}
		want := math.NaN()
		for mask := range 128 {
			opt := Options{RCut: mask&1 != 0, SCut: mask&2 != 0, Bound: mask&4 != 0, Ties: mask&8 != 0, ECEF: mask&16 != 0,
				Transpose: mask&32 != 0, Deepen: mask&64 != 0}
			res, err := Optimal(context.Background(), in, opt)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(want) {
				want = res.Schedule.Claimed
			}
			if !approx(res.Schedule.Claimed, want) || !res.Proven {
				t.Errorf("seed %d options %+v: %.12g (proven %v), all off: %.12g", 1000+seed, opt, res.Schedule.Claimed, res.Proven, want)
			}
		}
	}
}

// TestTranspositionsAgree runs the search with the transposition table on
// random heterogeneous trees with relays of 8 participants (the hard
// family of issue 21, small enough for the exhaustive search): it must
// prove the exhaustive optimum, and the table must close states.
func TestTranspositionsAgree(t *testing.T) {
	trees := slowtest.Pick(8, 40)
	var hits int64
	for seed := range uint64(trees) {
		in, err := randomHardInstance(9000+seed, 8)
		if err != nil {
			t.Fatal(err)
		}
		want := exhaustive(in.Platform.Tree, 1, in.Problem.Broadcast.Roots)
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !approx(res.Schedule.Claimed, want) || !res.Proven {
			t.Errorf("seed %d: optimal %.12g (proven %v, %d transpositions), exhaustive %.12g", 9000+seed, res.Schedule.Claimed, res.Proven, res.Transposed, want)
		}
		hits += res.Transposed
	}
	if hits == 0 {
		t.Error("the transposition table closed no state")
	}
	t.Logf("%d states closed by the table", hits)
}

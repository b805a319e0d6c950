package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// greedyTrees are trees of every kind the bound is checked on, 3,000 of up
// to 60 participants, random trees with relays of 64 and 96 participants,
// and the SMP tree of 64.
func greedyTrees(t *testing.T) []policies.Instance {
	var ins []policies.Instance
	for seed := range uint64(3000) {
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
	for seed := range uint64(4) {
		for _, parts := range []int{64, 96} {
			in, err := randomHardInstance(seed, parts)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, in)
		}
	}
	tr, err := smpTree(64)
	if err != nil {
		t.Fatal(err)
	}
	return append(ins, instanceOf(tr, models.DefaultMessageSize, "0"))
}

// TestGreediesAgreeWithFullScans checks ecef and bestSender (fnf's choice
// of sender) against their definitions on every tree of greedyTrees. At
// every step of ecef built by fitting every holder–non-holder pair, for
// every non-holder, bestSender must pick the option the scan of its
// holders picks, and planECEF the same transfer as the scan. The calendar
// takes an overlap within its tolerance as none, so fitting a transfer
// later can give an earlier start by that much (sim.Reservations): where
// planECEF's transfer arrives within the tolerance of the scan's, the two
// may part, and the tree is not compared further; that may happen on at
// most one tree in 200.
func TestGreediesAgreeWithFullScans(t *testing.T) {
	ins := greedyTrees(t)
	parted := 0
	for i, in := range ins {
		nw, err := newNetwork(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		got := newGreedy(nw)
		if err := planECEF(context.Background(), got); err != nil {
			t.Fatal(err)
		}
		want := newGreedy(nw)
		for step := 0; want.missing > 0; step++ {
			best := scanStep(t, want)
			m := got.c.moves[step]
			if m.from == best.from && m.to == best.to {
				want.take(best)
				continue
			}
			if o := want.try(m.from, m.to); o.arrive-best.arrive > sim.Tolerance*max(1, best.arrive) {
				t.Fatalf("tree %d, transfer %d: planECEF placed %+v, which arrives at %v now; the scan's best is %+v", i, step, m, o.arrive, best)
			}
			parted++
			break
		}
	}
	if parted > len(ins)/200 {
		t.Errorf("planECEF parted from the scan within the tolerance on %d of %d trees", parted, len(ins))
	}
	t.Logf("planECEF parted from the scan within the tolerance on %d of %d trees", parted, len(ins))
}

// scanStep is ecef's next transfer in g by its definition, fitting every
// holder–non-holder pair; it checks bestSender against the scan of every
// holder for each non-holder on the way.
func scanStep(t *testing.T, g *greedy) option {
	t.Helper()
	best := option{arrive: math.Inf(1)}
	for _, v := range g.nw.parts {
		if g.holds(v) {
			continue
		}
		scan := option{arrive: math.Inf(1)}
		for _, u := range g.nw.parts {
			if o := g.try(u, v); g.holds(u) && g.better(o, scan) {
				scan = o
			}
		}
		if got, _ := g.bestSender(v); got != scan {
			t.Fatalf("after %d transfers: bestSender(%d) = %+v, the scan of every holder %+v", len(g.c.moves), v, got, scan)
		}
		if g.better(scan, best) {
			best = scan
		}
	}
	return best
}

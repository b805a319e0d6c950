package heuristic

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/treegen"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

// greedyTrees are 60 trees (3,000 under NETSCHED_SLOW=1) of four kinds
// the bound is checked on (of up to 40 or 60 participants), random trees
// with relays of 64 and 96 participants, and the SMP tree of 64.
func greedyTrees(t *testing.T) []policies.Instance {
	var ins []policies.Instance
	for seed := range uint64(slowtest.Pick(60, 3000)) {
		switch seed % 4 {
		case 0:
			ins = append(ins, treegen.Clustered(seed, 40))
		case 1:
			in, err := treegen.Random(seed, 60)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, in)
		case 2:
			ins = append(ins, treegen.SMPMini(seed, 40))
		case 3:
			ins = append(ins, treegen.TwoSpeed(seed, 40))
		}
	}
	hard, err := treegen.RandomHards(4, 64, 96)
	if err != nil {
		t.Fatal(err)
	}
	ins = append(ins, hard...)
	tr, err := treegen.SMP(64)
	if err != nil {
		t.Fatal(err)
	}
	return append(ins, treegen.Instance(tr, trees.DefaultMessageSize, "0"))
}

// TestGreediesAgreeWithFullScans checks ecef and bestSender (fnf's choice
// of sender) against their definitions on every tree of greedyTrees, with
// and without backfill. At every step of ecef built by fitting every
// holder–non-holder pair, for every non-holder, bestSender must pick the
// option the scan of its holders picks, and ECEF the same transfer as
// the scan. The calendar takes an overlap within its tolerance as none,
// so fitting a transfer later can give an earlier start by that much
// (sim.Reservations): where ECEF's transfer arrives within the
// tolerance of the scan's, the two may part, and the scan then takes
// ECEF's transfer and goes on.
func TestGreediesAgreeWithFullScans(t *testing.T) {
	ins := greedyTrees(t)
	for _, backfill := range []bool{false, true} {
		t.Run(fmt.Sprintf("backfill=%v", backfill), func(t *testing.T) {
			parted, steps := 0, 0
			for i, in := range ins {
				p, n := agreeWithScan(t, i, in, backfill)
				parted, steps = parted+p, steps+n
			}
			t.Logf("ECEF parted from the scan within the tolerance at %d of %d transfers", parted, steps)
		})
	}
}

// agreeWithScan runs the check of TestGreediesAgreeWithFullScans on tree
// i, and returns at how many of its transfers ECEF parted from the
// scan within the tolerance.
func agreeWithScan(t *testing.T, i int, in policies.Instance, backfill bool) (parted, steps int) {
	t.Helper()
	nw, err := treenet.NewNetwork(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got := New(nw)
	got.Backfill = backfill
	if err := ECEF(context.Background(), got); err != nil {
		t.Fatal(err)
	}
	want := New(nw)
	want.Backfill = backfill
	for ; want.missing > 0; steps++ {
		best := scanStep(t, want)
		if m := got.c.Moves[steps]; m.From != best.From || m.To != best.To {
			o := want.Try(m.From, m.To)
			if o.Arrive-best.Arrive > sim.Tolerance*max(1, best.Arrive) {
				t.Fatalf("tree %d, transfer %d: ECEF placed %+v, which arrives at %v now; the scan's best is %+v", i, steps, m, o.Arrive, best)
			}
			best = o
			parted++
		}
		want.Take(best)
	}
	return parted, steps
}

// scanStep is ecef's next transfer in g by its definition, fitting every
// holder–non-holder pair; it checks bestSender against the scan of every
// holder for each non-holder on the way.
func scanStep(t *testing.T, g *Greedy) Option {
	t.Helper()
	best := Option{Arrive: math.Inf(1)}
	for _, v := range g.nw.Parts {
		if g.Holds(v) {
			continue
		}
		scan := Option{Arrive: math.Inf(1)}
		for _, u := range g.nw.Parts {
			if o := g.Try(u, v); g.Holds(u) && g.better(o, scan) {
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

package broadcast

import (
	"context"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestPairOfAStar checks pairBound by hand: x holds the message and
// reaches a and b through a switch w, every link of bandwidth 1 and
// latency 0.1 (cost 1.2 between any two participants). Each of a and b
// alone is informed at 1.2; both transfers from x cross x→w at its whole
// capacity, so one of them starts 1 after the other and arrives at 2.2,
// and the relay through a arrives at 1.2 + 1.2 = 2.4: the pair is
// complete at ≥ 2.2, the optimum.
func TestPairOfAStar(t *testing.T) {
	nw := starNetwork(t, models.LinkParams{Bandwidth: 1, Latency: 0.1}, "a", "b")
	s := newSearch(nw, DefaultOptions())
	if err := s.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.fill()
	b, st := s.bnd, &s.bst
	b.chans.stamp++
	if got := b.arr.arrivalBound(st); !approx(got, 1.2) {
		t.Errorf("arrivalBound = %g, want 1.2", got)
	}
	if got := b.pairs.pairBound(st); !approx(got, 2.2) {
		t.Errorf("pairBound = %g, want 2.2", got)
	}
}

// TestDeepBoundStrength holds the work of proving the ten random trees of
// 12 participants of issue 21 (without the local search, so that the
// count does not depend on the machine) below where the bounds with the
// reservations made put it: 50,323 bounds in all with the pairs of
// pairBound, 372,978 without them, 1,551,440 with contention-free
// arrivals. TestBoundIsValid checks that the bound stays valid; this test
// that a change does not quietly weaken it deep in the search, where
// TestRootBoundStrength does not look. The search runs without deepening
// (which takes 38,857 bounds in all), so that the count measures the bound
// alone.
func TestDeepBoundStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("proves ten trees of 12 participants")
	}
	var nodes int64
	for seed := range uint64(10) {
		in, err := randomHardInstance(seed, 12)
		if err != nil {
			t.Fatal(err)
		}
		o := DefaultOptions()
		o.Improve, o.Deepen = false, false
		res, err := Optimal(context.Background(), in, o)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Proven {
			t.Fatalf("random-12/%d not proven", seed)
		}
		nodes += res.Nodes
	}
	if nodes > 60_000 {
		t.Errorf("%d bounds to prove the ten trees, more than 60,000", nodes)
	}
}

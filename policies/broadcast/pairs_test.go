package broadcast

import (
	"context"
	"testing"
)

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

package broadcast

import (
	"context"
	"testing"
)

// TestSplitBoundSMP56 checks what the split on a port of two speeds is
// for, on the SMP tree of 56: once CPU 0 has sent two copies across to the
// Fast Ethernet side (at 0 and 0.08 s) and the first has been passed on,
// CPU 0's node must either seed the Gigabit side first, and the third
// copy across comes too late, or send the third copy across first, and
// the Gigabit side is seeded too late. Either way no schedule beats
// 0.250306 s (the optimum, which the search proves): the bound with the
// split reaches it, each view alone does not.
func TestSplitBoundSMP56(t *testing.T) {
	tr, err := smpTree(56)
	if err != nil {
		t.Fatal(err)
	}
	nw, err := newNetwork(context.Background(), instanceOf(tr, 1, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s := newSearch(nw, DefaultOptions())
	if err := s.prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, mv := range [][2]int{{0, 28}, {0, 32}, {28, 36}} { // ranks
		u, v := nw.parts[mv[0]], nw.parts[mv[1]]
		found := false
		for _, k := range s.children(tieKey{}, false) {
			if k.from == u && k.to == v {
				s.apply(k)
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("move %d→%d is not a child", mv[0], mv[1])
		}
	}
	const optimum = 0.250306
	with := s.bound()
	s.bnd.splits = nil
	without := s.bound()
	if with < optimum-1e-9 || without >= optimum-1e-9 {
		t.Errorf("bound %.9g with the split, %.9g without; want %g with and less without", with, without, optimum)
	}
}

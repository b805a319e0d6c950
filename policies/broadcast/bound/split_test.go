package bound

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/policies/broadcast/internal/treegen"
	"github.com/netsched/netsched/policies/broadcast/treenet"
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
	s := smpState(t, 56, [][2]int{{0, 28}, {0, 32}, {28, 36}})
	const optimum = 0.250306
	with := s.bound(math.Inf(1))
	s.b.split.splits = nil
	without := s.bound(math.Inf(1))
	if with < optimum-1e-9 || without >= optimum-1e-9 {
		t.Errorf("bound %.9g with the split, %.9g without; want %g with and less without", with, without, optimum)
	}
}

// TestDueBoundSMP64 checks what due times are for, on the SMP tree of 64:
// once CPU 0 has sent its third copy across to the Fast Ethernet side (at
// 0.16 s), its node seeds the Gigabit side either before a fourth copy
// across, which then comes too late, or after it, at 0.32 s, too late for
// the Gigabit side to complete on its own; then the Gigabit side needs a
// copy from a Fast Ethernet holder by a due time, and that holder's turn
// leaves the Fast Ethernet side one copy short. No schedule beats 0.322508
// s (the optimum, which the search proves): with that incumbent the bound
// closes the state, and without due times it does not.
func TestDueBoundSMP64(t *testing.T) {
	s := smpState(t, 64, [][2]int{{0, 32}, {0, 36}, {32, 33}, {32, 34}, {33, 35}, {32, 40}, {0, 44}})
	const optimum = 0.322508
	cut := optimum - 1e-12 // as the search sets it: a bound within eps of the best closes
	with := s.bound(cut)
	s.b.dues.dueOf = nil
	without := s.bound(cut)
	if with < cut || without >= cut {
		t.Errorf("bound %.9g with due times, %.9g without; want at least %.9g with and less without", with, without, cut)
	}
}

// smpState is the state of the search on the SMP tree of parts
// participants after the moves (from, to), given by rank, each placed as
// the search places it.
func smpState(t *testing.T, parts int, moves [][2]int) *tracked {
	t.Helper()
	tr, err := treegen.SMP(parts)
	if err != nil {
		t.Fatal(err)
	}
	nw, err := treenet.NewNetwork(context.Background(), treegen.Instance(tr, 1, "0"))
	if err != nil {
		t.Fatal(err)
	}
	s := newTracked(t, nw)
	for _, mv := range moves {
		s.place(nw.Parts[mv[0]], nw.Parts[mv[1]])
	}
	return s
}

package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// TestBoundIsValid checks the lower bound against the exact optimum of
// every state of the search space: for every reachable state of small
// random trees (and of trees of clusters, of two speeds and of the SMP
// kind, whose gates, split ports and due times the bound uses), the bound
// may not exceed the best completion found by enumerating all of them,
// with or without an incumbent (at, below or just above the optimum).
func TestBoundIsValid(t *testing.T) {
	trees := slowtest.Pick(8, 400) // 400: 166k states
	states := 0
	for seed := range uint64(trees + trees/2 + trees/4 + trees/4) {
		in, err := randomInstance(5000+seed, 6)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case seed >= uint64(trees+trees/2+trees/4):
			in = smpMiniInstance(5000+seed, 6)
		case seed >= uint64(trees+trees/2):
			in = twoSpeedInstance(5000+seed, 6)
		case seed >= uint64(trees):
			in = clusteredInstance(5000+seed, 7)
		case seed%3 == 1:
			in = symmetricInstance(5000+seed, 7)
		}
		nw, err := treenet.NewNetwork(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearch(nw, Options{Bound: true})
		if err := s.prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		var best func() float64
		best = func() float64 {
			if s.missing == 0 {
				return s.makespan
			}
			lb := s.bound()
			opt := math.Inf(1)
			for _, u := range nw.Parts {
				if !s.holds(u) {
					continue
				}
				for _, v := range nw.Parts {
					if s.holds(v) {
						continue
					}
					start := s.c.Earliest(u, v, math.Max(s.tLast, s.ready[u]), nw.Size)
					s.apply(child{from: u, to: v, start: start, arrive: start + nw.Cost[u][v]})
					opt = math.Min(opt, best())
					s.undo()
				}
			}
			states++
			if lb > opt*(1+1e-9) {
				t.Errorf("seed %d: state after %d moves (last start %g): bound %.12g > best completion %.12g",
					5000+seed, len(s.c.Moves), s.tLast, lb, opt)
			}
			// With an incumbent the bound may stop early, and its parts
			// then cut what they look at: it must stay valid.
			for _, cutoff := range []float64{opt, (lb + opt) / 2, opt * (1 + 1e-6)} {
				s.best = cutoff
				if cut := s.bound(); cut > opt*(1+1e-9) {
					t.Errorf("seed %d: state after %d moves: bound %.12g with cutoff %g > best completion %.12g",
						5000+seed, len(s.c.Moves), cut, cutoff, opt)
				}
			}
			s.best = math.Inf(1)
			return opt
		}
		best()
	}
	t.Logf("%d states checked", states)
}

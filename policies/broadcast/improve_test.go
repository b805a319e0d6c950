package broadcast

import (
	"context"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// TestImproveStaysInTheSpace: on random trees with relays of 12–32
// participants, the local search never returns a worse schedule than the
// one it starts from, its schedule replays with no violation at its claim
// and lies in the search's space (PlaceSequence, which times the same
// transfers in the same order, gives the same arrivals), and on most trees
// it finds a better one than ecef and fnf.
func TestImproveStaysInTheSpace(t *testing.T) {
	better, trees := 0, 0
	for _, parts := range []int{12, 24, 32} {
		for seed := range uint64(4) {
			in, s := hardECEF(t, seed, parts)
			nw, start := s.nw, s.best
			s.first.improveFor(200 * len(s.bestMoves))
			trees++
			if s.best < start-1e-9 {
				better++
			}
			if s.best > start+1e-9 {
				t.Errorf("random-%d/%d: %g after the local search, %g before", parts, seed, s.best, start)
			}
			sched := (&treenet.Calendar{Net: nw, Moves: s.bestMoves}).Schedule("optimal")
			if !approx(sched.Claimed, s.best) {
				t.Errorf("random-%d/%d: the schedule claims %g, the search %g", parts, seed, sched.Claimed, s.best)
			}
			checktest.Verify(t, in.Platform, in.Problem, sched, sim.Timed)
			checkBroadcast(t, in, sched)
			pairs := make([][2]string, len(s.bestMoves))
			for i, m := range s.bestMoves {
				pairs[i] = [2]string{nw.Name(m.From), nw.Name(m.To)}
			}
			placed, err := treenet.PlaceSequence(context.Background(), in, pairs)
			if err != nil {
				t.Fatalf("random-%d/%d: %v", parts, seed, err)
			}
			if !approx(placed.Claimed, s.best) {
				t.Errorf("random-%d/%d: treenet.PlaceSequence times the sequence at %g, the search at %g", parts, seed, placed.Claimed, s.best)
			}
		}
	}
	if better*2 < trees {
		t.Errorf("the local search improved on ecef and fnf on %d of %d trees only", better, trees)
	}
	t.Logf("better than ecef and fnf on %d of %d trees", better, trees)
}

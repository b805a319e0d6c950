package broadcast

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
)

// TestNeighbourhoodsHoldTheBest: every neighbourhood of the prover's
// search holds the schedule it is drawn around. On random trees of 16 and
// 24 participants, from the ecef schedule, each kind at sizes 6 and half
// the receivers (the largest improve draws) keeps each of its transfers at its start, keeps fewer transfers than
// the whole model (but for the window, which keeps every sender), and its
// formula at the schedule's makespan is satisfiable.
func TestNeighbourhoodsHoldTheBest(t *testing.T) {
	cadical := cadicalPath(t)
	for _, parts := range []int{16, 24} {
		for seed := range uint64(2) {
			in, s := hardECEF(t, seed, parts)
			nw := s.nw
			_, moves := s.reported()
			inc, ok := incumbentOf(moves, nw.size, 1e-9)
			if !ok {
				t.Fatalf("random-%d/%d: ecef's schedule is not one of whole messages", parts, seed)
			}
			whole, err := timeindexed.New(in, inc.makespan)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, 1))
			for kind := range lnsKinds {
				for _, n := range []int{lnsFirst - 2, len(inc.recv) / 2} {
					name := fmt.Sprintf("random-%d/%d kind %d n %d", parts, seed, kind, n)
					nb := inc.neighbourhood(nw, kind, n, whole.Step(), rng)
					for _, mv := range moves {
						lo, hi, ok := nb(mv.from, mv.to)
						if !ok || mv.start < lo-1e-9 || mv.start > hi+1e-9 {
							t.Errorf("%s: %d→%d at %g left out (%v, [%g, %g])", name, mv.from, mv.to, mv.start, ok, lo, hi)
						}
					}
					m, err := timeindexed.New(in, inc.makespan)
					if err != nil {
						t.Fatal(err)
					}
					if err := m.Restrict(nb); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if kind != lnsWindow && m.Binaries() >= whole.Binaries() {
						t.Errorf("%s: %d start variables, the whole model %d", name, m.Binaries(), whole.Binaries())
					}
					if _, a, err := m.Decide(context.Background(), cadical); err != nil || !a.Satisfiable() {
						t.Errorf("%s: no schedule by the best's makespan %g (%v)", name, inc.makespan, err)
					}
				}
			}
		}
	}
}

// TestIncumbentOf: the neighbourhoods read schedules of whole messages
// only, one per receiver.
func TestIncumbentOf(t *testing.T) {
	whole := []placement{{from: 0, to: 1, start: 0, arrive: 1, amount: 1}, {from: 1, to: 2, start: 1, arrive: 2.5, amount: 1}}
	inc, ok := incumbentOf(whole, 1, 1e-9)
	if !ok || inc.makespan != 2.5 || inc.sender[2] != 1 || inc.arrive[1] != 1 || len(inc.recv) != 2 {
		t.Errorf("whole messages: %+v, %v", inc, ok)
	}
	for name, moves := range map[string][]placement{
		"none":  nil,
		"half":  {{from: 0, to: 1, arrive: 1, amount: 0.5}, {from: 0, to: 1, arrive: 2, amount: 0.5, offset: 0.5}},
		"twice": {{from: 0, to: 1, arrive: 1, amount: 1}, {from: 2, to: 1, arrive: 2, amount: 1}},
	} {
		if _, ok := incumbentOf(moves, 1, 1e-9); ok {
			t.Errorf("%s: read", name)
		}
	}
}

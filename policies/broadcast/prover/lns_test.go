package prover

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/bcheck"
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// TestNeighbourhoodsHoldTheBest: every neighbourhood of the prover's
// search holds the schedule it is drawn around. On random trees of 16 (and
// 24 under NETSCHED_SLOW=1) participants, from the ecef schedule, each kind, freeing 6 and half
// the receivers, keeps each of the schedule's transfers at its start and
// fewer start variables than the whole model (but for the window, which
// keeps every sender); its formula at the schedule's makespan gives a
// schedule that replays, ends by then and lies in the neighbourhood.
func TestNeighbourhoodsHoldTheBest(t *testing.T) {
	cadical := cadicalPath(t)
	for _, parts := range slowtest.Pick([]int{16}, []int{16, 24}) {
		for seed := range uint64(2) {
			in := hardInstance(t, seed, parts)
			nw := networkOf(t, in)
			moves := firstSchedule(t, nw)
			inc, ok := incumbentOf(moves, nw.Size, 1e-9)
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
					nb := inc.neighbourhood(nw, kind, n, whole.Step(), rng)
					name := fmt.Sprintf("random-%d/%d kind %d n %d", parts, seed, kind, n)
					checkNeighbourhood(t, cadical, name, in, moves, nb, kind != lnsWindow, whole.Binaries())
				}
			}
		}
	}
}

// checkNeighbourhood checks one neighbourhood nb of the schedule moves
// for TestNeighbourhoodsHoldTheBest: it holds every transfer of moves, has
// fewer than whole start variables when smaller, and gives a schedule by
// the makespan of moves that replays and lies in it.
func checkNeighbourhood(t *testing.T, cadical, name string, in policies.Instance, moves []treenet.Placement, nb restriction, smaller bool, whole int) {
	t.Helper()
	inside := func(whose string, from, to int, start float64) {
		if lo, hi, ok := nb(from, to); !ok || start < lo-1e-9 || start > hi+1e-9 {
			t.Errorf("%s: %s %d→%d at %g is outside (%v, [%g, %g])", name, whose, from, to, start, ok, lo, hi)
		}
	}
	for _, mv := range moves {
		inside("the best's", mv.From, mv.To, mv.Start)
	}
	makespan := treenet.Makespan(moves)
	m, err := timeindexed.New(in, makespan)
	if err == nil {
		err = m.Restrict(nb)
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if smaller && m.Binaries() >= whole {
		t.Errorf("%s: %d start variables, the whole model %d", name, m.Binaries(), whole)
	}
	found, ok := bcheck.Decide(t, cadical, in, makespan, nb)
	if !ok {
		t.Errorf("%s: no schedule by the best's makespan %g", name, makespan)
		return
	}
	for _, a := range found.Actions {
		inside("the found schedule's", a.From, a.To, *a.Start)
	}
}

// TestIncumbentOf: the neighbourhoods read schedules of whole messages
// only, one per receiver.
func TestIncumbentOf(t *testing.T) {
	whole := []treenet.Placement{{From: 0, To: 1, Start: 0, Arrive: 1, Amount: 1}, {From: 1, To: 2, Start: 1, Arrive: 2.5, Amount: 1}}
	inc, ok := incumbentOf(whole, 1, 1e-9)
	if !ok || inc.makespan != 2.5 || inc.sender[2] != 1 || inc.arrive[1] != 1 || len(inc.recv) != 2 {
		t.Errorf("whole messages: %+v, %v", inc, ok)
	}
	for name, moves := range map[string][]treenet.Placement{
		"none":  nil,
		"half":  {{From: 0, To: 1, Arrive: 1, Amount: 0.5}, {From: 0, To: 1, Arrive: 2, Amount: 0.5, Offset: 0.5}},
		"twice": {{From: 0, To: 1, Arrive: 1, Amount: 1}, {From: 2, To: 1, Arrive: 2, Amount: 1}},
	} {
		if _, ok := incumbentOf(moves, 1, 1e-9); ok {
			t.Errorf("%s: read", name)
		}
	}
}

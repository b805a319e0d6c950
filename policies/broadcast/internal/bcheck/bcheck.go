// Package bcheck holds the checks the broadcast wing's tests share: a
// schedule that is a broadcast of whole messages (Broadcast, After), and
// the time-indexed model decided by CaDiCaL with its schedule verified
// (Decide). It holds no test of its own and no policy.
package bcheck

import (
	"context"
	"errors"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/sim"
)

// Broadcast fails unless a whole-message schedule moves the whole
// message in every transfer, never to a node that already holds it (a root
// or the receiver of an earlier transfer), and follows what delivered to
// each sender (checkAfter). That every participant receives the message
// and every sender holds it is for the problem check (checktest.Verify).
func Broadcast(t testing.TB, in policies.Instance, s *sim.Schedule) {
	t.Helper()
	tr := in.Platform.Tree
	holds := map[int]bool{}
	for _, r := range in.Problem.Broadcast.Roots {
		v, _ := tr.NodeIndex(r)
		holds[v] = true
	}
	for i, a := range s.Actions {
		if a.Amount != in.Problem.Broadcast.Size {
			t.Errorf("%s: action %d moves %g, not the message %g", s.Policy, i, a.Amount, in.Problem.Broadcast.Size)
		}
		if holds[a.To] {
			t.Errorf("%s: action %d sends to %d, which already holds the message", s.Policy, i, a.To)
		}
		holds[a.To] = true
	}
	After(t, s)
}

// After fails unless every transfer follows (After) only transfers
// that delivered to its sender: the data it forwards.
func After(t testing.TB, s *sim.Schedule) {
	t.Helper()
	for i, a := range s.Actions {
		for _, j := range a.After {
			if s.Actions[j].To != a.From {
				t.Errorf("%s: action %d follows action %d, which did not deliver to its sender", s.Policy, i, j)
			}
		}
	}
}

// Decide reports whether a feasible schedule ends by horizon, in the
// neighbourhood nb (nil: the whole model), with that schedule, which must
// replay with no violation and end by it.
func Decide(t testing.TB, cadical string, in policies.Instance, horizon float64, nb func(u, v int) (lo, hi float64, ok bool)) (*sim.Schedule, bool) {
	t.Helper()
	m, err := timeindexed.New(in, horizon)
	if err == nil && nb != nil {
		err = m.Restrict(nb)
	}
	if errors.Is(err, timeindexed.ErrHorizon) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	f, a, err := m.Decide(context.Background(), cadical)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Satisfiable() {
		if !a.Unsatisfiable() {
			t.Fatalf("horizon %g: %s", horizon, a.Status)
		}
		return nil, false
	}
	s, err := f.Schedule(a, "sat")
	if err != nil {
		t.Fatal(err)
	}
	checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
	Broadcast(t, in, s)
	if s.Claimed > m.Horizon()*(1+1e-9) {
		t.Errorf("horizon %g: the schedule ends at %.12g", m.Horizon(), s.Claimed)
	}
	return s, true
}

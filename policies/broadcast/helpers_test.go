package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// instanceOf is a broadcast of size from roots on a tree.
func instanceOf(tr *models.Tree, size float64, roots ...string) policies.Instance {
	return policies.Instance{
		Platform: &models.Platform{Tree: tr},
		Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: roots, Size: size}},
	}
}

// withOptions returns a copy of in with options set.
func withOptions(in policies.Instance, o policies.Options) policies.Instance {
	in.Options = o
	return in
}

// mustPlan runs a registered policy.
func mustPlan(t testing.TB, name string, in policies.Instance) *sim.Schedule {
	t.Helper()
	e, ok := policies.Lookup(name)
	if !ok {
		t.Fatalf("policy %q is not registered", name)
	}
	s, err := e.Planner.Plan(context.Background(), in)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// replayOK replays a schedule in timed mode and fails unless it has no
// violation and its simulated makespan equals the claim.
func replayOK(t testing.TB, in policies.Instance, s *sim.Schedule) *sim.Result {
	t.Helper()
	res, err := sim.Replay(context.Background(), in.Platform, s, sim.Timed)
	if err != nil {
		t.Fatalf("%s: replay: %v", s.Policy, err)
	}
	for i, v := range res.Violations {
		if i < 5 {
			t.Errorf("%s: %v", s.Policy, v)
		}
	}
	if !res.Matches() {
		t.Errorf("%s: simulated makespan %.12g, claimed %.12g", s.Policy, res.Makespan, s.Claimed)
	}
	return res
}

// checkBroadcast fails unless every participant holds the message at the
// end, each sender held it (from a root or the transfer in After) before
// it sent, and each transfer carries the whole message.
func checkBroadcast(t testing.TB, in policies.Instance, s *sim.Schedule) {
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
		if !holds[a.From] {
			t.Errorf("%s: action %d: sender %d does not hold the message", s.Policy, i, a.From)
		}
		if len(a.After) == 1 && s.Actions[a.After[0]].To != a.From {
			t.Errorf("%s: action %d follows action %d, which did not deliver to its sender", s.Policy, i, a.After[0])
		}
		if holds[a.To] {
			t.Errorf("%s: action %d sends to %d, which already holds the message", s.Policy, i, a.To)
		}
		holds[a.To] = true
	}
	for v, n := range tr.Nodes {
		if !n.Relay && !holds[v] {
			t.Errorf("%s: participant %s never gets the message", s.Policy, n.Name)
		}
	}
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

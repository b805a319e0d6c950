package broadcast

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/bcheck"
	_ "github.com/netsched/netsched/policies/broadcast/mpi" // the MPI baselines, which the tests compare with the optimum
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// checkBroadcast and checkAfter are bcheck's (see there).
var (
	checkBroadcast = bcheck.Broadcast
	checkAfter     = bcheck.After
)

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

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// hardNetwork is the network of randomHardInstance(seed, parts).
func hardNetwork(tb testing.TB, seed uint64, parts int) *treenet.Network {
	tb.Helper()
	return networkOf(tb, hardInstance(tb, seed, parts))
}

// hardInstance is randomHardInstance(seed, parts).
func hardInstance(tb testing.TB, seed uint64, parts int) policies.Instance {
	tb.Helper()
	in, err := randomHardInstance(seed, parts)
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// networkOf is the network of an instance.
func networkOf(tb testing.TB, in policies.Instance) *treenet.Network {
	tb.Helper()
	nw, err := treenet.NewNetwork(context.Background(), in)
	if err != nil {
		tb.Fatal(err)
	}
	return nw
}

// ecefSearch is a search on in whose best is the better of ecef's and
// fnf's schedules.
func ecefSearch(tb testing.TB, in policies.Instance) *search {
	tb.Helper()
	s := newSearch(networkOf(tb, in), DefaultOptions())
	s.in = in
	if err := s.first.ecef(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return s
}

// hardECEF is ecefSearch on randomHardInstance(seed, parts), with the
// instance.
func hardECEF(tb testing.TB, seed uint64, parts int) (policies.Instance, *search) {
	tb.Helper()
	in := hardInstance(tb, seed, parts)
	return in, ecefSearch(tb, in)
}

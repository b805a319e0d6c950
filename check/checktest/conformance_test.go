package checktest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// instance is a platform and problem to plan, with a name for subtests.
type instance struct {
	name string
	pl   *models.Platform
	pr   *models.Problem
	opts policies.Options
}

// instances lists the bundled scenarios' instances of a family (each with
// the options its scenario gives a policy, by policy name), then n seeded
// random ones.
func instances(t *testing.T, family string, n int) []instance {
	t.Helper()
	var out []instance
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Problem.Family() != family {
			continue
		}
		for i := range sc.Policies {
			in := sc.Instance(i, 1)
			out = append(out, instance{"bundled/" + name + "/" + sc.Policies[i].Name, in.Platform, in.Problem, in.Options})
		}
	}
	for seed := range uint64(n) {
		pl, pr, err := checktest.Random(family, seed)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, instance{fmt.Sprintf("random/%s/%d", pl.Kind(), seed), &pl, &pr, nil})
	}
	return out
}

// runs reports whether policy e is to plan instance in: its family, a
// platform it supports, and, for a bundled scenario, one of its policies.
func runs(e policies.Entry, in instance) bool {
	if in.pr.Family() != e.Family {
		return false
	}
	var scenario, policy string
	if _, err := fmt.Sscanf(in.name, "bundled/%s", &scenario); err != nil {
		return slices.Contains(e.Platforms, in.pl.Kind()) // a random instance: every policy of the family that runs there
	}
	_, policy = splitLast(scenario)
	return policy == e.Name
}

// TestPlatformsDeclared walks the registry: every policy declares the
// platform kinds it runs on (netsched list prints them), every bundled
// scenario names a policy only on a platform it declares, and a policy
// refuses an instance of its family on every platform kind it does not
// declare.
func TestPlatformsDeclared(t *testing.T) {
	for _, e := range policies.All() {
		if len(e.Platforms) == 0 {
			t.Errorf("%s declares no platform kind", e.Name)
		}
		for _, in := range instances(t, e.Family, 0) {
			if runs(e, in) && !slices.Contains(e.Platforms, in.pl.Kind()) {
				t.Errorf("%s runs %s on a %s platform, which it does not declare", e.Name, in.name, in.pl.Kind())
			}
		}
	}
	for _, e := range policies.All() {
		for _, kind := range []string{models.KindCrossbar, models.KindMultiCluster, models.KindTree, models.KindDelay, models.KindWorkstations} {
			if slices.Contains(e.Platforms, kind) {
				continue
			}
			pl, pr := otherPlatform(t, e.Family, kind)
			if _, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Seed: 1}); err == nil {
				t.Errorf("%s plans its %s problem on a %s platform, which it does not declare", e.Name, e.Family, kind)
			}
		}
	}
}

// otherPlatform is a random instance of family with its platform replaced
// by one of the given kind, taken from a random instance of the family
// that runs there.
func otherPlatform(t *testing.T, family, kind string) (*models.Platform, *models.Problem) {
	t.Helper()
	_, pr, err := checktest.Random(family, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{models.FamilyDivisible, models.FamilyDAG, models.FamilyBroadcast, models.FamilyBalance} {
		for seed := range uint64(8) {
			if pl, _, _ := checktest.Random(f, seed); pl.Kind() == kind {
				return &pl, &pr
			}
		}
	}
	t.Fatalf("no random platform of kind %s", kind)
	return nil, nil
}

func splitLast(s string) (string, string) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// randomOptions are the options a policy plans random instances with: a
// node budget for the optimal broadcast, whose search may otherwise run
// for minutes on a tree of 14 nodes (issue 21).
var randomOptions = map[string]policies.Options{"optimal": {"max_nodes": 20000}}

// TestConformance plans with every registered policy every bundled
// scenario that names it and seeded random instances of its family on the
// platforms it supports, and requires each schedule to be verified in
// timed replay (no breach of the platform, the problem solved, the claim
// kept) and to solve the problem in ordered replay too, where each action
// starts as soon as its After list and its resources allow (the makespan
// may then differ from the claim: on processors whose speed depends on
// what they communicate, starting early is not always finishing early). A
// random instance outside what a policy handles, such as two roots for an
// MPI broadcast, may be declined, but not most of them. A policy added to
// the registry is covered without a test of its own.
func TestConformance(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 8
	}
	byFamily := map[string][]instance{}
	for _, e := range policies.All() {
		if byFamily[e.Family] == nil {
			byFamily[e.Family] = instances(t, e.Family, n)
		}
		planned, declined := 0, 0
		for _, in := range byFamily[e.Family] {
			if !runs(e, in) {
				continue
			}
			t.Run(e.Name+"/"+in.name, func(t *testing.T) {
				opts := in.opts
				if opts == nil {
					opts = randomOptions[e.Name]
				}
				s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: in.pl, Problem: in.pr, Options: opts, Seed: 1})
				switch {
				case err != nil && strings.HasPrefix(in.name, "random/"):
					declined++
					t.Skipf("declined: %v", err)
				case err != nil:
					t.Fatalf("plan: %v", err)
				}
				planned++
				checktest.Verify(t, in.pl, in.pr, s, sim.Timed)
				checktest.Solves(t, in.pl, in.pr, s, sim.Ordered)
			})
		}
		if planned == 0 || declined > planned {
			t.Errorf("policy %s: planned %d instances and declined %d", e.Name, planned, declined)
		}
	}
}

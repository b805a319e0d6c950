package checktest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// Suite is the conformance suite: Run holds one registered policy to the
// project's claim on every bundled scenario that names it and on seeded
// random instances of its family. A policy outside this module runs it in
// its own test, as gonum's testgraph lets any graph implementation do:
//
//	import _ "github.com/netsched/netsched/policies/all" // the bundled scenarios name netsched's policies
//
//	func TestConformance(t *testing.T) {
//		e, _ := policies.Lookup("hlfet")
//		new(checktest.Suite).Run(t, e)
//	}
//
// Its zero value is ready to use. A Suite keeps the instances it has drawn
// for each family, so running it on many policies draws them once; it is
// not safe for concurrent use.
type Suite struct {
	// Random is the number of seeded random instances per family
	// (Random(family, seed) for seeds 0 … Random−1); 0 means 30, and a
	// negative number none.
	Random int
	// Options are the options a policy plans random instances with, by
	// policy name; nil means DefaultOptions.
	Options map[string]policies.Options
	// Check, if not nil, is a further check of every schedule a policy
	// plans, such as netsched's own test that each metric it reports is
	// explained.
	Check func(t *testing.T, e policies.Entry, s *sim.Schedule)

	drawn map[string][]instance
}

// DefaultOptions are the options of the suite's random instances: a node
// budget for the optimal broadcast, whose search may otherwise run for
// minutes on a tree of 14 nodes (issue 21).
func DefaultOptions() map[string]policies.Options {
	return map[string]policies.Options{"optimal": {"max_nodes": 20000}}
}

// kinds are the platform kinds that Random draws.
func kinds() []string {
	return []string{models.KindCrossbar, models.KindMultiCluster, models.KindTree, models.KindDelay, models.KindWorkstations}
}

// families are the problem families that Random draws.
func families() []string {
	return []string{models.FamilyDivisible, models.FamilyDAG, models.FamilyBroadcast, models.FamilyBalance}
}

// instance is a platform and problem to plan, with a name for subtests.
type instance struct {
	name string
	pl   *models.Platform
	pr   *models.Problem
	opts policies.Options
	// policy names the bundled scenario's policy that plans it; empty for
	// a random instance, which every policy of the family declaring its
	// platform plans.
	policy string
}

// Run plans with e every bundled scenario that names it and the suite's
// random instances of its family on the platforms it declares, and
// requires each schedule to be verified in timed replay (no breach of the
// platform, the problem solved, the claim kept) and to solve the problem
// in ordered replay too, where each action starts as soon as its After
// list and its resources allow (the makespan may then differ from the
// claim: on processors whose speed depends on what they communicate,
// starting early is not always finishing early). A random instance outside
// what a policy handles, such as two roots for an MPI broadcast, may be
// declined, but not most of them. It fails t if e plans nothing.
func (s *Suite) Run(t *testing.T, e policies.Entry) {
	t.Helper()
	planned, declined := 0, 0
	for _, c := range s.Cases(t, e) {
		t.Run(e.Name+"/"+c.Name, func(t *testing.T) {
			sch, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: c.Platform, Problem: c.Problem, Options: c.Options, Seed: 1})
			switch {
			case err != nil && c.Random:
				declined++
				t.Skipf("declined: %v", err)
			case err != nil:
				t.Fatalf("plan: %v", err)
			}
			planned++
			if s.Check != nil {
				s.Check(t, e, sch)
			}
			Verify(t, c.Platform, c.Problem, sch, sim.Timed)
			Solves(t, c.Platform, c.Problem, sch, sim.Ordered)
		})
	}
	if planned == 0 || declined > planned {
		t.Errorf("policy %s: planned %d instances and declined %d", e.Name, planned, declined)
	}
}

// Case is an instance that the suite plans with a policy, with the options
// the policy plans it with.
type Case struct {
	Name     string // "bundled/<scenario>/<policy>" or "random/<platform kind>/<seed>"
	Platform *models.Platform
	Problem  *models.Problem
	Options  policies.Options
	Random   bool // a random instance, which the policy may decline
}

// Cases are the instances the suite plans with e: the bundled scenarios
// that name it, with their options, then the random instances of its
// family on the platforms it declares, with the suite's options for it.
func (s *Suite) Cases(t *testing.T, e policies.Entry) []Case {
	t.Helper()
	var out []Case
	for _, in := range s.instances(t, e.Family) {
		if !plans(e, in) {
			continue
		}
		c := Case{Name: in.name, Platform: in.pl, Problem: in.pr, Options: in.opts, Random: in.policy == ""}
		if c.Random {
			c.Options = s.options()[e.Name]
		}
		out = append(out, c)
	}
	return out
}

// Declared checks that e plans only on the platform kinds it declares (the
// kinds netsched list prints): every bundled scenario names it only on
// such a platform, and it refuses an instance of its family on every other
// kind.
func (s *Suite) Declared(t *testing.T, e policies.Entry) {
	t.Helper()
	if len(e.Platforms) == 0 {
		t.Errorf("%s declares no platform kind", e.Name)
	}
	for _, in := range s.instances(t, e.Family) {
		if in.policy == e.Name && !slices.Contains(e.Platforms, in.pl.Kind()) {
			t.Errorf("%s runs %s on a %s platform, which it does not declare", e.Name, in.name, in.pl.Kind())
		}
	}
	for _, kind := range kinds() {
		if slices.Contains(e.Platforms, kind) {
			continue
		}
		pl, pr, ok := otherPlatform(e.Family, kind)
		if !ok {
			t.Errorf("no random instance on a %s platform to offer %s", kind, e.Name)
			continue
		}
		if _, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Seed: 1}); err == nil {
			t.Errorf("%s plans its %s problem on a %s platform, which it does not declare", e.Name, e.Family, kind)
		}
	}
}

func (s *Suite) options() map[string]policies.Options {
	if s.Options == nil {
		return DefaultOptions()
	}
	return s.Options
}

// instances are the bundled scenarios' instances of a family (each with the
// options its scenario gives a policy), then the random ones; drawn once
// per family.
func (s *Suite) instances(t *testing.T, family string) []instance {
	t.Helper()
	if in, ok := s.drawn[family]; ok {
		return in
	}
	var out []instance
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Problem.Family() != family {
			continue
		}
		for i, spec := range sc.Policies {
			in := sc.Instance(i, 1)
			out = append(out, instance{"bundled/" + name + "/" + spec.Name, in.Platform, in.Problem, in.Options, spec.Name})
		}
	}
	n := s.Random
	if n == 0 {
		n = 30
	}
	n = max(n, 0)
	for seed := range uint64(n) {
		pl, pr, err := Random(family, seed)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, instance{fmt.Sprintf("random/%s/%d", pl.Kind(), seed), &pl, &pr, nil, ""})
	}
	if s.drawn == nil {
		s.drawn = map[string][]instance{}
	}
	s.drawn[family] = out
	return out
}

// plans reports whether policy e is to plan instance in: its family, a
// platform it supports, and, for a bundled scenario, the scenario's policy.
func plans(e policies.Entry, in instance) bool {
	if in.pr.Family() != e.Family {
		return false
	}
	if in.policy == "" {
		return slices.Contains(e.Platforms, in.pl.Kind())
	}
	return in.policy == e.Name
}

// otherPlatform is a random instance of family with its platform replaced
// by one of the given kind, taken from a random instance of any family
// that runs there.
func otherPlatform(family, kind string) (*models.Platform, *models.Problem, bool) {
	_, pr, err := Random(family, 1)
	if err != nil {
		return nil, nil, false
	}
	for _, f := range families() {
		for seed := range uint64(8) {
			if pl, _, _ := Random(f, seed); pl.Kind() == kind {
				return &pl, &pr, true
			}
		}
	}
	return nil, nil, false
}

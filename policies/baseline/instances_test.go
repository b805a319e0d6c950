package baseline_test

import (
	"fmt"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all" // bundled scenarios name every family's policies
	"github.com/netsched/netsched/scenarios"
)

// named is a test instance with a name for subtests.
type named struct {
	name string
	in   policies.Instance
}

// instancesFor returns the bundled scenarios whose problem family is fam,
// then n random instances of that family (checktest.Random, seeded, so
// every run is the same), leaving out the task graphs that are not on the
// delay platform, the only one the task-graph baselines run on.
func instancesFor(t *testing.T, fam string, n int) []named {
	t.Helper()
	var out []named
	for _, name := range scenarios.Bundled() {
		s, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Problem.Family() == fam && onBaselinePlatform(&s.Platform, fam) {
			in := s.Instance(0, 1)
			in.Options = nil // the first policy's options are not the baseline's
			out = append(out, named{"bundled/" + name, in})
		}
	}
	for seed := range uint64(n) {
		pl, pr, err := checktest.Random(fam, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !onBaselinePlatform(&pl, fam) {
			continue
		}
		out = append(out, named{fmt.Sprintf("random/%s/%d", pl.Kind(), seed),
			policies.Instance{Platform: &pl, Problem: &pr, Seed: seed}})
	}
	return out
}

// onBaselinePlatform reports whether the baselines of family fam run on
// pl: a task graph's only on the delay platform.
func onBaselinePlatform(pl *models.Platform, fam string) bool {
	return fam != models.FamilyDAG || pl.Delay != nil
}

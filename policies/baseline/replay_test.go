package baseline_test

import (
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// TestReplay verifies every baseline on the bundled scenario of its family
// and on random instances: timed replay must find no violation of the
// platform or the problem and the simulated makespan must equal the claim;
// ordered replay must solve the problem too and reach the same makespan,
// since every action already starts as early as its order allows (Verify
// alone would accept an earlier end).
func TestReplay(t *testing.T) {
	for _, tc := range []struct {
		family   string
		policies []string
	}{
		{models.FamilyDivisible, []string{"no-redistribution", "direct"}},
		{models.FamilyDAG, []string{"sequential", "unclustered"}},
		{models.FamilyBroadcast, []string{"flat-sequential"}},
	} {
		for _, inst := range instancesFor(t, tc.family, 60) {
			t.Run(inst.name, func(t *testing.T) {
				for _, policy := range tc.policies {
					s := plan(t, policy, inst.in)
					checktest.Verify(t, inst.in.Platform, inst.in.Problem, s, sim.Timed)
					if res := checktest.Verify(t, inst.in.Platform, inst.in.Problem, s, sim.Ordered); !near(res.Makespan, res.Claimed) {
						t.Errorf("%s (ordered): simulated %v, claimed %v (gap %g)", policy, res.Makespan, res.Claimed, res.Gap())
					}
				}
			})
		}
	}
}

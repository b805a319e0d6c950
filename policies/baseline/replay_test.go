package baseline_test

import (
	"context"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// TestReplay replays every baseline on the bundled scenario of its family
// and on random instances: timed replay must find no violation and the
// simulated makespan must equal the claim; ordered replay must reach the
// same makespan, since every action starts as early as its order allows.
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
			for _, policy := range tc.policies {
				s := plan(t, policy, inst.in)
				for _, mode := range []sim.Mode{sim.Timed, sim.Ordered} {
					res, err := sim.Replay(context.Background(), inst.in.Platform, s, mode)
					if err != nil {
						t.Errorf("%s %s %s: %v", policy, inst.name, mode, err)
						continue
					}
					for _, v := range res.Violations {
						t.Errorf("%s %s %s: %v", policy, inst.name, mode, v)
					}
					if !res.Matches() {
						t.Errorf("%s %s %s: simulated %v, claimed %v (gap %g)", policy, inst.name, mode,
							res.Makespan, res.Claimed, res.Gap())
					}
				}
			}
		}
	}
}

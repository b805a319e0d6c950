package multicluster

import (
	"math"
	"testing"

	"github.com/netsched/netsched/policies"
)

// TestRelayCase is testdata/relay.yaml: a master-heavy cluster whose one
// master cannot push its load out of the cluster over the slow network on
// top of what it sends its neighbours. Relays through its neighbours cut
// the round time (T equals the LP's); every policy's schedule replays.
func TestRelayCase(t *testing.T) {
	c := loadCase(t, "testdata/relay.yaml")
	m := mustModel(t, &c.Platform, &c.Problem)
	with, err := RoundTime(m, true)
	if err != nil {
		t.Fatal(err)
	}
	without, err := RoundTime(m, false)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := lpRoundTime(&c.Platform)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(with.T-lp) > 1e-9*lp {
		t.Errorf("T = %g, LP %g", with.T, lp)
	}
	if without.T < 1.15*with.T {
		t.Errorf("relays gain too little: T %g with, %g without", with.T, without.T)
	}
	if n := relaysIn(with); n < 1 {
		t.Errorf("%d relays", n)
	}
	t.Logf("T with relays %.6g, without %.6g, LP %.6g", with.T, without.T, lp)
	for _, rounds := range []int{1, 0} {
		c.Problem.Divisible.Rounds = 0
		if rounds == 1 {
			c.Problem.Divisible.Rounds = 1
		}
		c.Platform.MultiCluster.Alpha = 0.002
		claimed := map[string]float64{}
		for _, name := range []string{"multicluster", "multicluster-norelay", "mmdl-flat"} {
			claimed[name] = planVerified(t, name, &c.Platform, &c.Problem, policies.Options{}).Claimed
		}
		t.Logf("rounds %d: %v", rounds, claimed)
		if rounds == 0 && !(claimed["multicluster"] < claimed["multicluster-norelay"] && claimed["multicluster-norelay"] < claimed["mmdl-flat"]) {
			t.Errorf("with R auto, want multicluster < multicluster-norelay < mmdl-flat, got %v", claimed)
		}
	}
}

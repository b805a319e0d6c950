package multicluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// planVerified plans with a registered policy and fails unless the schedule
// is verified in timed replay on the platform (checktest.Verify): no
// violation of the platform or the problem, and simulated = claimed.
func planVerified(t *testing.T, name string, pl *models.Platform, pr *models.Problem, opts policies.Options) *sim.Schedule {
	t.Helper()
	e, ok := policies.Lookup(name)
	if !ok {
		t.Fatalf("%s is not registered", name)
	}
	s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Options: opts})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checktest.Verify(t, pl, pr, s, sim.Timed)
	return s
}

// replayMiss replays s timed on the platform and fails unless the replay
// shows it missing its claim (a violation of the platform, or simulated ≠
// claimed) while it still solves the problem (check.Check). It returns the
// result.
func replayMiss(t *testing.T, pl *models.Platform, pr *models.Problem, s *sim.Schedule) *sim.Result {
	t.Helper()
	res, err := replay.Replay(context.Background(), pl, s, sim.Timed)
	if err != nil {
		t.Fatalf("%s: replay: %v", s.Policy, err)
	}
	if res.OK() {
		t.Errorf("%s: replay OK (simulated %g, claimed %g), want a miss", s.Policy, res.Makespan, res.Claimed)
	}
	vs, err := check.Check(pl, pr, s, res.Starts, res.Ends)
	if err != nil {
		t.Fatalf("%s: check: %v", s.Policy, err)
	}
	for _, v := range vs {
		t.Errorf("%s: %v", s.Policy, v)
	}
	return res
}

// TestPoliciesReplay plans random instances (with and without start-up
// latency, R from the problem or automatic) with every policy of the
// package and replays each schedule, timed, on the multi-cluster: no
// violation and simulated = claimed.
func TestPoliciesReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 200
	if testing.Short() || !slowtest.Enabled() {
		n = 40
	}
	var relays, deep, actions int
	defer func() {
		t.Logf("%d instances: %d with relays, %d with relay depth > 0, %d actions", n, relays, deep, actions)
	}()
	for k := range n {
		o := genOptions{maxClusters: 4, maxProcs: 5, noOverlap: 0.3}
		if k%3 == 0 {
			o.alpha = 0.01
		}
		pl, pr := randomInstance(rng, o)
		pr.Divisible.Rounds = models.Rounds([]int{0, 1, 3, 10}[k%4])
		for _, name := range []string{"multicluster", "multicluster-norelay", "mmdl-flat"} {
			s := planVerified(t, name, pl, pr, nil)
			actions += len(s.Actions)
			if name == "multicluster" && s.Metrics["relays"] > 0 {
				relays++
			}
			if name == "multicluster" && s.Metrics["relay_depth"] > 0 {
				deep++
			}
			if name == "mmdl-flat" || pl.MultiCluster.Alpha > 0 {
				continue
			}
			// Without start-up latency every slot lasts at most T/R.
			R, T, slots := s.Metrics["R"], s.Metrics["T"], s.Metrics["slots"]
			if bound := T * slots / R; s.Claimed > bound*(1+1e-9) {
				t.Errorf("instance %d %s: claimed %g > T·slots/R = %g", k, name, s.Claimed, bound)
			}
		}
	}
}

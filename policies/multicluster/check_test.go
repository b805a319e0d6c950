package multicluster

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// TestAssumptions breaks each assumption of paper 001 in the relay case:
// without force the policy fails with an error naming the field; with
// force it plans, says so in the warnings, and the replay runs (and shows
// the miss where the platform's rates are not the model's; with results to
// collect, the problem check shows that none go back).
func TestAssumptions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(c *testCase)
		path   string
		misses bool // the replay shows the schedule missing its claim
	}{
		{"beta_j above beta", func(c *testCase) { c.Platform.MultiCluster.Clusters[1].Beta = 0.08 },
			"platform.multicluster.clusters[1].beta", false},
		{"mu^X above mu^I", func(c *testCase) {
			c.Platform.MultiCluster.Clusters[0].Processors[0].Overlap = map[string]float64{models.KindIntraSend: math.Inf(1), models.KindInterSend: 1.01}
		}, "platform.multicluster.clusters[0].processors[0].overlap", false},
		{"omega^I above omega^X", func(c *testCase) {
			c.Platform.MultiCluster.Clusters[1].Processors[3].Overlap = map[string]float64{models.KindIntraRecv: math.Inf(1), models.KindInterRecv: 0.26}
		}, "platform.multicluster.clusters[1].processors[3].overlap", false},
		{"combined rate slower than the rule", func(c *testCase) {
			c.Problem.Divisible.Rounds = 10 // so that a relay's two halves overlap
			for k := 1; k <= 10; k++ {      // A's workers relay: intra-recv with inter-send
				p := &c.Platform.MultiCluster.Clusters[0].Processors[k]
				p.Combined = []models.CombinedRate{{Active: []string{models.KindIntraRecv, models.KindInterSend}, Gamma: 50}}
			}
		}, "platform.multicluster.clusters[0].processors[1].combined", true},
		{"results collected", func(c *testCase) {
			c.Problem.Divisible.CollectResults, c.Problem.Divisible.ResultSize = true, 0.5
		}, "problem.divisible.collect_results", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := loadCase(t, "testdata/relay.yaml")
			tc.change(c)
			in := policies.Instance{Platform: &c.Platform, Problem: &c.Problem}
			e, _ := policies.Lookup("multicluster")
			_, err := e.Planner.Plan(context.Background(), in)
			var fe *models.FieldError
			if !errors.As(err, &fe) || fe.Path != tc.path || !strings.Contains(err.Error(), "force") {
				t.Fatalf("want an error at %s suggesting force, got %v", tc.path, err)
			}
			in.Options = policies.Options{"force": true}
			s, err := e.Planner.Plan(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], tc.path) {
				t.Errorf("warnings %q do not name %s", s.Warnings, tc.path)
			}
			if c.Problem.Divisible.CollectResults {
				// Forced, the policy plans the load as if no results came
				// back, as its warning says: the schedule keeps the
				// platform's rules but does not solve the problem.
				res, err := check.Replay(context.Background(), &c.Platform, &c.Problem, s, sim.Timed)
				if err != nil || res.OK() || slices.ContainsFunc(res.Violations, func(v sim.Violation) bool { return v.Kind != check.ResultsMissing }) {
					t.Fatalf("want only results-missing violations, got %v %v", err, res.Violations)
				}
				return
			}
			if !tc.misses {
				checktest.Verify(t, &c.Platform, &c.Problem, s, sim.Timed)
				return
			}
			res := replayMiss(t, &c.Platform, &c.Problem, s)
			t.Logf("replay: %d violations, simulated %g against claimed %g", len(res.Violations), res.Makespan, res.Claimed)
		})
	}
}

func TestBadInput(t *testing.T) {
	c := loadCase(t, "testdata/relay.yaml")
	cross := &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.FullDuplex, Processors: []models.Processor{{Gamma: 1}}}}
	bad := *c.Platform.MultiCluster
	bad.Clusters = append([]models.Cluster(nil), bad.Clusters...)
	bad.Clusters[1].Beta = -1
	e, _ := policies.Lookup("multicluster")
	for _, tc := range []struct {
		name string
		in   policies.Instance
		want string
	}{
		{"crossbar", policies.Instance{Platform: cross, Problem: &c.Problem}, "policy multicluster runs on multicluster platforms, not crossbar"},
		{"dag", policies.Instance{Platform: &c.Platform, Problem: &models.Problem{DAG: &models.DAG{}}}, "problem"},
		{"negative beta_j", policies.Instance{Platform: &models.Platform{MultiCluster: &bad}, Problem: &c.Problem}, "platform.multicluster.clusters[1].beta"},
		{"unknown option", policies.Instance{Platform: &c.Platform, Problem: &c.Problem, Options: policies.Options{"relay": true}}, `unknown option "relay"`},
		{"max_rounds", policies.Instance{Platform: &c.Platform, Problem: &c.Problem, Options: policies.Options{"max_rounds": 0}}, "max_rounds"},
		{"nil", policies.Instance{}, "needs a platform and a problem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.Planner.Plan(context.Background(), tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error containing %q, got %v", tc.want, err)
			}
		})
	}
}

package checktest_test

import (
	"context"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// arrowGraph is a task graph whose names hold the separator of transfer
// labels: tasks a, b→c, a→b and c, and edges a → b→c and a→b → c, which
// a label joining the names as they are would both call a→b→c.
const arrowGraph = `problem:
  dag:
    tasks: [{name: a, weight: 2}, {name: b→c, weight: 3}, {name: a→b, weight: 2}, {name: c, weight: 1}, {name: '"q', weight: 1}]
    edges: [{from: 0, to: 1, data: 4}, {from: 2, to: 3, data: 5}, {from: 4, to: 3, data: 2}, {from: 0, to: 3, data: 1}]
policies: [dsc]
`

// arrowPlatforms are the platform kinds a task graph runs on.
var arrowPlatforms = map[string]string{
	"delay":    "platform: {delay: {rho: 2}}\n",
	"crossbar": "platform: {crossbar: {beta: 0.5, duplex: half, processors: [{gamma: 1}, {gamma: 2}, {gamma: 1.5}]}}\n",
	"multicluster": "platform: {multicluster: {beta: 1, clusters: [{name: A, beta: 0.1, processors: [{gamma: 1}, {gamma: 1}]}," +
		" {name: B, beta: 0.1, processors: [{gamma: 2}]}]}}\n",
}

// TestArrowNames: on every platform kind, every task graph policy that
// runs there plans the graph of arrowGraph into a schedule that verifies;
// its transfers name each edge unambiguously (models.EdgeLabelOf).
func TestArrowNames(t *testing.T) {
	for kind, platform := range arrowPlatforms {
		sc, err := scenarios.Parse(kind+".yaml", []byte(platform+arrowGraph))
		if err != nil {
			t.Fatal(err)
		}
		in := sc.Instance(0, 1)
		planned := 0
		for _, e := range policies.All() {
			if e.Supports(sc.Problem.Family(), sc.Platform.Kind()) != nil {
				continue
			}
			planned++
			t.Run(kind+"/"+e.Name, func(t *testing.T) {
				s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: in.Platform, Problem: in.Problem, Options: checktest.DefaultOptions()[e.Name], Seed: 1})
				if err != nil {
					t.Fatalf("plan: %v", err)
				}
				checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
				checktest.Solves(t, in.Platform, in.Problem, s, sim.Ordered)
			})
		}
		if planned < 2 {
			t.Errorf("%s: only %d policies plan task graphs", kind, planned)
		}
	}
}

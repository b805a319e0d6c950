package checktest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// TestBoundedDelay puts every registered task-graph policy on the delay
// platform with a bound on its processors, delay: {rho: 2, processors: 4},
// with more tasks than processors (FFT(8), 39 tasks) and fewer (a chain
// of 3): each either plans a schedule that is verified in timed replay or
// is refused when the scenario loads, naming the policy's entry (exit
// status 2 in the CLI), never an error row at run time.
func TestBoundedDelay(t *testing.T) {
	for _, graph := range []string{"{from: {fft: 8}}", "{tasks: [{weight: 1}, {weight: 2}, {weight: 1}], edges: [{from: 0, to: 1}, {from: 1, to: 2}]}"} {
		for _, e := range policies.All() {
			if e.Family != models.FamilyDAG {
				continue
			}
			t.Run(e.Name+"/"+graph, func(t *testing.T) {
				src := fmt.Sprintf("platform: {delay: {rho: 2, processors: 4}}\nproblem: {dag: %s}\npolicies: [%s]\n", graph, e.Name)
				sc, err := scenarios.Parse("bounded.yaml", []byte(src))
				var le *scenarios.Error
				switch {
				case err != nil && errors.As(err, &le) && strings.Contains(err.Error(), "policies[0]"):
					t.Logf("refused at load: %v", err)
					return
				case err != nil:
					t.Fatalf("load: %v", err)
				}
				s, err := e.Planner.Plan(context.Background(), sc.Instance(0, 1))
				if err != nil {
					t.Fatalf("loaded, then failed to plan: %v", err)
				}
				checktest.Verify(t, &sc.Platform, &sc.Problem, s, sim.Timed)
			})
		}
	}
}

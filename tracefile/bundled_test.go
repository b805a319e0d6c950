package tracefile_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	_ "github.com/netsched/netsched/policies/all" // bundled scenarios name every family's policies
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// namedTrace is the trace of one policy's timed replay on one scenario.
type namedTrace struct {
	name string // scenario/policy
	tr   *sim.Trace
}

// bundledTraces replays every policy of every bundled scenario (seed 1,
// timed) under NETSCHED_SLOW=1, and each scenario's first policy only
// otherwise.
func bundledTraces(t *testing.T) []namedTrace {
	t.Helper()
	var out []namedTrace
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatalf("bundled scenario %s: %v", name, err)
		}
		n := len(sc.Policies)
		if testing.Short() || !slowtest.Enabled() {
			n = min(n, 1)
		}
		for i := range n {
			r, err := runs.One(context.Background(), sc, i, 1, sim.Timed)
			if err != nil {
				t.Fatalf("%s, policy %d: %v", name, i, err)
			}
			out = append(out, namedTrace{fmt.Sprintf("%s/%s", name, r.Policy), r.Result.Trace})
		}
	}
	return out
}

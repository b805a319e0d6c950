package sweep_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
	"github.com/netsched/netsched/sweep/axis"
)

// generatedScenario is a crossbar whose six processors a generator draws.
const generatedScenario = `platform:
  crossbar:
    beta: 0.01
    duplex: half
    processors: {count: 6, seed: 1, gamma: {uniform: [0.5, 2]}, load: {choice: [0, 100]}%s}
problem: {divisible: {rounds: auto}}
policies: [no-redistribution]
`

// sweepRows sweeps the scenario src over the --set axis (none if empty)
// with seeds seeds and returns its rows.
func sweepRows(t *testing.T, src, set string, seeds int) []*sweep.Row {
	t.Helper()
	sc, err := scenarios.Parse("gen.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var axes []axis.Axis
	if set != "" {
		ax, err := axis.ParseSet(set)
		if err != nil {
			t.Fatal(err)
		}
		axes = append(axes, ax)
	}
	p, err := sweep.NewPlan(sc, axes, seeds, 1, sim.Timed)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := sweep.Run(context.Background(), p, sweep.Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tab.Rows
}

// TestSweepGeneratorSeed sweeps a generator's seed, and its per_run draws
// by seeds: each gives other platforms (makespans), and the sweep of the
// seed at s gives the platform per_run gives seed s − 1 (seed 1 + run
// seed). Seeds without per_run change nothing, which SeedsChangeNothing
// tells.
func TestSweepGeneratorSeed(t *testing.T) {
	bySeed := sweepRows(t, fmt.Sprintf(generatedScenario, ""), "platform.crossbar.processors.seed=1:5:1", 1)
	perRun := sweepRows(t, fmt.Sprintf(generatedScenario, ", per_run: true"), "", 4)
	fixed := sweepRows(t, fmt.Sprintf(generatedScenario, ""), "", 4)
	if len(bySeed) != 5 || len(perRun) != 4 || len(fixed) != 4 {
		t.Fatalf("%d, %d and %d rows", len(bySeed), len(perRun), len(fixed))
	}
	seen := map[float64]bool{}
	for _, r := range bySeed {
		seen[r.Simulated] = true
	}
	if len(seen) != 5 {
		t.Errorf("5 seeds of the generator gave %d makespans", len(seen))
	}
	for k, r := range perRun {
		if want := bySeed[k+1].Simulated; r.Simulated != want {
			t.Errorf("per_run, run seed %d: makespan %v, want %v (generator seed %d)", r.Seed, r.Simulated, want, k+2)
		}
	}
	if sweep.SeedsChangeNothing(perRun) || !sweep.SeedsChangeNothing(fixed) {
		t.Errorf("SeedsChangeNothing: per_run %v, fixed %v; want false, true", sweep.SeedsChangeNothing(perRun), sweep.SeedsChangeNothing(fixed))
	}
}

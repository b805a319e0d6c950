package sweep

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// Row is one policy run at one sweep point with one seed.
type Row struct {
	Scenario    string             `json:"scenario"`
	Point       []float64          `json:"point,omitempty"` // axis values, in axis order
	Policy      string             `json:"policy"`
	Seed        uint64             `json:"seed"`
	Mode        string             `json:"mode"`
	Claimed     float64            `json:"claimed_makespan"`
	Simulated   float64            `json:"simulated_makespan"`
	Gap         float64            `json:"gap"`
	Violations  []sim.Violation    `json:"violations"`
	Verified    bool               `json:"verified"`
	PlanSeconds float64            `json:"plan_seconds,omitempty"`
	Metrics     map[string]float64 `json:"metrics,omitempty"`
	Warnings    []string           `json:"warnings,omitempty"`
	Error       string             `json:"error,omitempty"` // the policy or the engine failed

	// NViolations is len(Violations) for rows read back from CSV, which
	// keeps only the count.
	NViolations int `json:"-"`

	Schedule *sim.Schedule `json:"-"`
	Result   *sim.Result   `json:"-"`
}

// ViolationCount is the number of violations, for fresh and read-back rows.
func (r *Row) ViolationCount() int { return max(len(r.Violations), r.NViolations) }

// RunOne plans with policy i of the scenario and replays the schedule,
// with its trace. A failure of the policy or a schedule the engine rejects
// is an error.
func RunOne(ctx context.Context, sc *scenarios.Scenario, i int, seed uint64, mode sim.Mode) (*Row, error) {
	return runOne(ctx, sc, i, seed, &sim.Replayer{Mode: mode})
}

// runOne is RunOne on a replayer a worker keeps from run to run.
func runOne(ctx context.Context, sc *scenarios.Scenario, i int, seed uint64, rp *sim.Replayer) (*Row, error) {
	spec := sc.Policies[i]
	entry, ok := policies.Lookup(spec.Name)
	if !ok { // the loader checks names; this guards a hand-built scenario
		return nil, fmt.Errorf("policy %q is not registered", spec.Name)
	}
	begin := time.Now()
	s, err := entry.Planner.Plan(ctx, sc.Instance(i, seed))
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", spec.Name, err)
	}
	planned := time.Since(begin)
	if s.Policy == "" {
		s.Policy = spec.Name
	}
	res, err := rp.Replay(ctx, &sc.Platform, s)
	if err != nil {
		return nil, fmt.Errorf("policy %s produced a schedule the engine rejects: %w", spec.Name, err)
	}
	return &Row{
		Scenario: sc.Name, Policy: spec.Name, Seed: seed, Mode: rp.Mode.String(),
		Claimed: res.Claimed, Simulated: res.Makespan, Gap: res.Gap(),
		Violations: res.Violations, Verified: res.OK(),
		PlanSeconds: planned.Seconds(), Metrics: s.Metrics, Warnings: s.Warnings,
		Schedule: s, Result: res,
	}, nil
}

// failedRow records a run that produced no schedule, so a sweep carries on
// past a point a policy cannot handle.
func failedRow(sc *scenarios.Scenario, i int, seed uint64, mode sim.Mode, err error) *Row {
	nan := math.NaN()
	return &Row{Scenario: sc.Name, Policy: sc.Policies[i].Name, Seed: seed, Mode: mode.String(),
		Claimed: nan, Simulated: nan, Gap: nan, Error: err.Error()}
}

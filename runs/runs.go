package runs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/external"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// Row is one run of a policy, named by its label (scenarios.PolicySpec.ID),
// at one sweep point with one seed.
type Row struct {
	Scenario    string             `json:"scenario"`
	Point       []float64          `json:"point,omitempty"` // axis values, in axis order
	Policy      string             `json:"policy"`          // the variant's label, or the policy's name
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

	// Under bandwidth sharing (scenarios.Scenario.Sharing): the model, the
	// makespan of the schedule replayed with its transfers as flows on the
	// platform's links, and its ratio to the ideal model's (Simulated).
	Sharing     string  `json:"sharing,omitempty"`
	Shared      float64 `json:"shared_makespan,omitempty"`
	SharedRatio float64 `json:"shared_ratio,omitempty"`

	// Unseeded marks the row of a schedule made elsewhere (netsched
	// verify), which has no seed: the outputs leave the seed out.
	Unseeded bool `json:"-"`

	// NViolations is len(Violations) for rows read back from CSV, which
	// keeps only the count.
	NViolations int `json:"-"`

	Schedule *sim.Schedule `json:"-"`
	Result   *sim.Result   `json:"-"`
	// SharedResult is the replay under sharing, with its trace, when the
	// runner keeps its runs.
	SharedResult *sim.Result `json:"-"`
}

// ViolationCount is the number of violations, for fresh and read-back rows.
func (r *Row) ViolationCount() int { return max(len(r.Violations), r.NViolations) }

// One plans with policy i of the scenario, replays the schedule with its
// trace and checks it against the problem. A failure of the policy or a
// schedule the engine rejects is an error.
func One(ctx context.Context, sc *scenarios.Scenario, i int, seed uint64, mode sim.Mode) (*Row, error) {
	rn := NewRunner(sc.Policies, mode, true)
	defer rn.Close()
	return rn.Run(ctx, sc, i, seed)
}

// Schedule replays a schedule made elsewhere (netsched verify) on the
// scenario's platform, with its trace, and checks it against the
// scenario's problem. The row is named after the schedule's policy and
// has no seed (Row.Unseeded). A schedule the engine or the problem's
// checks cannot take is an error, "rejected: ...".
func Schedule(ctx context.Context, sc *scenarios.Scenario, s *sim.Schedule, mode sim.Mode) (*Row, error) {
	rn := &Runner{rp: replay.Replayer{Mode: mode}, keep: true}
	row, err := rn.verify(ctx, sc, s, s.Policy, "")
	if err != nil {
		return nil, fmt.Errorf("rejected: %w", err)
	}
	row.Unseeded = true
	return row, nil
}

// Runner runs the policies of a scenario, at any of its sweep points, one
// run after another: a sweep keeps one per worker. It looks the policies
// up in the registry once (the registry's lock is shared by every worker)
// and reuses one replay engine. A Runner that does not keep its runs
// returns rows without Schedule and Result, replays without a trace, and
// hands each schedule back to the next policy it runs
// (policies.Instance.Recycle).
//
// An external policy (scenarios.PolicySpec.Exec) runs in a process of the
// runner's own, kept between runs when persistent: Close stops it.
type Runner struct {
	entries  []policies.Entry // by policy index; a zero Entry is unregistered
	external []*external.Policy
	rp       replay.Replayer
	shared   replay.Replayer // under bandwidth sharing
	checker  check.Checker
	keep     bool
	spare    *sim.Schedule // the last schedule, which nothing refers to
}

// NewRunner prepares runs of the given policies in the given mode,
// keeping each run's schedule and result (with its trace) or not.
func NewRunner(specs []scenarios.PolicySpec, mode sim.Mode, keep bool) *Runner {
	r := &Runner{entries: make([]policies.Entry, len(specs)), rp: replay.Replayer{Mode: mode}, keep: keep}
	for i, spec := range specs {
		if spec.Exec != nil {
			ext := external.New(*spec.Exec, spec.ID())
			r.entries[i] = policies.Entry{Name: spec.ID(), Planner: ext}
			r.external = append(r.external, ext)
			continue
		}
		r.entries[i], _ = policies.Lookup(spec.Name)
	}
	return r
}

// Close stops the processes of the runner's external policies.
func (rn *Runner) Close() error {
	var errs []error
	for _, ext := range rn.external {
		errs = append(errs, ext.Close())
	}
	return errors.Join(errs...)
}

// Run plans with policy i of sc (a point of the scenario whose policies
// the runner was made for), replays the schedule and checks that it
// solves the problem. A generator with per_run draws its processors for
// the run's seed (scenarios.Scenario.ForSeed).
func (rn *Runner) Run(ctx context.Context, sc *scenarios.Scenario, i int, seed uint64) (*Row, error) {
	spec, entry := sc.Policies[i], rn.entries[i]
	if entry.Planner == nil { // the loader checks names; this guards a hand-built scenario
		return nil, fmt.Errorf("policy %q is not registered", spec.Name)
	}
	sc, err := sc.ForSeed(seed) // processors drawn for this run (per_run)
	if err != nil {
		return nil, policyError(spec.ID(), err)
	}
	in := sc.Instance(i, seed)
	in.Recycle, rn.spare = rn.spare, nil
	if w := policies.ProgressTo(ctx); w != nil {
		ctx = policies.WithProgress(ctx, policies.Labelled(w, spec.ID()))
	}
	begin := time.Now()
	s, err := entry.Planner.Plan(ctx, in)
	if err != nil {
		return nil, policyError(spec.ID(), err, spec.Name)
	}
	planned := time.Since(begin)
	if err := ctx.Err(); err != nil { // a planner that does not check its context
		return nil, err
	}
	if s.Policy == "" || spec.Label != "" {
		s.Policy = spec.ID() // a schedule file names the variant as every output does
	}
	row, err := rn.verify(ctx, sc, s, spec.ID(), "the engine rejects its schedule: ")
	if err != nil {
		return nil, policyError(spec.ID(), err)
	}
	row.Seed, row.PlanSeconds = seed, planned.Seconds()
	if !rn.keep {
		rn.spare = s
	}
	return row, nil
}

// verify replays s on sc's platform, checks it against sc's problem and
// makes its row, named id. Its errors do not name the schedule: the
// callers do; the engine's start with rejects.
func (rn *Runner) verify(ctx context.Context, sc *scenarios.Scenario, s *sim.Schedule, id, rejects string) (*Row, error) {
	res, kept, err := rn.replay(ctx, &sc.Platform, s)
	if err != nil {
		return nil, fmt.Errorf("%s%w", rejects, err)
	}
	if err := ctx.Err(); err != nil { // checking takes as long as replaying
		return nil, err
	}
	if err := rn.checker.Append(&res, &sc.Platform, &sc.Problem, s); err != nil {
		return nil, err
	}
	row := &Row{
		Scenario: sc.Name, Policy: id, Mode: rn.rp.Mode.String(),
		Claimed: res.Claimed, Simulated: res.Makespan, Gap: res.Gap(),
		Violations: res.Violations, Verified: res.OK(),
		Metrics: s.Metrics, Warnings: s.Warnings,
	}
	if rn.keep {
		kept.Violations = res.Violations
		row.Schedule, row.Result = s, kept
	}
	if sc.Sharing != "" {
		if err := rn.share(ctx, sc, s, row); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// share replays s again with its transfers as flows sharing the links of
// sc's platform, checks that replay against the problem too, and adds
// its makespan to the row. Its violations join the row's, "shared: "
// before their resource, and unverify it.
func (rn *Runner) share(ctx context.Context, sc *scenarios.Scenario, s *sim.Schedule, row *Row) error {
	sharing, err := network.ParseSharing(sc.Sharing)
	if err != nil {
		return err
	}
	rn.shared.Mode, rn.shared.Sharing = rn.rp.Mode, sharing
	var res sim.Result
	if rn.keep {
		kept, err := rn.shared.Replay(ctx, &sc.Platform, s)
		if err != nil {
			return err
		}
		res, row.SharedResult = *kept, kept
	} else if res, err = rn.shared.Verify(ctx, &sc.Platform, s); err != nil {
		return err
	}
	if err := rn.checker.Append(&res, &sc.Platform, &sc.Problem, s); err != nil {
		return err
	}
	if row.SharedResult != nil {
		row.SharedResult.Violations = res.Violations
	}
	row.Sharing, row.Shared, row.SharedRatio = sc.Sharing, res.Makespan, res.Makespan/row.Simulated
	for _, v := range res.Violations {
		v.Resource = "shared: " + v.Resource
		row.Violations = append(row.Violations, v)
		row.Verified = false
	}
	return nil
}

// replay replays s: in full when the runner keeps its runs (the result
// is then also returned as kept), else only what a row holds
// (replay.Replayer.Verify).
func (rn *Runner) replay(ctx context.Context, p *models.Platform, s *sim.Schedule) (res sim.Result, kept *sim.Result, err error) {
	if !rn.keep {
		res, err = rn.rp.Verify(ctx, p, s)
		return res, nil, err
	}
	if kept, err = rn.rp.Replay(ctx, p, s); err != nil {
		return res, nil, err
	}
	return *kept, kept, nil
}

// Failed is the row of a run that produced no schedule, so that a sweep
// carries on past a point a policy cannot handle.
// Its error names the policy once: "policy ID: what went wrong".
func Failed(scenario, policy string, seed uint64, mode sim.Mode, err error) *Row {
	if pe := (*PolicyError)(nil); !errors.As(err, &pe) {
		err = policyError(policy, err)
	}
	nan := math.NaN()
	return &Row{Scenario: scenario, Policy: policy, Seed: seed, Mode: mode.String(),
		Claimed: nan, Simulated: nan, Gap: nan, Error: err.Error()}
}

// PolicyError is the failure of one policy's run: its planner failed, or
// the engine or the problem's checks could not take its schedule. Its
// message names the policy once, "policy ID: ...", even when the
// planner's own error already starts with the policy's name.
type PolicyError struct {
	Policy string // the variant's label, or the policy's name
	Msg    string // what went wrong, without the policy's name
	Err    error  // the error as the planner, engine or checker gave it
}

// Error returns "policy ID: MSG".
func (e *PolicyError) Error() string { return "policy " + e.Policy + ": " + e.Msg }

// Unwrap returns the underlying error.
func (e *PolicyError) Unwrap() error { return e.Err }

// policyError wraps err as the failure of policy id. A leading "NAME: "
// that repeats id or one of the names given (the policy's registered
// name, which planners put in front of their errors) is left out of the
// message, so that the policy is named once.
func policyError(id string, err error, names ...string) error {
	msg := err.Error()
	for _, n := range append([]string{id}, names...) {
		if n != "" {
			msg = strings.TrimPrefix(msg, n+": ")
		}
	}
	return &PolicyError{Policy: id, Msg: msg, Err: err}
}

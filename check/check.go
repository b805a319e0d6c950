package check

import (
	"context"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// The kinds of violation the problem checks report, beside the replay's.
const (
	// UnknownTask: a computation that is no task of the problem (a task
	// graph's or a task pool's).
	UnknownTask sim.ViolationKind = "unknown-task"
	// TaskRepeated: a task computed by more than one action.
	TaskRepeated sim.ViolationKind = "task-repeated"
	// TaskMissing: a task no action computes.
	TaskMissing sim.ViolationKind = "task-missing"
	// TaskAmount: a task computed for another amount than its weight.
	TaskAmount sim.ViolationKind = "task-amount"
	// EdgeLate: a task started before the data of a predecessor in the
	// problem's graph could be there.
	EdgeLate sim.ViolationKind = "edge-late"
	// NotHeld: load, results, a part of the message or a task's data sent
	// or computed before the node holds it (or from a node that never
	// does).
	NotHeld sim.ViolationKind = "not-held"
	// DataMissing: a task started on a crossbar or multi-cluster before
	// the data of a predecessor on another processor was carried to its
	// processor.
	DataMissing sim.ViolationKind = "data-missing"
	// UnknownData: a transfer of a task graph that carries the data of no
	// edge of the graph.
	UnknownData sim.ViolationKind = "unknown-data"
	// LoadNotConserved: a processor computes other than what it owns minus
	// what it sends plus what it receives.
	LoadNotConserved sim.ViolationKind = "load-not-conserved"
	// BadRound: an action in a round the problem does not have.
	BadRound sim.ViolationKind = "bad-round"
	// ResultsMissing: results that do not go back where their load came
	// from, as the problem asks.
	ResultsMissing sim.ViolationKind = "results-missing"
	// NotReceived: a participant of a broadcast that never holds the whole
	// message.
	NotReceived sim.ViolationKind = "not-received"
	// BadPart: a broadcast transfer of a part outside the message.
	BadPart sim.ViolationKind = "bad-part"
	// BadMigration: a task of a pool that runs away from its processor
	// without the one transfer that brought it, or a transfer that carries
	// other than the tasks that follow it.
	BadMigration sim.ViolationKind = "bad-migration"
)

// NoAction is the Action of a violation that no single action commits,
// such as a task that no action computes.
const NoAction = -1

// A Checker checks schedules against their problems. It keeps its working
// memory from one check to the next, so that a sweep worker that keeps
// one allocates only the violations it finds. The zero value is ready to
// use; a Checker is not safe for concurrent use.
type Checker struct {
	dag     dagMemory
	load    loadMemory
	message messageMemory
}

// Check returns the violations of problem pr by schedule s, which the
// replay ran on platform p: action j started at starts[j] and ended at
// ends[j] (+Inf for one that never started or never ended). The
// violations are in the order the checks find them; each is timed at the
// instant it shows, or at the makespan for what is missing at the end.
// A problem of no known family, or a platform it cannot run on, is
// itself reported as an error: such a pair fails validation before any
// replay.
func (c *Checker) Check(p *models.Platform, pr *models.Problem, s *sim.Schedule, starts, ends []float64) ([]sim.Violation, error) {
	if len(starts) != len(s.Actions) || len(ends) != len(s.Actions) {
		return nil, fmt.Errorf("check: %d actions but %d starts and %d ends", len(s.Actions), len(starts), len(ends))
	}
	in := &input{p: p, s: s, starts: starts, ends: ends, makespan: makespan(ends)}
	switch pr.Family() {
	case models.FamilyDAG:
		if err := c.dag.check(in, pr.DAG); err != nil {
			return nil, err
		}
	case models.FamilyDivisible:
		if err := c.load.check(in, pr.Divisible); err != nil {
			return nil, err
		}
	case models.FamilyBroadcast:
		if err := c.message.check(in, pr.Broadcast); err != nil {
			return nil, err
		}
	case models.FamilyBalance:
		if err := checkBalance(in, pr.Balance); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("check: the problem must set exactly one of divisible, dag, broadcast, balance")
	}
	return in.violations, nil
}

// Check is Checker.Check with a Checker of its own.
func Check(p *models.Platform, pr *models.Problem, s *sim.Schedule, starts, ends []float64) ([]sim.Violation, error) {
	var c Checker
	return c.Check(p, pr, s, starts, ends)
}

// input is one check: what was replayed, and the violations found.
type input struct {
	p            *models.Platform
	s            *sim.Schedule
	starts, ends []float64
	makespan     float64
	violations   []sim.Violation
}

// violate records a violation of action j (or NoAction) on the named
// task, node or part, at time t, or at the makespan if t is not finite.
func (in *input) violate(kind sim.ViolationKind, j int, resource string, t float64, format string, args ...any) {
	if math.IsInf(t, 0) || math.IsNaN(t) { // an action that never started
		t = in.makespan
	}
	in.violations = append(in.violations, sim.Violation{
		Kind: kind, Action: j, Resource: resource, Time: t, Detail: fmt.Sprintf(format, args...),
	})
}

// atEnd is the time of a violation that shows only once the schedule is
// over: the makespan, or 0 for a schedule with nothing that ended.
func (in *input) atEnd() float64 { return in.makespan }

// makespan is the latest finite end.
func makespan(ends []float64) float64 {
	m := 0.0
	for _, e := range ends {
		if e > m && !math.IsInf(e, 1) {
			m = e
		}
	}
	return m
}

// before reports whether time a is not after time b, within the replay's
// tolerance: sim.Tolerance·max(1, |b|).
func before(a, b float64) bool {
	return a <= b || a <= b+sim.Tolerance*math.Max(1, math.Abs(b))
}

// same reports whether two amounts are equal within a relative amountTol of
// scale (the problem's total amount, so that sums of many floating-point
// shares still compare equal).
func same(a, b, scale float64) bool {
	return a == b || math.Abs(a-b) <= amountTol*math.Max(1, scale)
}

// amountTol is the relative tolerance on amounts of work, load and
// message: far above the rounding of any policy's arithmetic, far below
// any share a schedule could leave out.
const amountTol = 1e-9

// Append checks a replay's schedule against problem pr, as Check does with
// the replay's starts and ends, and appends the violations to the
// replay's. The result is then verified (sim.Result.OK) only if the
// schedule both keeps the platform's rules and solves the problem.
func (c *Checker) Append(res *sim.Result, p *models.Platform, pr *models.Problem, s *sim.Schedule) error {
	vs, err := c.Check(p, pr, s, res.Starts, res.Ends)
	if err != nil {
		return err
	}
	res.Violations = append(res.Violations, vs...)
	return nil
}

// Replay replays s on platform p in the given mode (replay.Replay) and checks
// that it solves problem pr: the result's violations are the replay's,
// then the problem's, and it is verified (sim.Result.OK) only if there are
// none and the simulated makespan keeps the claim. A schedule the replay
// cannot run at all is an error, as for replay.Replay.
func Replay(ctx context.Context, p *models.Platform, pr *models.Problem, s *sim.Schedule, mode sim.Mode) (*sim.Result, error) {
	res, err := replay.Replay(ctx, p, s, mode)
	if err != nil {
		return nil, err
	}
	var c Checker
	if err := c.Append(res, p, pr, s); err != nil {
		return nil, err
	}
	return res, nil
}

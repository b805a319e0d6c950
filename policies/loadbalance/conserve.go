package loadbalance

import (
	"fmt"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// check counts the tasks after an event when the run is audited: every
// task is finished, being processed, queued or in flight, and no task is
// two of these.
func (r *run) check() {
	if r.audit && r.auditErr == nil {
		if err := r.census(); err != nil {
			r.auditErr = fmt.Errorf("at t=%g: %w", r.cal.Now(), err)
		}
	}
}

// census checks that the tasks finished, being processed, queued and in
// flight add up to the tasks the processors started with.
func (r *run) census() error {
	done, running, queued := 0, 0, 0
	for _, n := range r.nodes {
		done += n.done
		queued += len(n.active) + len(n.sched)
		if n.running {
			running++
		}
	}
	if sum := done + running + queued + r.inFlight; sum != r.total {
		return fmt.Errorf("task count: %d finished + %d being processed + %d queued + %d in flight = %d, want the %d tasks of the pool",
			done, running, queued, r.inFlight, sum, r.total)
	}
	return nil
}

// conserved checks, at the end of a run, that every processor has ended
// with no task queued, none in flight and no request unanswered, that the
// count adds up, and that the schedule runs every task exactly once.
func (r *run) conserved() error {
	for _, n := range r.nodes {
		switch name := r.ws.Name(n.id); {
		case !n.finished:
			return fmt.Errorf("tasks not conserved: %s never ended", name)
		case len(n.active)+len(n.sched) > 0:
			return fmt.Errorf("tasks not conserved: %s ended with %d tasks queued", name, len(n.active)+len(n.sched))
		case n.outstanding != 0:
			return fmt.Errorf("tasks not conserved: %s ended with %d requests unanswered", name, n.outstanding)
		}
	}
	if r.inFlight != 0 {
		return fmt.Errorf("tasks not conserved: %d tasks still in flight at the end", r.inFlight)
	}
	if err := r.census(); err != nil {
		return fmt.Errorf("tasks not conserved: %w", err)
	}
	return CheckConservation(r.s, r.ws, r.pool)
}

// CheckConservation checks a realised schedule of the task pool on the
// platform with the problem check of the balance family (package check),
// at the schedule's planned times: every task of the pool is computed by
// exactly one action, and nothing else is; a migrated task follows exactly
// the one transfer that brought it. It returns the first violation as an
// error.
func CheckConservation(s *sim.Schedule, ws *models.Workstations, pool *models.Balance) error {
	starts, ends := make([]float64, len(s.Actions)), make([]float64, len(s.Actions))
	for j, a := range s.Actions {
		if a.Start == nil || a.End == nil {
			return fmt.Errorf("tasks not conserved: action %d has no planned start or end", j)
		}
		starts[j], ends[j] = *a.Start, *a.End
	}
	vs, err := check.Check(&models.Platform{Workstations: ws}, &models.Problem{Balance: pool}, s, starts, ends)
	if err != nil {
		return err
	}
	if len(vs) > 0 {
		v := vs[0]
		return fmt.Errorf("tasks not conserved: action %d on %s: %s", v.Action, v.Resource, v.Detail)
	}
	return nil
}

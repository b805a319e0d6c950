package loadbalance

import (
	"fmt"

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
// platform: every task of the pool (labelled as the policies label them,
// "P3/17") is computed by exactly one action, and nothing else is; a task
// that never moved runs on the processor it belongs to; a migrated task
// follows exactly one transfer, from the processor it belongs to (a task
// is migrated at most once) to the one that runs it; and every transfer
// carries as many tasks as follow it. It names the first task or action
// that breaks the rule.
func CheckConservation(s *sim.Schedule, ws *models.Workstations, pool *models.TaskPool) error {
	name := names(ws)
	origin := map[string]int{} // label → the processor it belongs to
	for i := range ws.Processors {
		for k := range pool.Count(i) {
			origin[taskLabel(name[i], k)] = i
		}
	}
	ranBy := map[string]int{} // label → action
	carried := make(map[int]int)
	for j, a := range s.Actions {
		if a.Kind != sim.Compute {
			continue
		}
		o, ok := origin[a.Label]
		if !ok {
			return fmt.Errorf("tasks not conserved: action %d computes %q, which is not a task of the pool", j, a.Label)
		}
		if prev, dup := ranBy[a.Label]; dup {
			return fmt.Errorf("tasks not conserved: task %s is processed twice, by actions %d and %d", a.Label, prev, j)
		}
		ranBy[a.Label] = j
		if err := checkMove(s, j, o, ws); err != nil {
			return err
		}
		if len(a.After) == 1 {
			carried[a.After[0]]++
		}
	}
	if len(ranBy) != len(origin) {
		for i := range ws.Processors {
			for k := range pool.Count(i) {
				l := taskLabel(name[i], k)
				if _, ok := ranBy[l]; !ok {
					return fmt.Errorf("tasks not conserved: task %s is never processed", l)
				}
			}
		}
	}
	for j, a := range s.Actions {
		if a.Kind == sim.Transfer && float64(carried[j]) != a.Amount {
			return fmt.Errorf("tasks not conserved: transfer %d carries %g tasks, %d tasks follow it", j, a.Amount, carried[j])
		}
	}
	return nil
}

// checkMove checks where compute action j, of a task that belongs to
// processor o, runs and how it got there.
func checkMove(s *sim.Schedule, j, o int, ws *models.Workstations) error {
	a := &s.Actions[j]
	if len(a.After) == 0 {
		if a.Node != o {
			return fmt.Errorf("tasks not conserved: task %s runs on %s without a migration", a.Label, ws.Name(a.Node))
		}
		return nil
	}
	if len(a.After) != 1 || a.After[0] < 0 || a.After[0] >= len(s.Actions) || s.Actions[a.After[0]].Kind != sim.Transfer {
		return fmt.Errorf("tasks not conserved: task %s (action %d) must follow exactly the one transfer that brought it", a.Label, j)
	}
	if tr := &s.Actions[a.After[0]]; tr.From != o || tr.To != a.Node {
		return fmt.Errorf("tasks not conserved: task %s of %s runs on %s after transfer %d from %s to %s",
			a.Label, ws.Name(o), ws.Name(a.Node), a.After[0], ws.Name(tr.From), ws.Name(tr.To))
	}
	return nil
}

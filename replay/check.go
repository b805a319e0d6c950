package replay

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/sim"
)

// checkTimes reports, once the run is over, what compares the times of two
// events: in timed replay an action started before an action it follows
// ended (predecessor-late) or, on the delay platform, before that action's
// data arrived ρ later (data-late), or ended after its planned End
// (missed-end). Ordered replay keeps neither planned starts nor planned
// ends, so it has nothing to compare. Every comparison allows timeTol.
func (e *engine) checkTimes() {
	if e.mode != sim.Timed {
		return
	}
	for j := range e.s.Actions {
		a := &e.s.Actions[j]
		e.checkPredecessors(int32(j), a)
		if end := e.ends[j]; a.End != nil && !math.IsInf(end, 1) && end > *a.End+timeTol(*a.End) {
			e.violate(sim.MissedEnd, int32(j), e.resourceOf(int32(j)), *a.End,
				fmt.Sprintf("planned to end at t=%g, ended at t=%g", *a.End, end))
		}
	}
}

// checkPredecessors reports action j starting before an action of its
// After list ended, or before that action's data arrived.
func (e *engine) checkPredecessors(j int32, a *sim.Action) {
	start := e.starts[j]
	tol := timeTol(start)
	for _, i := range a.After {
		end := e.ends[i]
		switch lag := e.lag(int32(i), j); {
		case !(end <= start+tol):
			e.violate(sim.PredecessorLate, j, fmt.Sprintf("action %d", i), start,
				fmt.Sprintf("started at t=%g, action %d ended at t=%g", start, i, end))
		case end+lag > start+tol:
			e.violate(sim.DataLate, j, fmt.Sprintf("action %d", i), start,
				fmt.Sprintf("started at t=%g, data of action %d (ended t=%g) arrives at t=%g (ρ = %g)", start, i, end, end+lag, lag))
		}
	}
}

// checkProgress reports every action that never ended (no-progress), with
// what it was waiting for when the calendar ran dry.
func (e *engine) checkProgress() {
	if e.done == len(e.acts) {
		return
	}
	now := e.cal.Now()
	for j := range e.acts {
		if st := &e.acts[j]; st.state != done {
			resource, detail := e.blocker(int32(j))
			e.violate(sim.NoProgress, int32(j), resource, now, detail)
		}
	}
}

// blocker names what keeps action j from ending.
func (e *engine) blocker(j int32) (resource, detail string) {
	st := &e.acts[j]
	switch st.state {
	case running:
		return e.resourceOf(j), e.comp.stuck(j)
	case waiting:
		for _, i := range e.s.Actions[j].After {
			if e.acts[i].state != done {
				return fmt.Sprintf("action %d", i), fmt.Sprintf("waits for action %d, which never ends (deadlock)", i)
			}
		}
	}
	for _, r := range e.ports.of(st) {
		if k := e.ports.ports[r].next(); k != j {
			name := e.ports.name(r, e.rec.trace.Lanes)
			return name, fmt.Sprintf("waits for action %d, listed before it on %s, which never ends (deadlock)", k, name)
		}
	}
	if !st.compute {
		if resource, detail, ok := e.xfer.blocker(j); ok {
			return resource, detail
		}
	}
	return e.resourceOf(j), "never started"
}

// resourceOf names the main resource of action j: its processor, or the
// transfer's ends "P0→P1".
func (e *engine) resourceOf(j int32) string {
	a := &e.s.Actions[j]
	if st := &e.acts[j]; st.compute {
		return e.ports.name(e.ports.of(st)[0], e.rec.trace.Lanes)
	}
	lanes := e.rec.trace.Lanes
	return lanes[e.lane(a.From)] + "→" + lanes[e.lane(a.To)]
}

// timeTol is the tolerance of a comparison of times near t.
func timeTol(t float64) float64 { return sim.Tolerance * max(1, math.Abs(t)) }

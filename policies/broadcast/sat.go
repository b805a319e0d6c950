package broadcast

import (
	"fmt"
	"math"
	"time"

	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/prover"
)

// satRun is the search's side of the SAT prover (package prover): it
// starts the prover, shares the search's best schedule with it and takes
// its events.
type satRun struct {
	s     *search
	p     *prover.Prover // nil when not running
	why   string         // what the SAT prover did
	waits string         // why the SAT prover waits for a faster schedule, if it does
}

// start starts the prover, from the search's current best and lower
// bound, when Options.SAT is on and the cadical command is found;
// otherwise it records why not. Its events reach the search through
// poll. With wait (the prover runs alongside the search), a model too
// large at the best schedule waits for a faster one (see prover.New).
func (sr *satRun) start(wait bool) {
	s := sr.s
	if !s.opt.SAT || sr.p != nil {
		return
	}
	solver, err := timeindexed.CaDiCaL()
	if err != nil {
		sr.why = "not run: cadical is not installed (Debian package cadical)"
		return
	}
	sr.p = prover.New(s.in, s.nw, solver, wait)
	sr.share()
	sr.p.Start(s.ctx)
}

// stop stops the prover without waiting for it: its context kills the
// solver, its sends give up, and it touches nothing of the search's, so
// that the search returns within its budget even while the prover is
// still building a formula.
func (sr *satRun) stop() {
	if sr.p != nil {
		sr.p.Stop()
	}
}

// prove runs the prover to its end before the branch and bound goes on,
// when there is no budget (with a time budget the prover runs alongside
// from the start, and a node budget leaves it out): the result must then
// not depend on which of the two ends first. It reports whether the
// prover proved the best schedule optimal, or the context ended.
func (sr *satRun) prove() bool {
	s := sr.s
	if s.opt.MaxTime > 0 || s.opt.MaxNodes > 0 {
		return false
	}
	sr.start(false)
	if sr.p == nil {
		return false
	}
	for ev := range sr.p.Events() {
		sr.take(ev)
	}
	return sr.proved() || s.ctx.Err() != nil
}

// poll takes the events the prover has sent, without waiting, and
// shares the search's best makespan with it.
func (sr *satRun) poll() {
	sr.share()
	for {
		select {
		case ev, ok := <-sr.p.Events():
			if !ok {
				return
			}
			sr.take(ev)
		default:
			return
		}
	}
}

// take applies one event of the prover.
func (sr *satRun) take(ev prover.Event) {
	s := sr.s
	if ev.Moves != nil && ev.Makespan < s.satBest {
		s.satBest, s.satMoves = ev.Makespan, ev.Moves
	}
	s.satBound = math.Max(s.satBound, ev.Bound)
	switch {
	case ev.Stopped:
		sr.why = ev.Why
	case ev.Waiting:
		sr.waits = ev.Why
	default:
		sr.waits = ""
	}
	if s.opt.Progress != nil && ev.Horizon == 0 && ev.Why != "" && !ev.Stopped {
		fmt.Fprintf(s.opt.Progress, "%.1f s, SAT: %s\n", time.Since(s.begin).Seconds(), ev.Why)
	}
	if s.opt.Progress != nil && ev.Horizon > 0 {
		answer, where := "none", ""
		if ev.Moves != nil {
			answer = fmt.Sprintf("a schedule of %.6g", ev.Makespan)
		}
		if ev.Local {
			where = " in a neighbourhood of the best"
		}
		fmt.Fprintf(s.opt.Progress, "%.1f s, SAT%s: %s by %.6g (%.1f s)\n", time.Since(s.begin).Seconds(), where, answer, ev.Horizon, ev.Took.Seconds())
	}
	sr.share()
}

// share tells the prover the best makespan known and the lower bound
// that holds for every feasible schedule: the root's (deepen's proven
// bound holds for the search's space only).
func (sr *satRun) share() {
	s := sr.s
	if sr.p == nil {
		return
	}
	best, moves := s.reported()
	sr.p.Share(best, moves, max(s.rootBound, s.satBound))
}

// proved reports whether the prover's bound meets the best makespan.
func (sr *satRun) proved() bool {
	s := sr.s
	best, _ := s.reported()
	return s.satBound > 0 && best <= s.satBound+s.eps
}

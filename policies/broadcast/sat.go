package broadcast

import (
	"fmt"
	"math"
	"time"

	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/prover"
)

// startSAT starts the prover, from the search's current best and lower
// bound, when Options.SAT is on and the cadical command is found;
// otherwise it records why not. Its events reach the search through
// pollSAT. With wait (the prover runs alongside the search), a model too
// large at the best schedule waits for a faster one (see prover.New).
func (s *search) startSAT(wait bool) {
	if !s.opt.SAT || s.sat != nil {
		return
	}
	solver, err := timeindexed.CaDiCaL()
	if err != nil {
		s.satWhy = "not run: cadical is not installed (Debian package cadical)"
		return
	}
	s.sat = prover.New(s.in, s.nw, solver, wait)
	s.shareSAT()
	s.sat.Start(s.ctx)
}

// stopSAT stops the prover without waiting for it: its context kills the
// solver, its sends give up, and it touches nothing of the search's, so
// that the search returns within its budget even while the prover is
// still building a formula.
func (s *search) stopSAT() {
	if s.sat != nil {
		s.sat.Stop()
	}
}

// proveSAT runs the prover to its end before the branch and bound goes on,
// when there is no budget (with a time budget the prover runs alongside
// from the start, and a node budget leaves it out): the result must then
// not depend on which of the two ends first. It reports whether the
// prover proved the best schedule optimal, or the context ended.
func (s *search) proveSAT() bool {
	if s.opt.MaxTime > 0 || s.opt.MaxNodes > 0 {
		return false
	}
	s.startSAT(false)
	if s.sat == nil {
		return false
	}
	for ev := range s.sat.Events() {
		s.takeSAT(ev)
	}
	return s.satProved() || s.ctx.Err() != nil
}

// pollSAT takes the events the prover has sent, without waiting, and
// shares the search's best makespan with it.
func (s *search) pollSAT() {
	s.shareSAT()
	for {
		select {
		case ev, ok := <-s.sat.Events():
			if !ok {
				return
			}
			s.takeSAT(ev)
		default:
			return
		}
	}
}

// takeSAT applies one event of the prover.
func (s *search) takeSAT(ev prover.Event) {
	if ev.Moves != nil && ev.Makespan < s.satBest {
		s.satBest, s.satMoves = ev.Makespan, ev.Moves
	}
	s.satBound = math.Max(s.satBound, ev.Bound)
	switch {
	case ev.Stopped:
		s.satWhy = ev.Why
	case ev.Waiting:
		s.satWaits = ev.Why
	default:
		s.satWaits = ""
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
	s.shareSAT()
}

// shareSAT tells the prover the best makespan known and the lower bound
// that holds for every feasible schedule: the root's (deepen's proven
// bound holds for the search's space only).
func (s *search) shareSAT() {
	if s.sat == nil {
		return
	}
	best, moves := s.reported()
	s.sat.Share(best, moves, max(s.rootBound, s.satBound))
}

// satProved reports whether the prover's bound meets the best makespan.
func (s *search) satProved() bool {
	best, _ := s.reported()
	return s.satBound > 0 && best <= s.satBound+s.eps
}

package broadcast

import (
	"fmt"
	"math"
	"time"
)

// progressEvery is how often a search writes a progress line: the first
// comes after this long, so shorter searches write nothing.
const progressEvery = 2 * time.Second

// frame is a state of the current path: its own lower bound and, once it
// is expanded, the lower bounds of its children, those from next on not
// entered yet. Every state of the search space not yet closed (explored
// or cut by the bound) lies below a frame that is still expanding or
// below a child not entered yet.
type frame struct {
	self     float64
	lbs      []float64
	next     int
	expanded bool
}

// openBound is the least lower bound over the states not closed: the
// optimum of the search space is at least min(best, openBound). A state
// below a frame is also below every frame above it, so each bound is
// raised to the largest bound of its ancestors.
func (s *search) openBound() float64 {
	open, anc := math.Inf(1), s.rootBound
	for _, f := range s.frames {
		anc = math.Max(anc, f.self)
		if !f.expanded {
			return math.Min(open, anc)
		}
		for _, lb := range f.lbs[f.next:] {
			open = math.Min(open, math.Max(anc, lb))
		}
	}
	if len(s.frames) == 0 {
		return anc
	}
	return open
}

// budget reports whether the search must stop: the node budget is spent,
// the context is done, the deadline has passed (the clock is read on
// every call, that is before every lower bound the search computes), or
// the probe's budget is spent (see probe). When
// it first stops, the least bound over the open states is frozen. It also
// writes the progress lines.
func (s *search) budget() bool {
	if s.stopped {
		return true
	}
	stop := s.spent() || s.probeCap > 0 && s.nodes >= s.probeCap ||
		!s.probeUntil.IsZero() && !time.Now().Before(s.probeUntil)
	if !stop && s.opt.Progress != nil {
		if now := time.Now(); !now.Before(s.nextReport) {
			s.report(now)
			s.nextReport = now.Add(progressEvery)
		}
	}
	if stop {
		s.stopped, s.frozen = true, s.openBound()
	}
	return s.stopped
}

// spent reports whether the budget proper is spent: the node budget, the
// context or the deadline.
func (s *search) spent() bool {
	if s.sat.p != nil {
		s.sat.poll()
		if s.sat.proved() {
			return true
		}
	}
	return s.opt.MaxNodes > 0 && s.nodes >= s.opt.MaxNodes || s.ctx.Err() != nil ||
		!s.deadline.IsZero() && !time.Now().Before(s.deadline)
}

// report writes a progress line.
func (s *search) report(now time.Time) {
	lb := s.lowest(s.openBound())
	best, _ := s.reported()
	fmt.Fprintf(s.opt.Progress, "%.1f s, %d nodes, best %.6g, lower bound %.6g, gap %.2f %%\n",
		now.Sub(s.begin).Seconds(), s.nodes, best, lb, 100*gap(best, lb))
}

// gap is (best − lb)/best, 0 when best is 0 and +Inf before any schedule.
func gap(best, lb float64) float64 {
	switch {
	case math.IsInf(best, 1):
		return math.Inf(1)
	case best <= 0:
		return 0
	}
	return math.Max(0, (best-lb)/best)
}

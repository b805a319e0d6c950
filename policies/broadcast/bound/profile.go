package bound

import (
	"math"
	"slices"
)

// profiles holds the reserved bandwidth on each channel over time in the
// state being bounded (see profile), built at most once per state: the
// bound's view of the reservation calendar.
type profiles struct {
	stamp     int
	prof      [][]change // per channel, valid when profStamp equals stamp
	profStamp []int
}

// live reports whether a channel holds reservations after time a.
func (pf *profiles) live(ch int, a float64, st *State) bool {
	w := st.Windows[ch]
	return len(w) > 0 && math.Max(w[len(w)-1].PrevMax, w[len(w)-1].End) > a
}

// change is a step of the reserved bandwidth on a channel.
type change struct{ t, d float64 }

// profile returns the reserved bandwidth on a channel as sorted steps,
// from the reservations that end after the last start; it is built once
// per state.
func (pf *profiles) profile(ch int, st *State) []change {
	if pf.profStamp[ch] == pf.stamp {
		return pf.prof[ch]
	}
	steps := pf.prof[ch][:0]
	for _, w := range st.Windows[ch] {
		if w.End > st.TLast {
			steps = append(steps, change{w.Start, w.BW}, change{w.End, -w.BW})
		}
	}
	slices.SortFunc(steps, func(x, y change) int {
		switch {
		case x.t < y.t:
			return -1
		case x.t > y.t:
			return 1
		}
		return 0
	})
	pf.prof[ch], pf.profStamp[ch] = steps, pf.stamp
	return steps
}

// usedAt skips the steps up to a and returns the bandwidth reserved just
// after a and the remaining steps.
func usedAt(steps []change, a float64) (float64, []change) {
	used := 0.0
	k := 0
	for k < len(steps) && steps[k].t <= a {
		used += steps[k].d
		k++
	}
	return used, steps[k:]
}

// freeAreaTime is the first T by which need of area has been free on a
// channel since a, counting only the times when at least thr is free (a
// transfer at rate ≥ thr cannot run in less). An area that falls short
// of need by no more than the time tolerance's worth is enough, as in
// earliestWindow.
func freeAreaTime(steps []change, cap, thr, a, need float64) float64 {
	usable := func(used float64) float64 {
		if r := cap - used; r >= thr*(1-1e-9) {
			return r
		}
		return 0
	}
	used, rest := usedAt(steps, a)
	t, free := a, 0.0
	for _, s := range rest {
		if rate := usable(used); rate > 0 && free+rate*(s.t-t+timeTol(s.t)) >= need {
			return math.Min(t+(need-free)/rate, s.t)
		}
		free += usable(used) * (s.t - t)
		t, used = s.t, used+s.d
	}
	return t + (need-free)/cap
}

// earliestWindow is the end of the first interval of length l after a in
// which bw is free on the channel. Like the calendar (sim.Reservations),
// it takes a stretch where bw does not fit as no overlap when it lasts no
// longer than the time tolerance, and a window that falls short of l by
// no more than the tolerance as long enough: reservations computed by
// summing latencies in floating point meet where exact arithmetic says
// they touch.
func earliestWindow(steps []change, cap, bw, a, l float64) float64 {
	fits := func(used float64) bool { return used+bw <= cap*(1+1e-9) }
	brief := func(rest []change, t float64) bool { // the next step comes within the tolerance
		return len(rest) > 0 && rest[0].t-t <= timeTol(t)
	}
	used, rest := usedAt(steps, a)
	run := a // start of the current stretch where bw fits, +Inf in none
	if !fits(used) && !brief(rest, a) {
		run = math.Inf(1)
	}
	t := a
	for i, s := range rest {
		if s.t > t && !math.IsInf(run, 1) && s.t-run >= l-timeTol(s.t) {
			return run + l
		}
		t = s.t
		used += s.d
		if !fits(used) {
			if !brief(rest[i+1:], t) {
				run = math.Inf(1)
			}
		} else if math.IsInf(run, 1) {
			run = s.t
		}
	}
	if math.IsInf(run, 1) {
		run = t
	}
	return run + l
}

package sim

import (
	"cmp"
	"math"
	"slices"
)

// Reservations is the bandwidth reservation calendar of a set of links, the
// network state of paper 004 §2.1: for every link, the bandwidth reserved as
// a piecewise-constant function of time.
//
// Links are numbered 0..n−1 and each has a capacity. A transfer of D units
// at rate b over links l_1..l_n with latencies d_1..d_n, started at s,
// reserves b on link l_i during [s + Σ_{j≤i} d_j, s + Σ_{j≤i} d_j + D/b):
// callers pass those per-link offsets Σ_{j≤i} d_j, the duration D/b and b.
// A half-duplex network edge, whose two directions share one capacity, is
// one link here (see replay.Routes, which numbers the links of a tree this way).
//
// Comparisons are tolerant, so that reservations computed by summing
// latencies and durations in floating point fit where exact arithmetic says
// they fit: usage may exceed a capacity by a relative Tolerance, and an
// overlap in time no longer than Tolerance·max(1, |t|) is no overlap.
//
// The zero value has no links; use NewReservations. Clone copies the whole
// state, for search algorithms that try a transfer and backtrack (Release
// undoes a Reserve as well).
type Reservations struct {
	capacity []float64
	steps    [][]step // per link, sorted by time
}

// step says that from time t until the next step the reserved bandwidth is
// used. Before the first step nothing is reserved; the last step of a link
// always has used == 0.
type step struct {
	t    float64
	used float64
}

// NewReservations returns an empty calendar for links of the given
// capacities (bandwidth, units per time).
func NewReservations(capacity []float64) *Reservations {
	return &Reservations{capacity: slices.Clone(capacity), steps: make([][]step, len(capacity))}
}

// NumLinks is the number of links.
func (r *Reservations) NumLinks() int { return len(r.capacity) }

// Capacity is the bandwidth of a link.
func (r *Reservations) Capacity(link int) float64 { return r.capacity[link] }

// Clone returns an independent copy of the calendar.
func (r *Reservations) Clone() *Reservations {
	c := &Reservations{capacity: slices.Clone(r.capacity), steps: make([][]step, len(r.steps))}
	for i, s := range r.steps {
		c.steps[i] = slices.Clone(s)
	}
	return c
}

// Usage is the bandwidth reserved on a link at time t.
func (r *Reservations) Usage(link int, t float64) float64 {
	if k := r.stepIndex(link, t); k >= 0 {
		return r.steps[link][k].used
	}
	return 0
}

// Fits reports whether reserving bw on every link i during
// [t0+offsets[i], t0+offsets[i]+dur) keeps each link within its capacity.
func (r *Reservations) Fits(t0 float64, links []int, offsets []float64, dur, bw float64) bool {
	for i, l := range links {
		if _, over := r.FirstOverload(l, t0+offsets[i], dur, bw); over {
			return false
		}
	}
	return true
}

// FirstOverload reports the first time in [from, from+dur) at which adding
// bw to the link would exceed its capacity, and whether there is one.
func (r *Reservations) FirstOverload(link int, from, dur, bw float64) (float64, bool) {
	if !r.within(link, bw) && dur > timeTol(from) {
		return from, true // bw alone exceeds the capacity
	}
	if k := r.overload(link, from, dur, bw); k >= 0 {
		return max(from, r.steps[link][k].t), true
	}
	return 0, false
}

// EarliestFit returns the earliest start s ≥ t0 at which bw fits on every
// link i during [s+offsets[i], s+offsets[i]+dur), or +Inf if bw exceeds the
// capacity of one of the links. Reservations are finite, so any bw within
// the capacities fits eventually.
func (r *Reservations) EarliestFit(t0 float64, links []int, offsets []float64, dur, bw float64) float64 {
	for _, l := range links {
		if !r.within(l, bw) {
			return math.Inf(1)
		}
	}
	s := t0
	for moved := true; moved; {
		moved = false
		for i, l := range links {
			k := r.overload(l, s+offsets[i], dur, bw)
			if k < 0 {
				continue
			}
			// Start late enough that this link's window begins where the
			// overloaded step ends, then check every link again.
			end := r.steps[l][k+1].t // an overloaded step is never the last
			next := end - offsets[i]
			for next+offsets[i] < end {
				next = math.Nextafter(next, math.Inf(1))
			}
			s, moved = max(s, next), true
		}
	}
	return s
}

// Reserve adds bw on every link i during [t0+offsets[i], t0+offsets[i]+dur),
// whether or not it fits (check with Fits or EarliestFit first).
func (r *Reservations) Reserve(t0 float64, links []int, offsets []float64, dur, bw float64) {
	for i, l := range links {
		r.add(l, t0+offsets[i], t0+offsets[i]+dur, bw)
	}
}

// Release removes a reservation made by Reserve with the same arguments.
func (r *Reservations) Release(t0 float64, links []int, offsets []float64, dur, bw float64) {
	for i, l := range links {
		r.add(l, t0+offsets[i], t0+offsets[i]+dur, -bw)
	}
}

// within reports whether bw alone fits under the link's capacity.
func (r *Reservations) within(link int, bw float64) bool {
	return bw <= r.capacity[link]*(1+Tolerance)
}

// overload returns the index of the first step that overlaps
// [from, from+dur) by more than the time tolerance and on which adding bw
// exceeds the capacity, or −1. Before the first step nothing is reserved,
// so with bw within the capacity an overloaded step is never the last.
func (r *Reservations) overload(link int, from, dur, bw float64) int {
	s := r.steps[link]
	to := from + dur
	limit := r.capacity[link] * (1 + Tolerance)
	for k := max(0, r.stepIndex(link, from)); k < len(s) && s[k].t < to; k++ {
		if s[k].used+bw <= limit {
			continue
		}
		end := math.Inf(1)
		if k+1 < len(s) {
			end = s[k+1].t
		}
		if min(end, to)-max(s[k].t, from) > timeTol(from) {
			return k
		}
	}
	return -1
}

// stepIndex is the index of the step in force at time t (−1 before the
// first step).
func (r *Reservations) stepIndex(link int, t float64) int {
	k, found := r.search(link, t)
	if found {
		return k
	}
	return k - 1
}

// search finds where a step at time t is or would be.
func (r *Reservations) search(link int, t float64) (int, bool) {
	return slices.BinarySearchFunc(r.steps[link], t, func(x step, t float64) int { return cmp.Compare(x.t, t) })
}

// add adds bw (possibly negative) on [a, b), merging steps that end up
// equal.
func (r *Reservations) add(link int, a, b, bw float64) {
	if !(b > a) {
		return
	}
	ia := r.split(link, a)
	ib := r.split(link, b)
	s := r.steps[link]
	zero := Tolerance * r.capacity[link]
	for k := ia; k < ib; k++ {
		s[k].used += bw
		if math.Abs(s[k].used) <= zero {
			s[k].used = 0
		}
	}
	r.steps[link] = mergeSteps(s, max(0, ia-1), ib)
}

// split makes sure a step starts exactly at t and returns its index.
func (r *Reservations) split(link int, t float64) int {
	s := r.steps[link]
	k, found := r.search(link, t)
	if found {
		return k
	}
	used := 0.0
	if k > 0 {
		used = s[k-1].used
	}
	r.steps[link] = slices.Insert(s, k, step{t: t, used: used})
	return k
}

// mergeSteps removes, within s[lo..hi], the steps whose usage equals the
// usage in force just before them (0 before the first step).
func mergeSteps(s []step, lo, hi int) []step {
	hi = min(hi, len(s)-1)
	out := lo
	for k := lo; k <= hi; k++ {
		prev := 0.0
		if out > 0 {
			prev = s[out-1].used
		}
		if s[k].used == prev {
			continue
		}
		s[out] = s[k]
		out++
	}
	return slices.Delete(s, out, hi+1)
}

// timeTol is the time tolerance around t: Tolerance relative to |t|, and
// absolute below 1.
func timeTol(t float64) float64 { return Tolerance * max(1, math.Abs(t)) }

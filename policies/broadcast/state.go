package broadcast

import (
	"math"
	"slices"

	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// tLastBefore is the start of the move before the last one (−1 if none).
func (s *search) tLastBefore() float64 {
	if n := len(s.c.Moves); n >= 2 {
		return s.c.Moves[n-2].Start
	}
	return -1
}

// children lists the moves to try from the current state, after RCut,
// SCut and the tie order, best first: receivers far from every holder
// first, then the earliest start, then the nearest sender (§5). It reads
// the budget between senders (their receivers' orbits are the costly part
// on large trees); once it is spent the list is partial, and no caller
// uses it as complete.
func (s *search) children(prev tieKey, follower bool) []child {
	nw := s.nw
	far := make([]float64, nw.N)
	for _, r := range nw.Parts {
		if s.holds(r) {
			continue
		}
		far[r] = math.Inf(1)
		for _, h := range nw.Parts {
			if s.holds(h) {
				far[r] = math.Min(far[r], s.bst.Ready[h]+nw.Cost[h][r])
			}
		}
	}
	senders := s.senders()
	var kids []child
	for _, u := range senders {
		if s.budget() {
			break // a partial list: the budget is spent, and callers stop
		}
		for _, v := range s.receivers(u) {
			start := s.c.Earliest(u, v, math.Max(s.tLast, s.ready[u]), nw.Size)
			if s.opt.Ties && follower && start == s.tLast && (tieKey{s.classes[u], s.classes[v]}).less(prev) {
				continue
			}
			kids = append(kids, child{from: u, to: v, start: start, arrive: start + nw.Cost[u][v], far: far[v], cost: nw.Cost[u][v], seq: len(kids)})
		}
	}
	slices.SortFunc(kids, func(a, b child) int {
		switch {
		case a.far != b.far:
			return cmpDesc(a.far, b.far)
		case a.start != b.start:
			return -cmpDesc(a.start, b.start)
		case a.cost != b.cost:
			return -cmpDesc(a.cost, b.cost)
		}
		return a.seq - b.seq // stable: ties keep the order of senders and receivers
	})
	return kids
}

func (s *search) holds(v int) bool { return !math.IsInf(s.ready[v], 1) }

// hasSymmetry reports whether two participants share a static orbit.
// Without, no automorphism of any state moves a participant (the orbits
// of a state refine the static ones), so RCut and SCut keep every move and
// the search skips the labelling, which costs it about 40 % of its time
// on random trees with relays (most have no symmetric participants).
func hasSymmetry(nw *treenet.Network, classes []int32) bool {
	seen := map[int32]bool{}
	for _, v := range nw.Parts {
		if seen[classes[v]] {
			return true
		}
		seen[classes[v]] = true
	}
	return false
}

// labels fills the labeller's view of the state: holders by ready
// class, channels with a reservation that ends after the last start.
func (s *search) labels() {
	classes := map[float64]int32{}
	for v := range s.lst.class {
		s.lst.class[v] = 0
		if s.holds(v) {
			t := s.bst.Ready[v]
			c, ok := classes[t]
			if !ok {
				c = int32(len(classes) + 1)
				classes[t] = c
			}
			s.lst.class[v] = c
		}
	}
	for ch, ws := range s.bst.Windows {
		s.lst.live[ch] = len(ws) > 0 && math.Max(ws[len(ws)-1].PrevMax, ws[len(ws)-1].End) > s.tLast
	}
	s.lab.compute(s.lst)
}

// senders are the holders, one per orbit with SCut.
func (s *search) senders() []int {
	var out []int
	if (s.opt.SCut || s.opt.RCut) && s.symmetric {
		s.labels()
	}
	if !s.opt.SCut || !s.symmetric {
		for _, v := range s.nw.Parts {
			if s.holds(v) {
				out = append(out, v)
			}
		}
		return out
	}
	orbits := s.lab.computeOrbits()
	return s.representatives(orbits, true)
}

// receivers are the non-holders, one per orbit of the stabiliser of the
// sender with RCut.
func (s *search) receivers(u int) []int {
	if !s.opt.RCut || !s.symmetric {
		var out []int
		for _, v := range s.nw.Parts {
			if !s.holds(v) {
				out = append(out, v)
			}
		}
		return out
	}
	return s.representatives(s.lab.orbitsFixing(u), false)
}

// representatives returns the first participant of every orbit among the
// holders (or the non-holders).
func (s *search) representatives(orbits []int32, holders bool) []int {
	var out []int
	s.stamp++
	for _, v := range s.nw.Parts {
		o := orbits[v]
		if int(o) >= len(s.seen) {
			s.seen = append(s.seen, make([]int, int(o)+1-len(s.seen))...)
		}
		if s.holds(v) != holders || s.seen[o] == s.stamp {
			continue
		}
		s.seen[o] = s.stamp
		out = append(out, v)
	}
	return out
}

// apply places a move.
func (s *search) apply(k child) {
	var after []int
	if d := s.delivered[k.from]; d >= 0 {
		after = []int{d}
	}
	s.bst.Reserve(s.c.RouteOf(k.from, k.to), k.start, s.nw.Size)
	s.delivered[k.to] = len(s.c.Moves)
	s.ready[k.to] = s.c.Place(k.from, k.to, k.start, s.nw.Size, after)
	s.tLast = k.start
	s.makespan = math.Max(s.makespan, s.ready[k.to])
	s.missing--
}

// undo removes the last move.
func (s *search) undo() {
	m := s.c.Moves[len(s.c.Moves)-1]
	s.bst.Release(s.c.RouteOf(m.From, m.To))
	s.c.Undo()
	s.ready[m.To], s.delivered[m.To] = math.Inf(1), -1
	s.missing++
	s.tLast, s.makespan = 0, 0
	for _, p := range s.c.Moves {
		s.makespan = math.Max(s.makespan, p.Arrive)
	}
	if n := len(s.c.Moves); n > 0 {
		s.tLast = s.c.Moves[n-1].Start
	}
}

// arrivalOnly is the lower bound of a state without the bounder: the
// makespan so far, and for every non-holder r the least over holders h of
// max(t_last, ready_h) + cost_hr, as no transfer to r starts before t_last
// nor before its sender holds the message, and none arrives sooner than
// its cost after its start.
func (s *search) arrivalOnly() float64 {
	lb := s.makespan
	for _, r := range s.nw.Parts {
		if s.holds(r) {
			continue
		}
		t := math.Inf(1)
		for _, h := range s.nw.Parts {
			if s.holds(h) {
				t = math.Min(t, s.bst.Ready[h]+s.nw.Cost[h][r])
			}
		}
		lb = math.Max(lb, t)
	}
	return lb
}

// byBound orders the children by their lower bounds, least first, keeping
// the search's order (§5) among equal bounds: the most promising child is
// searched first, so that good schedules are found early.
func byBound(kids []child, lbs []float64) {
	idx := make([]int, len(kids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { // stable: ties keep their order
		if c := cmpAsc(lbs[a], lbs[b]); c != 0 {
			return c
		}
		return a - b
	})
	k2, l2 := slices.Clone(kids), slices.Clone(lbs)
	for i, j := range idx {
		kids[i], lbs[i] = k2[j], l2[j]
	}
}

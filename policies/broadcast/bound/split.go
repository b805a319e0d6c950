package bound

import (
	"context"
	"math"
	"slices"
)

// splitter bounds the two cases of the first transfer on a port that
// carries both full-rate and slower transfers (see splitBound), and the
// feeds of a branch under a case.
type splitter struct {
	b         *Bounder    // the figures of the tree and of the state, shared by the parts
	splits    []portSplit // see splitBound
	inCost    [][]float64 // per direction, filled when first needed: see fedFree
	moving    []int       // splitBound: the views of a split whose emitter a case holds back
	holdSaved []float64   // splitBound: hold outside the case it bounds
}

// minSplitSide and maxSplitSide are the fewest and most participants
// behind a port that splitBound splits on. Each split costs a pass over
// the views and, where some view is concerned, two fits per pair of a
// participant behind the port and a non-holder beyond. Behind a single
// participant's port the split closed no state on the SMP trees of 56 and
// 64 participants (the first transfer of a CPU either copies to a CPU of
// its node or not, which the search soon decides itself), while those
// ports, one per CPU, made the Fig. 13 shape of 128 participants ten
// times slower per state.
const (
	minSplitSide = 2
	maxSplitSide = 8
)

// portSplit is a full-duplex link direction x→w of capacity c whose routes
// from x's side to w's side include full-rate ones (rate c) and slow ones
// (rate below c): a full-rate transfer over it excludes every other, so
// the first transfer placed on it after a state either is full-rate and
// holds the slow ones back by D/c, or is slow and holds the full-rate
// ones back by at least D/b for the fastest slow rate b (see splitBound).
type portSplit struct {
	id      int // the direction
	ch      int // its channel
	cap     float64
	slowMax float64     // the fastest slow rate over it
	near    []int       // the participants on x's side; the others are beyond (b.inBranch(id, v))
	views   []splitView // the views with a unit that holds all of near
}

// splitView is what a split needs of a view: the unit that holds every
// participant behind the port, the latencies from the port to that unit's
// port (on every route from behind the port out of the unit), and per
// unit (and the core, last) the kind of the routes from behind the port
// to its participants.
type splitView struct {
	view, unit int
	lag        float64
	kinds      []routeKind
}

// routeKind is the kind of a set of routes from behind a split's port.
type routeKind uint8

const (
	mixedRoutes routeKind = iota // some end behind the port, or full-rate and slow both
	fullRoutes
	slowRoutes
	noRoutes
)

// newSplits lists the directions splitBound splits on: full duplex, with
// full-rate and slow routes over them, minSplitSide to maxSplitSide
// participants behind them. It grows with the cube of the tree's size (on
// a random tree of 1,024 participants, 1.3 s of the bounder's 3.4 s), so it
// returns ctx's error once ctx is done.
func (sl *splitter) newSplits(ctx context.Context, beyond [][]int) ([]portSplit, error) {
	b := sl.b
	nw := b.nw
	var out []portSplit
	for z := range nw.N {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, h := range nw.Adj[z] {
			id := dirID(h.Link)
			ch := nw.Routes.Channel(h.Link)
			if ch == nw.Routes.Channel(reverse(h.Link)) || len(beyond[id]) == 0 {
				continue // half duplex: the other direction shares the channel
			}
			p := portSplit{id: id, ch: ch, cap: nw.Capacity[ch]}
			for _, u := range nw.Parts {
				if !b.inBranch(id, u) {
					p.near = append(p.near, u)
				}
			}
			if len(p.near) < minSplitSide || len(p.near) > maxSplitSide {
				continue
			}
			full, tiny := false, false
			for _, r := range b.linkRates[id] {
				if r >= p.cap*(1-1e-9) {
					full = true
				} else {
					p.slowMax = math.Max(p.slowMax, r)
				}
				tiny = tiny || r < p.cap*1e-6 // within the calendar's tolerance of a full-rate one
			}
			if full && p.slowMax > 0 && !tiny {
				sl.splitViews(&p, beyond)
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// splitViews fills the views of a split.
func (sl *splitter) splitViews(p *portSplit, beyond [][]int) {
	b := sl.b
	for vi := range b.views {
		v := &b.views[vi]
		sv := splitView{view: vi, unit: -1}
		for i, id := range v.units {
			if sv.unit < 0 && sl.inBranchAll(id, p.near) {
				sv.unit = i
			}
			sv.kinds = append(sv.kinds, sl.kindOf(p, beyond[id]))
		}
		sv.kinds = append(sv.kinds, sl.kindOf(p, v.core))
		if sv.unit < 0 {
			continue
		}
		// Every route from behind the port out of the unit crosses the port,
		// then the unit's port: take the latencies between on any of them.
		out := b.dirs[v.units[sv.unit]].port
		sv.lag = math.NaN()
		for _, q := range b.nw.Parts {
			if b.inBranch(p.id, q) && !b.inBranch(v.units[sv.unit], q) {
				rt := b.nw.Route(p.near[0], q)
				sv.lag = rt.Offsets[slices.Index(rt.Channels, out)] - rt.Offsets[slices.Index(rt.Channels, p.ch)]
				break
			}
		}
		if !math.IsNaN(sv.lag) {
			p.views = append(p.views, sv)
		}
	}
}

// kindOf is the kind of the routes from behind a split's port to the
// given participants.
func (sl *splitter) kindOf(p *portSplit, to []int) routeKind {
	b := sl.b
	k := noRoutes
	for _, q := range to {
		if !b.inBranch(p.id, q) {
			return mixedRoutes
		}
		for _, u := range p.near {
			kq := slowRoutes
			if b.nw.Rate[u][q] >= p.cap*(1-1e-9) {
				kq = fullRoutes
			}
			if k != noRoutes && k != kq {
				return mixedRoutes
			}
			k = kq
		}
	}
	return k
}

// inBranchAll reports whether every node of qs is beyond direction id.
func (sl *splitter) inBranchAll(id int, qs []int) bool {
	b := sl.b
	return !slices.ContainsFunc(qs, func(q int) bool { return !b.inBranch(id, q) })
}

// shift is the case of a split that evalView applies: the emitter of the
// unit that holds every participant behind the split's port, when they
// hold every copy it holds and its routes from there to every target of
// the view are all of the case's kind, starts its reservations on the
// port at ≥ from, and so on its own port lag later (see heldBack).
type shift struct {
	p    *portSplit
	sv   *splitView
	full bool
	from float64
}

// splitBound bounds the completion, given lb, by splitting on the first
// transfer that a completion places on the port of a split: either it is
// full-rate, starting at ≥ F (the earliest a full-rate transfer from a
// participant behind the port to a non-holder beyond can start on it),
// and no slow transfer starts on the port before F + D/c (none before the
// first, none during it); or it is slow, starting at ≥ S (likewise), and
// no full-rate transfer starts there before S + D/b; or there is none,
// and both hold. Each case's bound is the views' with the emitters
// concerned held back (see shift) and the arrival bound with the
// transfers concerned held back; the state's bound is at least the lesser
// of the two.
func (sl *splitter) splitBound(lb float64, st *State) float64 {
	b := sl.b
	for i := range sl.splits {
		p := &sl.splits[i]
		if b.need[p.id] == 0 || st.Holders-b.holders[p.id] == 0 {
			continue
		}
		if !sl.mayHoldBack(p, false, st) || !sl.mayHoldBack(p, true, st) {
			continue // a case that holds no emitter back bounds no more than lb
		}
		full, slow := sl.firstStarts(p, st)
		sf := sl.shifted(shift{p: p, full: false, from: after(full, b.nw.Size/p.cap)}, lb, st)
		if sf <= lb {
			continue
		}
		cf := sl.shifted(shift{p: p, full: true, from: after(slow, b.nw.Size/p.slowMax)}, lb, st)
		if lb = math.Max(lb, math.Min(sf, cf)); lb >= st.Cutoff {
			return lb
		}
	}
	return lb
}

// after is t + d less the calendar's time tolerance, by which two
// reservations may overlap.
func after(t, d float64) float64 { return t + d - timeTol(t+d) }

// firstStarts returns the earliest start on the port of a full-rate and of
// a slow transfer from a participant behind it (from its ready time or
// arrival bound) to a non-holder beyond.
func (sl *splitter) firstStarts(p *portSplit, st *State) (full, slow float64) {
	b := sl.b
	nw := b.nw
	full, slow = math.Inf(1), math.Inf(1)
	for _, u := range p.near {
		t := math.Max(st.TLast, b.hold[u])
		if math.IsInf(t, 1) {
			continue
		}
		for _, v := range nw.Parts {
			if !b.inBranch(p.id, v) || !math.IsInf(st.Ready[v], 1) {
				continue
			}
			rt := nw.Route(u, v)
			at := st.Fit(u, v, t) + rt.Offsets[slices.Index(rt.Channels, p.ch)]
			if rt.Bandwidth >= p.cap*(1-1e-9) {
				full = math.Min(full, at)
			} else {
				slow = math.Min(slow, at)
			}
		}
	}
	return full, slow
}

// shifted is the bound under a case of a split, lb at least: the views
// where the case holds an emitter back (the others cannot exceed lb) and
// the arrival bound with the transfers the case holds back starting no
// earlier on the port. It leaves hold as it found it.
func (sl *splitter) shifted(sh shift, lb float64, st *State) float64 {
	b := sl.b
	sl.moving = sl.moving[:0]
	for i := range sh.p.views {
		if sv := &sh.p.views[i]; sl.heldBack(sv, sh, st) {
			sl.moving = append(sl.moving, i)
		}
	}
	if len(sl.moving) == 0 {
		return lb
	}
	sl.holdSaved = append(sl.holdSaved[:0], b.hold...)
	fit := st.Fit
	st.Fit = func(u, v int, t float64) float64 {
		rt := b.nw.Route(u, v)
		if !b.inBranch(sh.p.id, v) || b.inBranch(sh.p.id, u) || (rt.Bandwidth >= sh.p.cap*(1-1e-9)) != sh.full {
			return fit(u, v, t)
		}
		return fit(u, v, math.Max(t, sh.from-rt.Offsets[slices.Index(rt.Channels, sh.p.ch)]))
	}
	defer func() {
		st.Fit, b.sh = fit, nil
		copy(b.hold, sl.holdSaved)
	}()
	if lb = math.Max(lb, b.arr.arrivalBound(st)); lb >= st.Cutoff {
		return lb
	}
	for _, i := range sl.moving {
		sh.sv = &sh.p.views[i]
		b.sh = &sh
		if lb = math.Max(lb, b.eval.evalView(&b.views[sh.sv.view], st)); lb >= st.Cutoff {
			return lb
		}
	}
	b.sh = nil
	return b.dues.dueBound(lb, st, &sh)
}

// mayHoldBack reports whether the case full (or slow) of a split may hold
// back an emitter in some view, whatever it starts from (see heldBack).
func (sl *splitter) mayHoldBack(p *portSplit, full bool, st *State) bool {
	for i := range p.views {
		if sl.concerned(&p.views[i], p, full, st) {
			return true
		}
	}
	return false
}

// concerned reports whether, in a view of a split, the participants behind
// the port hold every copy the split's unit holds, and the view has
// targets, all beyond the port and reached from behind it by routes of
// one kind, full-rate or slow as full says.
func (sl *splitter) concerned(sv *splitView, p *portSplit, full bool, st *State) bool {
	b := sl.b
	v := &b.views[sv.view]
	id := v.units[sv.unit]
	if b.holders[id] == 0 || b.holders[id] != st.Holders-b.holders[p.id] {
		return false
	}
	want := slowRoutes
	if full {
		want = fullRoutes
	}
	targets := 0
	for i, u := range v.units {
		if (b.holders[u] == 0 && b.need[u] > 0) || b.eval.dated(u) {
			if sv.kinds[i] != want {
				return false
			}
			targets++
		}
	}
	for _, z := range v.core {
		if math.IsInf(st.Ready[z], 1) {
			if sv.kinds[len(v.units)] != want {
				return false
			}
			targets++
		}
	}
	return targets > 0
}

// heldBack reports whether a case holds back the emitter of the split's
// unit in a view: the participants behind the port hold every copy the
// unit holds, the view has targets, all beyond the port and reached from
// behind it by routes of the case's kind only, and the port's start moves
// the unit's later than sendStart.
func (sl *splitter) heldBack(sv *splitView, sh shift, st *State) bool {
	b := sl.b
	id := b.views[sv.view].units[sv.unit]
	return sl.concerned(sv, sh.p, sh.full, st) && math.Max(b.portStart[id], sh.from+sv.lag) > b.eval.sendStart(id, st)
}

// applyShift holds back the emitter e of view v under the case b.sh
// when e is the split's unit (heldBack has checked the rest).
func (sl *splitter) applyShift(v *view, e *emitter, st *State) {
	b := sl.b
	sh := b.sh
	if e.unit != sh.sv.unit {
		return
	}
	id := v.units[e.unit]
	e.a = math.Max(e.a, math.Min(sl.fedStart(id, st), math.Max(b.portStart[id], sh.from+sh.sv.lag)))
}

// fedStart is the earliest start of a reservation on the port w→x of the
// unit beyond x→w by a participant of it that gets a copy from outside
// first: as in sendStart, and from the sender's hold (fedFit; fedFree in
// dueBound's inner views).
func (sl *splitter) fedStart(id int, st *State) float64 {
	b := sl.b
	alt := 0.0
	if b.finding {
		alt = sl.fedFree(id, st)
	} else {
		alt = sl.fedFit(id, st)
	}
	return math.Max(alt, b.downStart[id]+b.nw.Size/b.dirs[id].inRate+b.dirs[id].rtt)
}

// fedFit is the least over the participants q outside the unit beyond id
// and the non-holders r in it of the start of q→r from max(t_last,
// hold_q), once it fits the reservations made, plus its cost and the
// latency from r to the port.
func (sl *splitter) fedFit(id int, st *State) float64 {
	b := sl.b
	nw := b.nw
	alt, x := math.Inf(1), sl.portEnd(id)
	for _, q := range nw.Parts {
		if b.inBranch(id, q) || math.IsInf(b.hold[q], 1) {
			continue
		}
		t := math.Max(st.TLast, b.hold[q])
		for _, r := range b.beyond[id] {
			if !math.IsInf(st.Ready[r], 1) || t+nw.Cost[q][r]+b.lat[r][x] >= alt {
				continue
			}
			alt = math.Min(alt, st.Fit(q, r, t)+nw.Cost[q][r]+b.lat[r][x])
		}
	}
	return alt
}

// portEnd is the node a unit's port leads to: x, for the unit beyond x→w.
func (sl *splitter) portEnd(id int) int {
	b := sl.b
	from, _ := b.ends(linkOf(id))
	return from
}

// fedFree is fedFit without the reservations made, and over every
// participant of the unit (a figure per participant outside, computed
// once): cheap enough for the many bounds of dueBound's inner views.
func (sl *splitter) fedFree(id int, st *State) float64 {
	b := sl.b
	nw := b.nw
	if sl.inCost[id] == nil {
		c := make([]float64, nw.N)
		x := sl.portEnd(id)
		for _, q := range nw.Parts {
			c[q] = math.Inf(1)
			if b.inBranch(id, q) {
				continue
			}
			for _, r := range b.beyond[id] {
				c[q] = math.Min(c[q], nw.Cost[q][r]+b.lat[r][x])
			}
		}
		sl.inCost[id] = c
	}
	alt := math.Inf(1)
	for _, q := range nw.Parts {
		alt = math.Min(alt, math.Max(st.TLast, b.hold[q])+sl.inCost[id][q])
	}
	return alt
}

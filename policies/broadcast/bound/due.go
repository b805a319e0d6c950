package bound

import (
	"context"
	"math"
	"slices"
)

// dueBounder finds the due times of the branches that hold copies but
// cannot complete on their own before the cutoff, and bounds the views
// again with them (see dueBound).
type dueBounder struct {
	b        *Bounder      // the figures of the tree and of the state, shared by the parts
	dueOf    []*dueFigures // per direction: what dueBound needs of its branch, nil when it has no inner view
	due      []float64     // dueBound: per direction, its due time (+Inf: none)
	dueSet   []int         // dueBound: the directions with a due time
	dueViews []int         // dueBound: the views to bound again
	readyOut []float64     // floorOutside: ready before
	holdOut  []float64     // floorOutside, insideArrivals: hold before
	aIn      []float64     // dueBound: per participant, its arrival bound with no transfer into a branch
}

// dueSteps is the number of halvings that find a due time (see dueTime):
// 2⁻¹⁶ of the time between the last start and the cutoff.
const dueSteps = 16

// innerView is a view that bounds a branch U alone: one of its units, y,
// holds exactly the participants outside U, so that its other units and
// its core lie in U, and every transfer from y's participants to theirs
// is a transfer into U.
type innerView struct{ view, y int }

// dueFigures is what is static about a branch that dueBound looks at.
type dueFigures struct {
	inner []innerView
	outer []int     // the views it is a unit of
	id    int       // the direction the branch is beyond
	cOut  []float64 // per participant of the branch: the least cost to it from outside
}

// setDue finds, per direction, the views that bound its branch alone (see
// innerView) and the views it is a unit of. The views' units partition
// the participants, so a unit that holds the participants outside a
// branch leaves the rest of its view in the branch. Only the views of a
// split count as inner views (dueBound uses no others), which leaves most
// directions of most trees without figures.
func (du *dueBounder) setDue(ctx context.Context, beyond [][]int) error {
	b := du.b
	nw := b.nw
	split := make([]bool, len(b.views))
	for _, p := range b.split.splits {
		for _, sv := range p.views {
			split[sv.view] = true
		}
	}
	mark := make([]bool, nw.N)
	key := func(ps []int, in bool) [2]uint64 { // a participant set, or its complement
		clear(mark)
		for _, p := range ps {
			mark[p] = true
		}
		var k [2]uint64
		for _, p := range nw.Parts {
			if mark[p] == in {
				k[0] += mix(uint64(p) + 1)
				k[1]++
			}
		}
		return k
	}
	byKey := map[[2]uint64][]innerView{}
	outer := make([][]int, len(b.dirs))
	for vi := range b.views {
		if err := ctx.Err(); err != nil {
			return err
		}
		for j, id := range b.views[vi].units {
			if split[vi] {
				k := key(beyond[id], true)
				byKey[k] = append(byKey[k], innerView{vi, j})
			}
			outer[id] = append(outer[id], vi)
		}
	}
	du.dueOf = make([]*dueFigures, len(b.dirs))
	du.due = make([]float64, len(b.dirs))
	for i := range du.due {
		du.due[i] = math.Inf(1)
	}
	if len(byKey) == 0 {
		return nil // no split: dueBound never runs
	}
	for id := range b.dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(outer[id]) == 0 || len(beyond[id]) == len(nw.Parts) {
			continue
		}
		var inner []innerView
		for _, in := range byKey[key(beyond[id], false)] {
			if !slices.Contains(b.views[in.view].units, id) { // in U's own views the other units are outside U
				inner = append(inner, in)
			}
		}
		if len(inner) > 0 {
			du.dueOf[id] = du.newDueFigures(id, inner, outer[id], beyond[id])
		}
	}
	return nil
}

// newDueFigures completes the figures of a branch whose participants are
// beyond.
func (du *dueBounder) newDueFigures(id int, inner []innerView, outer, beyond []int) *dueFigures {
	b := du.b
	nw := b.nw
	f := &dueFigures{inner: inner, outer: outer, id: id, cOut: make([]float64, nw.N)}
	for _, r := range beyond {
		f.cOut[r] = math.Inf(1)
	}
	for _, q := range nw.Parts {
		if b.inBranch(id, q) {
			continue
		}
		for _, r := range beyond {
			f.cOut[r] = math.Min(f.cOut[r], nw.Cost[q][r])
		}
	}
	return f
}

// mix is SplitMix64's finaliser: participant sets are keyed by the sum
// of their members' mixes.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// dueBound bounds the completion, given lb, through branches that cannot
// complete on their own before the cutoff.
//
// Let U be the branch beyond x→w, holding copies and needing more, and E
// the start of the first transfer into U (from a participant outside it;
// +Inf when there is none). Every transfer into U starts at ≥ E, so each
// non-holder r of U is informed at ≥ min(A_in(r), E + cOut(r)): A_in is
// arrivalBound with no transfer into U (a chain of transfers inside U),
// and a chain that enters U enters it at ≥ E and costs at least the
// least cost from outside to r (costs obey the triangle inequality on a
// tree: a path's latency and its narrowest link are no worse than those
// of two paths that cover it). An inner view of U (see innerView) with
// those holds for U's participants, and every participant outside U
// holding back until E, bounds U's completion; with E = +Inf, if that
// reaches the cutoff, E is finite, and the due time is an E from which on
// it does, found by bisection (the bound does not fall as E rises). A
// transfer into U that starts before the due time ends on x→w no later
// than slowIn after it. So either U gets a copy over x→w that ends there
// before due + slowIn, or the completion ends at the cutoff or later. If no transfer into U can end there that early (reach), the
// state is closed; otherwise, in every view that has U as a unit, U is
// also a unit to feed, complete at the cutoff when its feed ends there
// later (see unitState.completion). The views' bound with it is valid
// for every completion that ends before the cutoff, and the lesser of it
// and the cutoff for all.
//
// splitBound calls it under each case sh of a split, for the branches
// that hold the participants behind the split's port and with the inner
// views where the case holds an emitter back (what a case changes), and
// the views the case holds an emitter back in are bounded under it. Left
// out: the same outside any case, which made each state of the search
// 2.6 times dearer on the SMP tree of 56 participants and 13 times on
// that of 64, which it then left unproven after 10 s.
func (du *dueBounder) dueBound(lb float64, st *State, sh *shift) float64 {
	b := du.b
	if math.IsInf(st.Cutoff, 1) {
		return lb // every due time needs a cutoff
	}
	du.dueSet = du.dueSet[:0]
	defer func() {
		for _, id := range du.dueSet {
			du.due[id] = math.Inf(1)
		}
	}()
	for id, f := range du.dueOf {
		if f == nil || b.holders[id] == 0 || b.need[id] == 0 ||
			!slices.ContainsFunc(sh.p.near, func(q int) bool { return b.inBranch(f.id, q) }) {
			continue // the case holds back no participant of the branch
		}
		due := du.dueTime(id, f, st, sh)
		if math.IsInf(due, 1) {
			continue
		}
		due += b.dirs[id].slowIn
		if du.reach(id, f, st) >= due {
			return math.Max(lb, st.Cutoff)
		}
		du.due[id] = due
		du.dueSet = append(du.dueSet, id)
	}
	du.dueViews = du.dueViews[:0]
	for _, id := range du.dueSet {
		for _, vi := range du.dueOf[id].outer {
			if !slices.Contains(du.dueViews, vi) {
				du.dueViews = append(du.dueViews, vi)
			}
		}
	}
	for _, vi := range du.dueViews {
		if lb = math.Max(lb, math.Min(du.evalAs(vi, st, sh), st.Cutoff)); lb >= st.Cutoff {
			return lb
		}
	}
	return lb
}

// dueTime is the due time of the branch beyond id (see dueBound), as the
// latest start of the first transfer into it: the least over its inner
// views; +Inf when they stay below the cutoff with no transfer into it,
// −Inf when none can start early enough.
func (du *dueBounder) dueTime(id int, f *dueFigures, st *State, sh *shift) float64 {
	b := du.b
	due, known := math.Inf(1), false
	for _, in := range f.inner {
		if b.holders[b.views[in.view].units[in.y]] == 0 || !du.moves(in.view, sh) {
			continue // y is a unit to feed in the inner view, or the case holds nothing back there
		}
		if !known {
			du.insideArrivals(f, st)
			known = true
		}
		at := func(e float64) float64 {
			lb := du.floorOutside(f, e, st)
			if lb < st.Cutoff {
				lb = math.Max(lb, du.evalAs(in.view, st, sh))
			}
			du.restoreOutside(st)
			return lb
		}
		if at(never) < st.Cutoff {
			continue
		}
		lo, hi := st.TLast, math.Min(st.Cutoff, due)
		if at(hi) < st.Cutoff {
			continue
		}
		if at(lo) >= st.Cutoff {
			return math.Inf(-1)
		}
		for range dueSteps {
			if mid := (lo + hi) / 2; at(mid) >= st.Cutoff {
				hi = mid
			} else {
				lo = mid
			}
		}
		due = hi
	}
	return due
}

// never is a time no transfer starts by, finite so that a holder held
// back until it stays a holder.
const never = math.MaxFloat64 / 4

// insideArrivals leaves in du.aIn the arrival bound A_in of every
// participant of a branch when no transfer into it starts (see
// dueBound): arrivalBound with such transfers never fitting, computed in
// full.
func (du *dueBounder) insideArrivals(f *dueFigures, st *State) {
	b := du.b
	du.holdOut = append(du.holdOut[:0], b.hold...)
	fit, cutoff := st.Fit, st.Cutoff
	st.Fit = func(u, v int, t float64) float64 {
		if b.inBranch(f.id, v) && !b.inBranch(f.id, u) {
			return math.Inf(1)
		}
		return fit(u, v, t)
	}
	st.Cutoff = math.Inf(1)
	b.arr.arrivalBound(st)
	st.Fit, st.Cutoff = fit, cutoff
	du.aIn = append(du.aIn[:0], b.hold...)
	copy(b.hold, du.holdOut)
}

// floorOutside holds the state to no transfer into a branch starting
// before e: each non-holder r of the branch gets the hold min(A_in(r),
// e + cOut(r)), every participant outside the branch holds back until e
// (its ready time, a holder's, and its hold become at least e: inner views
// take its transfers to be into the branch), and the per-state figures
// are computed again. It returns the latest hold in the branch, a bound
// on its completion. restoreOutside undoes it.
func (du *dueBounder) floorOutside(f *dueFigures, e float64, st *State) float64 {
	b := du.b
	b.finding = true
	du.readyOut, du.holdOut = append(du.readyOut[:0], st.Ready...), append(du.holdOut[:0], b.hold...)
	lb := 0.0
	for _, q := range b.nw.Parts {
		switch held := !math.IsInf(st.Ready[q], 1); {
		case !b.inBranch(f.id, q):
			if held {
				st.Ready[q] = math.Max(st.Ready[q], e)
			}
			b.hold[q] = math.Max(b.hold[q], e)
		case !held:
			b.hold[q] = math.Min(du.aIn[q], e+f.cOut[q])
			lb = math.Max(lb, b.hold[q])
		}
	}
	b.dp(st)
	return lb
}

// restoreOutside undoes floorOutside.
func (du *dueBounder) restoreOutside(st *State) {
	b := du.b
	copy(st.Ready, du.readyOut)
	copy(b.hold, du.holdOut)
	b.dp(st)
	b.finding = false
}

// evalAs is evalView on view vi, under the case sh of a split where the
// case holds an emitter back in it, units with a due time included (see
// heldBack).
func (du *dueBounder) evalAs(vi int, st *State, sh *shift) float64 {
	b := du.b
	saved := b.sh
	b.sh = nil
	for i := range sh.p.views {
		if sv := &sh.p.views[i]; sv.view == vi && b.split.heldBack(sv, *sh, st) {
			c := *sh
			c.sv = sv
			b.sh = &c
			break
		}
	}
	lb := b.eval.evalView(&b.views[vi], st)
	b.sh = saved
	return lb
}

// reach is the earliest end on the downlink of the branch beyond id of a
// transfer into it: from a holder outside it, once the transfer fits the
// reservations made, and from a participant outside it that gets a copy
// first, no earlier than its arrival bound allows (see feedBound).
func (du *dueBounder) reach(id int, f *dueFigures, st *State) float64 {
	b := du.b
	nw := b.nw
	ch := b.dirs[id].downCh
	first := math.Inf(1)
	for _, q := range nw.Parts {
		if b.inBranch(id, q) {
			continue
		}
		t := b.hold[q] + b.firstEnd[id][q]
		if math.IsInf(st.Ready[q], 1) || t >= first {
			first = math.Min(first, t)
			continue
		}
		t = math.Max(st.TLast, st.Ready[q])
		for _, r := range b.beyond[id] {
			if !math.IsInf(st.Ready[r], 1) {
				continue
			}
			rt := nw.Route(q, r)
			end := rt.Offsets[slices.Index(rt.Channels, ch)] + nw.Size/rt.Bandwidth
			if t+end < first {
				first = math.Min(first, st.Fit(q, r, t)+end)
			}
		}
	}
	return first
}

// moves reports whether the case sh holds an emitter back in view vi.
func (du *dueBounder) moves(vi int, sh *shift) bool {
	b := du.b
	for _, i := range b.split.moving {
		if sh.p.views[i].view == vi {
			return true
		}
	}
	return false
}

package broadcast

import (
	"math"
	"slices"
)

// arrivalBound bounds the completion by the latest arrival of a
// non-holder, with the reservations made, and leaves in hold every
// participant's ready time or arrival bound A, unless what it returns
// reaches the cutoff (the bound then stops there).
//
// Proof. Let A(r) be the least over:
//
//   - the holders h: fit(h, r, ready_h) + cost(h, r), fit(u, r, t) being
//     the first time at or after t at which a transfer u→r fits the
//     reservations made;
//   - the other non-holders p: fit(p, r, A(p)) + cost(p, r).
//
// Every non-holder r is informed at ≥ A(r), by induction on the order in
// which a completion informs them: the transfer that informs r comes from
// a holder h and starts at ≥ ready_h, or from a non-holder p informed
// before r and starts at ≥ A(p); it fits every reservation made by then,
// which include those made now (later transfers only add reservations),
// so it starts at ≥ fit of that time (fit is nondecreasing in t), and r
// is informed cost(u, r) after the start. A is a shortest path from the
// holders whose arcs are nondecreasing in the time they leave at, so
// Dijkstra's order computes it, here lazily: an arc is first queued at
// t + cost, which fit can only delay, and fit is computed when the arc
// comes first. The contention-free arrivals (fit(u, r, t) = t) bound A
// from below and come first; where one reaches the cutoff the rest is
// not needed.
func (b *bounder) arrivalBound(st *boundState) float64 {
	nw := b.nw
	b.have, b.want = b.have[:0], b.want[:0]
	for _, v := range nw.Parts {
		if math.IsInf(st.ready[v], 1) {
			b.want = append(b.want, v)
		} else {
			b.have = append(b.have, v)
		}
	}
	m := len(b.want)
	b.free = slices.Grow(b.free[:0], m)[:m]
	lb := 0.0
	for i, r := range b.want {
		b.free[i] = math.Inf(1)
		for _, h := range b.have {
			b.free[i] = min(b.free[i], st.ready[h]+nw.Cost[h][r])
		}
		lb = max(lb, b.free[i])
	}
	if lb >= st.cutoff {
		return lb
	}
	if lb = max(lb, b.reserved(st)); lb >= st.cutoff {
		return lb
	}
	for _, h := range b.have {
		b.hold[h] = st.ready[h]
	}
	for i, r := range b.want {
		b.hold[r] = b.settled[i]
		if math.IsInf(b.settled[i], 1) { // not reached: every arc queued fits somewhen
			b.hold[r] = b.free[i]
		}
	}
	return lb
}

// arc is a candidate arrival of the non-holder want[to] in arrivalBound's
// Dijkstra: from the holders (from < 0) or from want[from]; exact once
// fit is applied.
type arc struct {
	t        float64
	from, to int
	exact    bool
}

// reserved runs arrivalBound's Dijkstra and returns the latest A, or the
// first queued time that reaches the cutoff.
func (b *bounder) reserved(st *boundState) float64 {
	nw, m := b.nw, len(b.want)
	b.settled = slices.Grow(b.settled[:0], m)[:m]
	b.upper = slices.Grow(b.upper[:0], m)[:m]
	b.arcs.Items = b.arcs.Items[:0]
	for i := range m {
		b.settled[i], b.upper[i] = math.Inf(1), math.Inf(1)
		b.arcs.Items = append(b.arcs.Items, arc{t: b.free[i], from: -1, to: i})
	}
	b.arcs.Init()
	last := 0.0
	for left := m; left > 0 && b.arcs.Len() > 0; {
		x := b.arcs.Pop()
		switch {
		case !math.IsInf(b.settled[x.to], 1):
			continue
		case x.t >= st.cutoff:
			return x.t // every non-holder left arrives no earlier
		case !x.exact:
			if t := b.fitArc(x, st); t < b.upper[x.to] {
				b.upper[x.to] = t
				b.arcs.Push(arc{t: t, from: x.from, to: x.to, exact: true})
			}
			continue
		}
		b.settled[x.to], last = x.t, x.t
		left--
		p := b.want[x.to]
		for j, q := range b.want {
			if t := x.t + nw.Cost[p][q]; math.IsInf(b.settled[j], 1) && t < b.upper[j] {
				b.arcs.Push(arc{t: t, from: x.to, to: j})
			}
		}
	}
	return last
}

// fitArc is the arrival of an arc with fit applied: from the holders, the
// least over them.
func (b *bounder) fitArc(x arc, st *boundState) float64 {
	nw, r := b.nw, b.want[x.to]
	if x.from >= 0 {
		p := b.want[x.from]
		return st.fit(p, r, b.settled[x.from]) + nw.Cost[p][r]
	}
	first, est := -1, math.Inf(1) // the holder with the least contention-free arrival goes first
	for _, h := range b.have {
		if t := st.ready[h] + nw.Cost[h][r]; t < est {
			first, est = h, t
		}
	}
	best := st.fit(first, r, st.ready[first]) + nw.Cost[first][r]
	for _, h := range b.have {
		if h != first && st.ready[h]+nw.Cost[h][r] < best {
			best = min(best, st.fit(h, r, st.ready[h])+nw.Cost[h][r])
		}
	}
	return best
}

package bound

import (
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
)

// arrivals bounds the arrival of every non-holder (see arrivalBound) and
// keeps the holders and non-holders of the state being bounded.
type arrivals struct {
	b          *Bounder  // the figures of the tree and of the state, shared by the parts
	have, want []int     // holders and non-holders
	free       []float64 // per non-holder: its contention-free arrival
	settled    []float64 // per non-holder: A once known (arrivalBound)
	upper      []float64 // per non-holder: the least exact arc queued
	arcs       heapq.Heap[arc]
}

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
func (ar *arrivals) arrivalBound(st *State) float64 {
	b := ar.b
	nw := b.nw
	ar.have, ar.want = ar.have[:0], ar.want[:0]
	for _, v := range nw.Parts {
		if math.IsInf(st.Ready[v], 1) {
			ar.want = append(ar.want, v)
		} else {
			ar.have = append(ar.have, v)
		}
	}
	m := len(ar.want)
	ar.free = slices.Grow(ar.free[:0], m)[:m]
	lb := 0.0
	for i, r := range ar.want {
		ar.free[i] = math.Inf(1)
		for _, h := range ar.have {
			ar.free[i] = min(ar.free[i], st.Ready[h]+nw.Cost[h][r])
		}
		lb = max(lb, ar.free[i])
	}
	if lb >= st.Cutoff {
		return lb
	}
	if lb = max(lb, ar.reserved(st)); lb >= st.Cutoff {
		return lb
	}
	for _, h := range ar.have {
		b.hold[h] = st.Ready[h]
	}
	for i, r := range ar.want {
		b.hold[r] = ar.settled[i]
		if math.IsInf(ar.settled[i], 1) { // not reached: every arc queued fits somewhen
			b.hold[r] = ar.free[i]
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
func (ar *arrivals) reserved(st *State) float64 {
	b := ar.b
	nw, m := b.nw, len(ar.want)
	ar.settled = slices.Grow(ar.settled[:0], m)[:m]
	ar.upper = slices.Grow(ar.upper[:0], m)[:m]
	ar.arcs.Items = ar.arcs.Items[:0]
	for i := range m {
		ar.settled[i], ar.upper[i] = math.Inf(1), math.Inf(1)
		ar.arcs.Items = append(ar.arcs.Items, arc{t: ar.free[i], from: -1, to: i})
	}
	ar.arcs.Init()
	last := 0.0
	for left := m; left > 0 && ar.arcs.Len() > 0; {
		x := ar.arcs.Pop()
		switch {
		case !math.IsInf(ar.settled[x.to], 1):
			continue
		case x.t >= st.Cutoff:
			return x.t // every non-holder left arrives no earlier
		case !x.exact:
			if t := ar.fitArc(x, st); t < ar.upper[x.to] {
				ar.upper[x.to] = t
				ar.arcs.Push(arc{t: t, from: x.from, to: x.to, exact: true})
			}
			continue
		}
		ar.settled[x.to], last = x.t, x.t
		left--
		p := ar.want[x.to]
		for j, q := range ar.want {
			if t := x.t + nw.Cost[p][q]; math.IsInf(ar.settled[j], 1) && t < ar.upper[j] {
				ar.arcs.Push(arc{t: t, from: x.to, to: j})
			}
		}
	}
	return last
}

// fitArc is the arrival of an arc with fit applied: from the holders, the
// least over them.
func (ar *arrivals) fitArc(x arc, st *State) float64 {
	b := ar.b
	nw, r := b.nw, ar.want[x.to]
	if x.from >= 0 {
		p := ar.want[x.from]
		return st.Fit(p, r, ar.settled[x.from]) + nw.Cost[p][r]
	}
	first, est := -1, math.Inf(1) // the holder with the least contention-free arrival goes first
	for _, h := range ar.have {
		if t := st.Ready[h] + nw.Cost[h][r]; t < est {
			first, est = h, t
		}
	}
	best := st.Fit(first, r, st.Ready[first]) + nw.Cost[first][r]
	for _, h := range ar.have {
		if h != first && st.Ready[h]+nw.Cost[h][r] < best {
			best = min(best, st.Fit(h, r, st.Ready[h])+nw.Cost[h][r])
		}
	}
	return best
}

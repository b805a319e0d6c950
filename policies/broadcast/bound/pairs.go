package bound

import (
	"cmp"
	"slices"
)

// pairer bounds the later arrival of two non-holders whose transfers
// cannot overlap on a channel both cross (see pairBound).
type pairer struct {
	b    *Bounder       // the figures of the tree and of the state, shared by the parts
	cand []int          // pairBound's non-holders
	opts [][]sendOption // pairBound's senders, per non-holder of cand
}

// pairBound bounds the completion by two non-holders r1, r2 at once: the
// transfers that inform them are distinct, and where their routes share a
// channel that cannot carry both rates at once, their reservations there
// cannot overlap.
//
// Proof. The transfer T_i that informs r_i comes from a sender u_i: a
// holder, which starts it at ≥ fit(u_i, r_i, ready), or a non-holder,
// informed at ≥ A(u_i) (see arrivalBound), which starts it at ≥ fit(u_i,
// r_i, A(u_i)); r_i is informed cost(u_i, r_i) after the start. When u_2
// is r_1, T_2 starts after r_1 is informed (and the other way round). In
// every other case, on a channel c that both routes cross with b_1 + b_2
// above c's capacity, the reservations of T_1 and T_2 are disjoint: if
// T_1's comes first, T_2's starts at or after T_1's ends, which is no
// earlier than its end when T_1 starts at its least start, so T_2 starts
// that much later; and the other way round. The later of the two
// arrivals is at least the least, over the senders and, on each such
// channel, the two orders, of the later of the two arrivals so bounded.
// The pairs are those of the pairCandidates non-holders with the latest A.
func (pp *pairer) pairBound(st *State) float64 {
	b := pp.b
	m := len(b.arr.want)
	if m < 2 {
		return 0
	}
	cand := append(pp.cand[:0], b.arr.want...)
	slices.SortFunc(cand, func(x, y int) int { return cmp.Compare(b.hold[y], b.hold[x]) })
	pp.cand = cand
	cand = cand[:min(m, pairCandidates)]
	pp.opts = slices.Grow(pp.opts[:0], len(cand))[:len(cand)]
	for i, r := range cand {
		pp.opts[i] = pp.options(r, st, pp.opts[i])
	}
	lb := 0.0
	for i := range cand {
		for j := i + 1; j < len(cand); j++ {
			if lb = max(lb, pp.pair(cand[i], cand[j], pp.opts[i], pp.opts[j], st)); lb >= st.Cutoff {
				return lb
			}
		}
	}
	return lb
}

// pairCandidates is how many non-holders pairBound pairs.
const pairCandidates = 8

// sendOption is a sender u of a transfer to a non-holder: the receiver's
// contention-free arrival from it (est) and, once exact, the transfer's
// least start and the receiver's least arrival with the reservations made.
type sendOption struct {
	u             int
	est           float64
	start, arrive float64
	exact         bool
}

// options lists the senders of a transfer to r whose contention-free
// arrival comes before the cutoff, earliest first; pair makes them exact
// as it needs them.
func (pp *pairer) options(r int, st *State, buf []sendOption) []sendOption {
	b := pp.b
	nw := b.nw
	buf = buf[:0]
	for _, u := range nw.Parts {
		if est := b.hold[u] + nw.Cost[u][r]; u != r && est < st.Cutoff { // hold: ready, or A
			buf = append(buf, sendOption{u: u, est: est})
		}
	}
	slices.SortFunc(buf, func(x, y sendOption) int { return cmp.Compare(x.est, y.est) })
	return buf
}

// settle makes an option to r exact and returns its arrival.
func (pp *pairer) settle(o *sendOption, r int, st *State) float64 {
	b := pp.b
	if !o.exact {
		o.start = st.Fit(o.u, r, b.hold[o.u])
		o.arrive, o.exact = o.start+b.nw.Cost[o.u][r], true
	}
	return o.arrive
}

// pair is the bound of pairBound for r1 and r2, given the senders of
// each, or the cutoff when no pair of senders informs both before it.
// The options come by contention-free arrival, which the exact one can
// only delay, so a loop stops at the first that reaches the best so far.
func (pp *pairer) pair(r1, r2 int, opt1, opt2 []sendOption, st *State) float64 {
	b := pp.b
	nw := b.nw
	best := st.Cutoff
	for i := range opt1 {
		x := &opt1[i]
		if x.est >= best {
			break
		}
		if x.u == r2 || pp.settle(x, r1, st) >= best {
			continue // r2 informing r1 is the chain below
		}
		for j := range opt2 {
			y := &opt2[j]
			if max(x.arrive, y.est) >= best {
				break
			}
			if y.u != r1 && pp.settle(y, r2, st) < best {
				best = min(best, pp.together(*x, r1, *y, r2))
			}
		}
	}
	chain := func(first []sendOption, r, q int) {
		for i := range first {
			x := &first[i]
			if x.est+nw.Cost[r][q] >= best {
				return
			}
			if x.u != q && pp.settle(x, r, st)+nw.Cost[r][q] < best {
				best = min(best, st.Fit(r, q, x.arrive)+nw.Cost[r][q])
			}
		}
	}
	chain(opt1, r1, r2)
	chain(opt2, r2, r1)
	return best
}

// together bounds the later arrival of transfers x→r1 and y→r2 that may
// not overlap on a channel both cross when their rates exceed its
// capacity (see pairBound).
func (pp *pairer) together(x sendOption, r1 int, y sendOption, r2 int) float64 {
	b := pp.b
	nw := b.nw
	a1, a2 := x.arrive, y.arrive
	lb := max(a1, a2)
	rt1, rt2 := nw.Route(x.u, r1), nw.Route(y.u, r2)
	d1, d2 := nw.Size/rt1.Bandwidth, nw.Size/rt2.Bandwidth
	for i, c := range rt1.Channels {
		for j, c2 := range rt2.Channels {
			if c != c2 || rt1.Bandwidth+rt2.Bandwidth <= nw.Capacity[c]*(1+1e-9) {
				continue
			}
			s1, s2 := x.start+rt1.Offsets[i], y.start+rt2.Offsets[j]
			if s1 < s2+d2 && s2 < s1+d1 {
				lb = max(lb, min(max(a1, a2+s1+d1-s2), max(a1+s2+d2-s1, a2)))
			}
		}
	}
	return lb
}

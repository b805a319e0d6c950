package heft

import "sort"

// A timeline is the busy intervals of one resource (a processor, a port,
// an uplink), sorted and disjoint, with the largest gap of every block of
// block intervals, so that the search for an idle slot skips the blocks
// whose gaps are all too short.
type timeline struct {
	sp   []span
	gmax []float64 // by block: the largest sp[k].s − sp[k−1].e over its k (k > 0)
}

// span is the busy interval [s, e).
type span struct{ s, e float64 }

// block is the number of intervals summarised by one gap maximum.
const block = 32

// fit is the earliest t ≥ ready such that [t, t+d) overlaps no busy
// interval: the insertion of HEFT and CPOP.
func (tl *timeline) fit(ready, d float64) float64 {
	sp := tl.sp
	i, j := 0, len(sp) // the first interval that ends after ready
	for i < j {
		if h := int(uint(i+j) >> 1); sp[h].e > ready {
			j = h
		} else {
			i = h + 1
		}
	}
	t := ready
	for i < len(sp) {
		if i%block == 0 && i > 0 && tl.gmax[i/block] < d && t <= sp[i-1].e {
			// No gap of this block is long enough: t ends up at its end.
			i = min(i+block, len(sp))
			t = max(t, sp[i-1].e)
			continue
		}
		if t+d <= sp[i].s {
			return t
		}
		t = max(t, sp[i].e)
		i++
	}
	return t
}

// add books [s, e), which must be free.
func (tl *timeline) add(s, e float64) {
	sp := tl.sp
	i := sort.Search(len(sp), func(k int) bool { return sp[k].s > s || sp[k].s == s && sp[k].e > e })
	sp = append(sp, span{})
	copy(sp[i+1:], sp[i:])
	sp[i] = span{s, e}
	tl.sp = sp
	nb := (len(sp) + block - 1) / block
	for len(tl.gmax) < nb {
		tl.gmax = append(tl.gmax, 0)
	}
	for b := i / block; b < nb; b++ {
		g := 0.0
		for k := max(b*block, 1); k < min((b+1)*block, len(sp)); k++ {
			g = max(g, sp[k].s-sp[k-1].e)
		}
		tl.gmax[b] = g
	}
}

// fitAll is the earliest t ≥ ready at which [t, t+d) is free on every
// timeline of rs.
func fitAll(tls []timeline, rs []int, ready, d float64) float64 {
	t := ready
	for moved := true; moved; {
		moved = false
		for _, r := range rs {
			if u := tls[r].fit(t, d); u > t {
				t, moved = u, true
			}
		}
	}
	return t
}

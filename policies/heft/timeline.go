package heft

import (
	"math"
	"slices"
)

// A timeline is the busy intervals of one resource (a processor, a port,
// an uplink), sorted and disjoint, kept in blocks of at most maxBlock
// intervals under a max-tree of each block's largest gap, so that both
// the search for an idle slot and a booking take O(log n + maxBlock)
// time: the search skips, in one descent of the tree, every block whose
// gaps are all too short.
type timeline struct {
	end    float64   // the end of the last interval, 0 when there is none
	blocks [][]span  // the intervals in order, none of these empty
	ends   []float64 // by block: the end of its last interval
	gaps   []float64 // max-tree over the blocks' largest gaps: leaves at gaps[leaves+b]
	spare  []float64 // the tree before the last rebuild, whose memory the next one reuses
	leaves int       // a power of two ≥ len(blocks), 0 when there is no block
}

// span is the busy interval [s, e).
type span struct{ s, e float64 }

// maxBlock is the most intervals a block holds; a fuller one is split in
// two.
const maxBlock = 64

// fit is the earliest t ≥ ready such that [t, t+d) overlaps no busy
// interval, a zero-length interval counting as a point that [t, t+d)
// must not hold strictly inside: the insertion of HEFT and CPOP. Since
// the intervals are disjoint their ends rise with their starts, so it is
// ready when that fits before the first interval ending after ready, and
// otherwise the end of the first interval whose gap to the next one
// holds d (or of the last one).
func (tl *timeline) fit(ready, d float64) float64 {
	if tl.end <= ready || len(tl.blocks) == 0 {
		return ready // the usual case: the resource is free from ready on
	}
	b := tl.firstEndingAfter(ready)
	sp := tl.blocks[b]
	i, j := 0, len(sp)-1 // the first interval that ends after ready
	for i < j {
		if h := int(uint(i+j) >> 1); sp[h].e > ready {
			j = h
		} else {
			i = h + 1
		}
	}
	if ready+d <= sp[i].s {
		return ready
	}
	// A gap holds d when its start plus d reaches no further than its
	// end; the tree's gaps (end − start, rounded) only rule blocks out,
	// with a margin for that rounding.
	margin := tl.end * 0x1p-48
	prev := sp[i].e
	for k := i + 1; ; k = 0 {
		for _, x := range sp[k:] {
			if prev+d <= x.s {
				return prev
			}
			prev = x.e
		}
		if b = tl.firstGap(b+1, d-margin); b < 0 {
			return tl.end
		}
		prev = tl.ends[b-1]
		sp = tl.blocks[b]
	}
}

// firstEndingAfter is the first block whose last interval ends after t;
// the last one must.
func (tl *timeline) firstEndingAfter(t float64) int {
	i, j := 0, len(tl.ends)-1
	for i < j {
		if h := int(uint(i+j) >> 1); tl.ends[h] > t {
			j = h
		} else {
			i = h + 1
		}
	}
	return i
}

// firstGap is the first block from lo on whose largest gap is at least
// need, or −1: a descent of the max-tree from the leaf of lo.
func (tl *timeline) firstGap(lo int, need float64) int {
	if lo >= len(tl.blocks) {
		return -1
	}
	i := tl.leaves + lo
	for !(tl.gaps[i] >= need) {
		for i&1 == 1 { // a right child: its right is its parent's right
			i >>= 1
		}
		if i == 0 {
			return -1
		}
		i++
	}
	for i < tl.leaves {
		i *= 2
		if !(tl.gaps[i] >= need) {
			i++
		}
	}
	if i-tl.leaves >= len(tl.blocks) { // need is −Inf
		return -1
	}
	return i - tl.leaves
}

// add books [s, e), which must be free.
func (tl *timeline) add(s, e float64) {
	x := span{s, e}
	tl.end = max(tl.end, e)
	after := func(a span) bool { return a.s > s || a.s == s && a.e > e }
	if len(tl.blocks) == 0 {
		tl.blocks, tl.ends = [][]span{append(newBlock(), x)}, []float64{e}
		tl.rebuild([]float64{math.Inf(-1)})
		return
	}
	// The block of the last interval before x, or the first block.
	b, _ := slices.BinarySearchFunc(tl.blocks, x, func(sp []span, _ span) int {
		if after(sp[0]) {
			return 1
		}
		return -1
	})
	b = max(b-1, 0)
	sp := tl.blocks[b]
	i, _ := slices.BinarySearchFunc(sp, x, func(a, _ span) int {
		if after(a) {
			return 1
		}
		return -1
	})
	sp = slices.Insert(sp, i, x)
	if len(sp) > maxBlock {
		half := len(sp) / 2
		tl.blocks[b] = sp[:half]
		tl.blocks = slices.Insert(tl.blocks, b+1, append(newBlock(), sp[half:]...))
		tl.ends = slices.Insert(tl.ends, b, sp[half-1].e)
		tl.ends[b+1] = sp[len(sp)-1].e
		leaves := tl.gaps[tl.leaves : tl.leaves+len(tl.blocks)-1]
		tl.rebuild(slices.Insert(leaves, b, 0))
		for c := b; c < min(b+3, len(tl.blocks)); c++ { // the two halves, and the block x may precede
			tl.update(c)
		}
		return
	}
	tl.blocks[b] = sp
	tl.ends[b] = sp[len(sp)-1].e
	tl.split(b, i)
}

// split updates the gaps for interval i of block b, just booked: it
// splits the gap between the intervals either side of it in two, each
// no longer than that gap. Only when that gap was its block's largest
// must the block be scanned again.
func (tl *timeline) split(b, i int) {
	sp := tl.blocks[b]
	x := sp[i]
	prev, hasPrev := 0.0, true
	switch {
	case i > 0:
		prev = sp[i-1].e
	case b > 0:
		prev = tl.ends[b-1]
	default:
		hasPrev = false
	}
	if hasPrev {
		tl.raise(b, x.s-prev)
	}
	nb, j := b, i+1 // the interval after x
	if j == len(sp) {
		nb, j = b+1, 0
	}
	if nb == len(tl.blocks) {
		return
	}
	next := tl.blocks[nb][j]
	if hasPrev && tl.gaps[tl.leaves+nb] == next.s-prev {
		tl.update(nb)
		return
	}
	tl.raise(nb, next.s-x.e)
}

// raise makes g one of block b's gaps.
func (tl *timeline) raise(b int, g float64) {
	for i := tl.leaves + b; i >= 1 && tl.gaps[i] < g; i >>= 1 {
		tl.gaps[i] = g
	}
}

// gap is block b's largest gap between an interval and the one before
// it; the first interval of all has none.
func (tl *timeline) gap(b int) float64 {
	g := math.Inf(-1)
	prev := math.Inf(1)
	if b > 0 {
		prev = tl.ends[b-1]
	}
	for _, x := range tl.blocks[b] {
		g = max(g, x.s-prev)
		prev = x.e
	}
	return g
}

// update recomputes block b's largest gap and the tree above it.
func (tl *timeline) update(b int) {
	i := tl.leaves + b
	tl.gaps[i] = tl.gap(b)
	for i > 1 {
		i >>= 1
		tl.gaps[i] = max(tl.gaps[2*i], tl.gaps[2*i+1])
	}
}

// rebuild sizes the tree for the blocks and fills it from the blocks'
// largest gaps, by block.
func (tl *timeline) rebuild(gaps []float64) {
	leaves := 1
	for leaves < len(gaps) {
		leaves *= 2
	}
	tree := slices.Grow(tl.spare[:0], 2*leaves)[:2*leaves]
	copy(tree[leaves:], gaps)
	for i := leaves + len(gaps); i < len(tree); i++ {
		tree[i] = math.Inf(-1)
	}
	for i := leaves - 1; i >= 1; i-- {
		tree[i] = max(tree[2*i], tree[2*i+1])
	}
	tl.gaps, tl.spare, tl.leaves = tree, tl.gaps, leaves
}

// newBlock is an empty block that holds maxBlock+1 intervals, the most
// one holds before it is split, without growing.
func newBlock() []span { return make([]span, 0, maxBlock+1) }

// fitAll is the earliest t ≥ ready at which [t, t+d) is free on every
// timeline of rs: it moves t to the earliest fit on each timeline in
// turn, round and round, until all the others agree with the last that
// moved it. (Whatever the order, t never passes a time free on all of
// them, so it ends at the earliest.)
func fitAll(tls []timeline, rs []int, ready, d float64) float64 {
	t := ready
	for k, agreed := 0, 0; agreed < len(rs); k++ {
		if k == len(rs) {
			k = 0
		}
		if u := tls[rs[k]].fit(t, d); u > t {
			t, agreed = u, 1
		} else {
			agreed++
		}
	}
	return t
}

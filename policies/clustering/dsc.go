package clustering

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
)

// DSC runs the Dominant Sequence Clustering of Yang and Gerasoulis ("DSC:
// scheduling parallel tasks on an unbounded number of processors", IEEE
// TPDS 5(9), 1994), with its dominant sequence length reduction warranty
// (DSRW), on the delay platform.
//
// Tasks are examined top-down. A task is free once all its predecessors
// are examined, partially free once some are; its priority is
// tlevel + blevel (blevel with every delay, fixed; tlevel from the
// examined predecessors). Each step takes the free task nx of highest
// priority and tries to lower its start by appending it to the cluster of
// a predecessor, also pulling into that cluster, in decreasing order of
// data arrival, predecessors that are alone in their cluster and have nx
// as only successor (DSC's zeroing of several incoming edges); the
// placement with the earliest start is kept if earlier than nx alone.
// DSRW: when the partially free task ny of highest priority outranks nx, a
// placement that would delay the earliest start ny could get by joining a
// cluster of its examined predecessors is not allowed. Deterministic: ties
// go to the smaller index.
func DSC(g *models.DAG, rho float64) (*Plan, error) {
	p, err := prepare(g)
	if err != nil {
		return nil, err
	}
	if !(rho >= 0) || math.IsInf(rho, 0) {
		return nil, fmt.Errorf("dsc: ρ must be a finite number >= 0, got %v", rho)
	}
	return newDSC(p, rho).run(), nil
}

// dscState is the partial schedule DSC grows.
type dscState struct {
	p          *prepared
	rho        float64
	blevel     []float64
	tlevel     []float64 // data ready time from the examined predecessors
	left       []int     // predecessors not yet examined
	cluster    []int     // −1 while unexamined; id = a task of the cluster
	size       []int     // tasks per cluster id
	finish     []float64 // end of the last task of each cluster id
	start, end []float64
	// seq lists the tasks in the order they were placed (topological). A
	// pulled task is placed a second time: only its last entry, at
	// seqAt[v], counts, and run drops the others at the end.
	seq, seqAt []int
	free, part taskHeap
	// stamp numbers the steps; a per-cluster mark equal to it was set in
	// this step.
	stamp int
	jn    joinState
	ds    dsrwState
}

func newDSC(p *prepared, rho float64) *dscState {
	n := p.n
	d := &dscState{p: p, rho: rho, blevel: make([]float64, n), tlevel: make([]float64, n), left: make([]int, n),
		cluster: make([]int, n), size: make([]int, n), finish: make([]float64, n), start: make([]float64, n), end: make([]float64, n),
		seq: make([]int, 0, n), seqAt: make([]int, n)}
	d.jn.init(n)
	d.ds.init(n)
	for i := n - 1; i >= 0; i-- {
		v := p.order[i]
		for _, u := range p.succs[v] {
			d.blevel[v] = max(d.blevel[v], rho+d.blevel[u])
		}
		d.blevel[v] += p.w[v]
	}
	for v := range n {
		d.cluster[v] = -1
		d.left[v] = len(p.preds[v])
		if d.left[v] == 0 {
			d.free.push(prio{v, d.blevel[v]})
		}
	}
	return d
}

func (d *dscState) run() *Plan {
	for d.free.Len() > 0 {
		nx := d.free.pop()
		ny, hasNY := d.topPartial()
		c, pulled, start := d.best(nx.task, ny.task, hasNY && ny.key > nx.key)
		d.commit(nx.task, c, pulled, start)
	}
	seq := d.seq[:0]
	for i, v := range d.seq {
		if d.seqAt[v] == i {
			seq = append(seq, v)
		}
	}
	return d.p.plan(Clustering(d.cluster).Normalize(), seq, d.rho)
}

// topPartial returns the partially free task of highest priority,
// discarding stale heap entries.
func (d *dscState) topPartial() (prio, bool) {
	for d.part.Len() > 0 {
		top := d.part[0]
		v := top.task
		if d.cluster[v] < 0 && d.left[v] > 0 && top.key == d.tlevel[v]+d.blevel[v] {
			return top, true
		}
		d.part.pop()
	}
	return prio{}, false
}

// best chooses where nx goes: the cluster (−1 for a new one), the lonely
// predecessors pulled into it in execution order, and nx's start. Each
// cluster of a predecessor is tried once, in the order of nx's
// predecessors, and kept if it starts nx strictly earlier than the best so
// far and, under DSRW, does not delay ny.
func (d *dscState) best(nx, ny int, dsrw bool) (c int, pulled []int, start float64) {
	d.stamp++
	d.jn.prepare(d, nx)
	bestC, bestN, bestStart := -1, 0, d.tlevel[nx]
	for _, u := range d.p.preds[nx] {
		c := d.cluster[u]
		if d.jn.tried[c] == d.stamp {
			continue
		}
		d.jn.tried[c] = d.stamp
		st, n := d.jn.join(d, c)
		if st < bestStart && !(dsrw && d.delays(ny, c, st+d.p.w[nx])) {
			bestC, bestN, bestStart = c, n, st
		}
	}
	if bestC < 0 {
		return -1, nil, bestStart
	}
	return bestC, d.jn.pulled(d, bestC, bestN), bestStart
}

// joinState computes, for the nx of one step, its earliest start appended
// to each cluster c of its predecessors, pulling into c first a prefix of
// its lonely predecessors (alone in their cluster, nx their only
// successor) taken by decreasing data arrival (end, then index), the
// prefix that gives the earliest start (the shortest on ties).
//
// Let L = l_0 … l_{k−1} be the lonely predecessors in that order, F the
// finish of c, and r_m the time the data of m's predecessors are on c
// (ready). The pulled set S runs on c after F in increasing r_m (then
// index), each task as soon as it is ready: its finish is the fold
// t ← max(t, r_m) + w_m from t = F, which unrolls to
//
//	seq(F, S) = max(F + W(S), G(S)),  G(S) = max over m ∈ S of r_m + W(m…),
//
// W(S) the total weight and W(m…) that of m and the tasks of S after it.
// nx then starts at
//
//	st(c, j) = max(seq(F, S_j), in_c, out_c, E_j),
//
// S_j the first j lonely predecessors other than c's own, in_c the latest
// end of a predecessor in c, out_c the latest end + ρ of a predecessor
// neither lonely nor in c, and E_j = end + ρ of the first lonely
// predecessor left out (−∞ if none): the arrivals left, as L is sorted by
// decreasing end. So with the prefix sums A_j = W(l_0 … l_{j−1}) and the
// prefix folds B_j = G(l_0 … l_{j−1}) of the step, each prefix costs O(1):
//
//	st(c, j) = max(F + A_j, B_j, in_c, out_c, E_j).
//
// B_j is computed once per step with a segment tree over L in ready order
// whose node holds the fold x ↦ max(x + a, b) of its tasks (leaf m:
// a = w_m, b = r_m + w_m; left then right: a = a_l + a_r,
// b = max(b_l + a_r, b_r)); activating l_j costs O(log k).
//
// Three kinds of cluster c:
//   - c holds a lonely predecessor l_i (and nothing else). Then r_m is the
//     same as for any other cluster (l_i's only successor is nx, so it is
//     no predecessor of m), F = end(l_i), and L less l_i is the candidate
//     list. For j ≤ i, S_j = l_0 … l_{j−1} as above (with E_{i+1} for
//     j = i). For j > i, S_j = l_0 … l_{i−1} plus some l_t, t > i, each
//     with r ≤ start ≤ end(l_t) ≤ F, which only add their weight:
//     seq(F, S_j) = max(F + W(S_j), B_i).
//   - c holds no lonely predecessor and no predecessor of a lonely one:
//     the formula as it stands.
//   - c holds a predecessor of some lonely m, whose data are then ready
//     earlier on c: the same with B_j folded again for c's ready times,
//     O(k log k). Each lonely task is a predecessor of one nx only, so
//     this costs at most its in-degree such folds over the run.
//
// The sums are those of the fold regrouped, so the starts are the same
// whenever the weights add up exactly (integers, or multiples of a power
// of two such as 0.25), and up to rounding otherwise.
type joinState struct {
	tried []int // by cluster id: stamp once tried this step
	// by cluster id, for the clusters of nx's predecessors (mark = stamp):
	// lpos is the position in L of the cluster's lonely task or −1, inEnd
	// the latest end of a predecessor in it, spec the range of its entries
	// in special.
	mark, lpos     []int
	inEnd          []float64
	specFrom, spec []int
	lonely         []int     // L
	a, b, e        []float64 // A_j, B_j, E_j for j = 0…k
	// out: the latest end + ρ of a predecessor not lonely (outFirst, in
	// cluster outC) and the latest from another cluster (outSecond).
	outFirst, outSecond float64
	outC                int
	// for each l_t: the latest arrival end + ρ of its predecessors (rFirst,
	// from cluster rC) and the latest from another cluster (rSecond).
	rFirst, rSecond []float64
	rC              []int
	ready           []float64 // ready times of L on the cluster at hand
	readyC          []float64 // scratch for those of a cluster with special ones
	special         []special
	// the segment tree of the fold and the ready order
	ta, tb     []float64
	rank, perm []int
	bc         []float64 // B_j for a cluster with special ready times
}

// special is a predecessor of the lonely task l_t in cluster c, ending at
// end.
type special struct {
	c, t int
	end  float64
}

func (j *joinState) init(n int) {
	j.tried, j.mark, j.lpos, j.specFrom, j.spec = make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	j.inEnd = make([]float64, n)
}

// prepare gathers nx's lonely predecessors and the arrays of the step.
func (j *joinState) prepare(d *dscState, nx int) {
	p, rho, stamp := d.p, d.rho, d.stamp
	inf := math.Inf(1)
	j.lonely = j.lonely[:0]
	j.outFirst, j.outSecond, j.outC = -inf, -inf, -1
	for _, u := range p.preds[nx] {
		cu := d.cluster[u]
		if d.size[cu] == 1 && len(p.succs[u]) == 1 {
			j.lonely = append(j.lonely, u)
			continue
		}
		if j.mark[cu] != stamp {
			j.mark[cu], j.lpos[cu], j.inEnd[cu], j.spec[cu] = stamp, -1, d.end[u], 0
		} else {
			j.inEnd[cu] = max(j.inEnd[cu], d.end[u])
		}
		j.outFirst, j.outSecond, j.outC = top2(j.outFirst, j.outSecond, j.outC, d.end[u]+rho, cu)
	}
	L := j.lonely
	if len(L) > 1 {
		slices.SortFunc(L, func(a, b int) int { return cmp.Or(cmp.Compare(d.end[b], d.end[a]), cmp.Compare(a, b)) })
	}
	k := len(L)
	j.a, j.b, j.e = grow(j.a, k+1), grow(j.b, k+1), grow(j.e, k+1)
	j.rFirst, j.rSecond, j.rC, j.ready = grow(j.rFirst, k), grow(j.rSecond, k), growInts(j.rC, k), grow(j.ready, k)
	j.special = j.special[:0]
	j.a[0], j.e[k] = 0, -inf
	for t, m := range L {
		cm := d.cluster[m]
		j.mark[cm], j.lpos[cm], j.inEnd[cm], j.spec[cm] = stamp, t, d.end[m], 0
		j.a[t+1] = j.a[t] + p.w[m]
		j.e[t] = d.end[m] + rho
	}
	for t, m := range L {
		first, second, fc := -inf, -inf, -1
		for _, u := range p.preds[m] {
			cu := d.cluster[u]
			first, second, fc = top2(first, second, fc, d.end[u]+rho, cu)
			if j.mark[cu] == stamp && j.lpos[cu] < 0 {
				j.special = append(j.special, special{cu, t, d.end[u]})
			}
		}
		j.rFirst[t], j.rSecond[t], j.rC[t] = first, second, fc
		j.ready[t] = max(0, first)
	}
	j.fold(d, j.b)
	if len(j.special) == 0 {
		return
	}
	// Group the special entries by cluster (then lonely task).
	slices.SortFunc(j.special, func(x, y special) int { return cmp.Or(cmp.Compare(x.c, y.c), cmp.Compare(x.t, y.t)) })
	for i := len(j.special) - 1; i >= 0; i-- {
		c := j.special[i].c
		j.specFrom[c] = i
		j.spec[c]++
	}
}

// top2 adds the value x of cluster c to the latest value (first, of
// cluster fc) and the latest of another cluster (second).
func top2(first, second float64, fc int, x float64, c int) (float64, float64, int) {
	switch {
	case x > first && c != fc:
		return x, first, c
	case x > first:
		return x, second, fc
	case x > second && c != fc:
		return first, x, fc
	}
	return first, second, fc
}

// fold writes into b the prefix folds B_0 … B_k of L at the ready times
// j.ready.
func (j *joinState) fold(d *dscState, b []float64) {
	L, k := j.lonely, len(j.lonely)
	inf := math.Inf(1)
	b[0] = -inf
	if k == 0 {
		return
	}
	j.perm = growInts(j.perm, k)
	for t := range k {
		j.perm[t] = t
	}
	slices.SortFunc(j.perm, func(x, y int) int { return cmp.Or(cmp.Compare(j.ready[x], j.ready[y]), cmp.Compare(L[x], L[y])) })
	j.rank = growInts(j.rank, k)
	for r, t := range j.perm {
		j.rank[t] = r
	}
	size := 1
	for size < k {
		size *= 2
	}
	j.ta, j.tb = grow(j.ta, 2*size), grow(j.tb, 2*size)
	for x := range 2 * size {
		j.ta[x], j.tb[x] = 0, -inf
	}
	ta, tb := j.ta, j.tb
	for t, m := range L {
		x := size + j.rank[t]
		w := d.p.w[m]
		ta[x], tb[x] = w, j.ready[t]+w
		for x /= 2; x >= 1; x /= 2 {
			l, r := 2*x, 2*x+1
			ta[x], tb[x] = ta[l]+ta[r], max(tb[l]+ta[r], tb[r])
		}
		b[t+1] = tb[1]
	}
}

// join returns nx's earliest start appended to cluster c (a cluster of
// its predecessors) and how many lonely predecessors are pulled in first.
func (j *joinState) join(d *dscState, c int) (float64, int) {
	k, F := len(j.lonely), d.finish[c]
	a, b, e := j.a, j.b, j.e
	best, bestN := math.Inf(1), 0
	try := func(st float64, n int) {
		if st < best {
			best, bestN = st, n
		}
	}
	if i := j.lpos[c]; i >= 0 {
		// c is {l_i}: prefixes of L less l_i.
		k0 := max(j.inEnd[c], j.outFirst)
		for n := range i {
			try(max(F+a[n], b[n], k0, e[n]), n)
		}
		w := a[i]
		try(max(F+w, b[i], k0, e[i+1]), i)
		for n := i + 1; n < k; n++ {
			w += d.p.w[j.lonely[n]]
			try(max(F+w, b[i], k0, e[n+1]), n)
		}
		return best, bestN
	}
	out := j.outFirst
	if c == j.outC {
		out = j.outSecond
	}
	k0 := max(j.inEnd[c], out)
	if j.spec[c] > 0 {
		b = j.specialFold(d, c)
	}
	for n := 0; n <= k; n++ {
		try(max(F+a[n], b[n], k0, e[n]), n)
	}
	return best, bestN
}

// specialFold is B_0 … B_k for cluster c, which holds predecessors of some
// lonely tasks: their ready time on c is the latest of their predecessors'
// ends in c and of the arrivals from other clusters.
func (j *joinState) specialFold(d *dscState, c int) []float64 {
	k := len(j.lonely)
	def := j.ready
	j.readyC = append(j.readyC[:0], def...)
	j.ready = j.readyC
	entries := j.special[j.specFrom[c] : j.specFrom[c]+j.spec[c]]
	for i := 0; i < len(entries); {
		t, in := entries[i].t, entries[i].end
		for i++; i < len(entries) && entries[i].t == t; i++ {
			in = max(in, entries[i].end)
		}
		other := j.rFirst[t]
		if c == j.rC[t] {
			other = j.rSecond[t]
		}
		j.ready[t] = max(0, in, other)
	}
	j.bc = grow(j.bc, k+1)
	j.fold(d, j.bc)
	j.ready = def
	return j.bc
}

// pulled lists the first n lonely predecessors other than c's own, in
// the order they run on c: by ready time there, then index.
func (j *joinState) pulled(d *dscState, c, n int) []int {
	out := make([]int, 0, n)
	for _, m := range j.lonely {
		if len(out) == n {
			break
		}
		if d.cluster[m] != c {
			out = append(out, m)
		}
	}
	return sortByReady(d, out, c)
}

// sortByReady sorts tasks by their ready time on cluster c, then index.
func sortByReady(d *dscState, tasks []int, c int) []int {
	type keyed struct {
		r float64
		v int
	}
	ks := make([]keyed, len(tasks))
	for i, v := range tasks {
		ks[i] = keyed{d.ready(v, c), v}
	}
	slices.SortFunc(ks, func(x, y keyed) int { return cmp.Or(cmp.Compare(x.r, y.r), cmp.Compare(x.v, y.v)) })
	for i := range ks {
		tasks[i] = ks[i].v
	}
	return tasks
}

// ready is when the data of task v's predecessors are on cluster c.
func (d *dscState) ready(v, c int) float64 {
	t := 0.0
	for _, u := range d.p.preds[v] {
		if d.cluster[u] == c {
			t = max(t, d.end[u])
		} else {
			t = max(t, d.end[u]+d.rho)
		}
	}
	return t
}

// dsrwState summarises, once per step that needs it, the earliest start
// ny could get from its examined predecessors: alone (its tlevel), or
// appended to the cluster cu of one of them at
// max(finish(cu), q(cu)), q(cu) the later of the latest end of a
// predecessor in cu and the latest arrival end + ρ from another cluster.
// Only cluster c's finish changes in delays, so its answer is
// min(alone, the least start on a cluster other than c, max(new finish,
// q(c))), O(1) once the step is summarised.
type dsrwState struct {
	stamp int // the step summarised
	// by cluster id, for the clusters of ny's examined predecessors:
	// mark = stamp once seen, done = stamp once counted.
	mark, done []int
	lastEnd, q []float64
	alone      float64 // ny's tlevel
	// the least start on a cluster (min1, cluster minC) and the least on
	// another (min2)
	min1, min2 float64
	minC       int
}

func (s *dsrwState) init(n int) {
	s.mark, s.done, s.lastEnd, s.q = make([]int, n), make([]int, n), make([]float64, n), make([]float64, n)
}

// delays reports whether cluster c finishing at newFinish instead would
// make ny's best start (alone, or joining a cluster of its examined
// predecessors) later.
func (d *dscState) delays(ny, c int, newFinish float64) bool {
	s := &d.ds
	if s.stamp != d.stamp {
		d.summarize(ny)
	}
	if s.mark[c] != d.stamp {
		return false // c is no cluster of ny's predecessors: nothing changes
	}
	before := min(s.alone, s.min1)
	other := s.min1
	if c == s.minC {
		other = s.min2
	}
	after := min(s.alone, other, max(newFinish, s.q[c]))
	return after > before
}

// summarize computes dsrwState for ny in the current step.
func (d *dscState) summarize(ny int) {
	s := &d.ds
	stamp := d.stamp
	inf := math.Inf(1)
	s.stamp = stamp
	first, second, firstC := -inf, -inf, -1
	for _, u := range d.p.preds[ny] {
		cu := d.cluster[u]
		if cu < 0 {
			continue
		}
		if s.mark[cu] != stamp {
			s.mark[cu], s.lastEnd[cu] = stamp, d.end[u]
		} else {
			s.lastEnd[cu] = max(s.lastEnd[cu], d.end[u])
		}
		first, second, firstC = top2(first, second, firstC, d.end[u]+d.rho, cu)
	}
	s.alone, s.min1, s.min2, s.minC = d.tlevel[ny], inf, inf, -1
	for _, u := range d.p.preds[ny] {
		cu := d.cluster[u]
		if cu < 0 || s.done[cu] == stamp {
			continue
		}
		s.done[cu] = stamp
		other := first
		if cu == firstC {
			other = second
		}
		s.q[cu] = max(s.lastEnd[cu], other)
		switch v := max(d.finish[cu], s.q[cu]); {
		case v < s.min1:
			s.min1, s.min2, s.minC = v, s.min1, cu
		case v < s.min2:
			s.min2 = v
		}
	}
}

// commit places nx at start on cluster c (a new one if c < 0) after the
// predecessors it pulls, and updates the free and partially free tasks.
func (d *dscState) commit(nx, c int, pulled []int, start float64) {
	if c < 0 {
		c = nx
	}
	for _, m := range pulled {
		d.size[d.cluster[m]]--
		d.place(m, c, max(d.finish[c], d.ready(m, c)))
	}
	d.place(nx, c, start)
	for _, u := range d.p.succs[nx] {
		d.left[u]--
		tl := max(d.tlevel[u], d.end[nx]+d.rho)
		first := d.left[u] == len(d.p.preds[u])-1
		changed := tl != d.tlevel[u]
		d.tlevel[u] = tl
		key := prio{u, d.tlevel[u] + d.blevel[u]}
		if d.left[u] == 0 {
			d.free.push(key)
		} else if first || changed {
			d.part.push(key) // else its entry is still current
		}
	}
}

// place puts v on cluster c at start; a task placed again (pulled) keeps
// only its new entry in seq.
func (d *dscState) place(v, c int, start float64) {
	d.cluster[v] = c
	d.size[c]++
	d.start[v], d.end[v] = start, start+d.p.w[v]
	d.finish[c] = d.end[v]
	d.seqAt[v] = len(d.seq)
	d.seq = append(d.seq, v)
}

// grow returns s resized to n, reusing its memory when it can.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, 2*n)
	}
	return s[:n]
}

// growInts is grow for ints.
func growInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, 2*n)
	}
	return s[:n]
}

// push adds x to the heap; push and pop are container/heap's Push and Pop
// without the boxing of every entry in an interface.
func (h *taskHeap) push(x prio) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.Less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

// pop removes and returns the entry of highest key (smallest task on
// ties).
func (h *taskHeap) pop() prio {
	s := *h
	top, n := s[0], len(s)-1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		m := 2*i + 1
		if m >= n {
			break
		}
		if r := m + 1; r < n && s.Less(r, m) {
			m = r
		}
		if !s.Less(m, i) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

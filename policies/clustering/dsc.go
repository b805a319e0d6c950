package clustering

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/netsched/netsched/internal/heapq"
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
//
// Cost: O((v + e) log v) for v tasks and e edges, the bound of the paper,
// but for one term it does not have, from trying every cluster of nx's
// predecessors as this implementation does: a cluster holding a
// predecessor of a lonely task whose data arrive there earlier, in a way
// that matters, needs a fold of its own, O(k log k) for k lonely
// predecessors (joinState; at most once per edge into a lonely task, and
// only where DSRW kept that task off the cluster). Plans are those of the
// quadratic code this replaced (issue 20), checked against it in
// dsc_test.go.
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
	p      *prepared
	rho    float64
	blevel []float64
	// tlevel is the data ready time from the examined predecessors (−∞
	// before the first), the latest of their arrivals end + ρ; it comes
	// from cluster firstC, and the latest from another cluster is second.
	tlevel, second []float64
	firstC         []int
	left           []int     // predecessors not yet examined
	cluster        []int     // −1 while unexamined; id = a task of the cluster
	size           []int     // tasks per cluster id
	finish         []float64 // end of the last task of each cluster id
	start, end     []float64
	// seq lists the tasks in the order they were placed (topological). A
	// pulled task is placed a second time: only its last entry, at
	// seqAt[v], counts, and run drops the others at the end.
	seq, seqAt []int
	free, part heapq.Heap[prio] // ordered by higher
	// stamp numbers the steps; a per-cluster mark equal to it was set in
	// this step.
	stamp int
	jn    joinState
}

func newDSC(p *prepared, rho float64) *dscState {
	n := p.n
	d := &dscState{p: p, rho: rho, blevel: make([]float64, n), tlevel: make([]float64, n), second: make([]float64, n), firstC: make([]int, n), left: make([]int, n),
		cluster: make([]int, n), size: make([]int, n), finish: make([]float64, n), start: make([]float64, n), end: make([]float64, n),
		seq: make([]int, 0, n), seqAt: make([]int, n),
		free: heapq.Heap[prio]{Less: higher}, part: heapq.Heap[prio]{Less: higher}}
	d.jn.init(n)
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
			d.free.Push(prio{v, d.blevel[v]})
		} else {
			// until its first predecessor is placed
			d.tlevel[v], d.second[v], d.firstC[v] = math.Inf(-1), math.Inf(-1), -1
		}
	}
	return d
}

func (d *dscState) run() *Plan {
	for d.free.Len() > 0 {
		nx := d.free.Pop()
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
		top := d.part.Items[0]
		v := top.task
		if d.cluster[v] < 0 && d.left[v] > 0 && top.key == d.tlevel[v]+d.blevel[v] {
			return top, true
		}
		d.part.Pop()
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
		if d.jn.cl[c].tried == d.stamp {
			continue
		}
		d.jn.cl[c].tried = d.stamp
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
// Better, A_j and B_j never decrease with j and E_j never increases, so
// st(c, ·) falls, then rises: firstMin finds the first j of least start
// by binary search, O(log k) per cluster however many lonely tasks nx has.
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
//     j = i). For j > i, S_j = l_0 … l_j less l_i: l_0 … l_{i−1} plus
//     tasks l_t, t > i, each with r ≤ start ≤ end(l_t) ≤ F, which only
//     add their weight: seq(F, S_j) = max(F + A_{j+1} − w(l_i), B_i).
//   - c holds no lonely predecessor and no predecessor of a lonely one:
//     the formula as it stands.
//   - c holds a predecessor of some lonely m, whose data may then be
//     ready earlier on c. If that changes a ready time above F (which
//     takes DSRW to have kept m off c when m was placed), B_j is folded
//     again for c's ready times, O(k log k); otherwise the step's B_j
//     holds (specialFold). Each lonely task is a predecessor of one nx
//     only, so this costs at most its in-degree such folds over the run.
//
// The sums are those of the fold regrouped, so the starts are the same
// whenever the weights add up exactly (integers, or multiples of a power
// of two such as 0.25), and up to rounding otherwise.
type joinState struct {
	cl      []joinCluster // by cluster id
	lonely  []int         // L
	a, b, e []float64     // A_j, B_j, E_j for j = 0…k
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

// joinCluster is what a step knows of a cluster of nx's predecessors
// (valid while mark is the step's stamp): the position in L of its lonely
// task or −1, the latest end of a predecessor in it, and the range
// special[specFrom:specFrom+spec] of its entries. tried is the stamp of
// the step that last tried it.
type joinCluster struct {
	tried, mark          int
	lpos, specFrom, spec int
	inEnd                float64
}

// special is a predecessor of the lonely task l_t in cluster c, ending at
// end.
type special struct {
	c, t int
	end  float64
}

func (j *joinState) init(n int) {
	j.cl = make([]joinCluster, n)
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
		if cl := &j.cl[cu]; cl.mark != stamp {
			cl.mark, cl.lpos, cl.inEnd, cl.spec = stamp, -1, d.end[u], 0
		} else {
			cl.inEnd = max(cl.inEnd, d.end[u])
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
		j.cl[cm] = joinCluster{tried: j.cl[cm].tried, mark: stamp, lpos: t, inEnd: d.end[m]}
		j.a[t+1] = j.a[t] + p.w[m]
		j.e[t] = d.end[m] + rho
	}
	for t, m := range L {
		first, second, fc := -inf, -inf, -1
		for _, u := range p.preds[m] {
			cu := d.cluster[u]
			first, second, fc = top2(first, second, fc, d.end[u]+rho, cu)
			if cl := &j.cl[cu]; cl.mark == stamp && cl.lpos < 0 {
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
		j.cl[c].specFrom = i
		j.cl[c].spec++
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
	cl := &j.cl[c]
	if i := cl.lpos; i >= 0 {
		// c is {l_i}: prefixes of L less l_i.
		k0 := max(cl.inEnd, j.outFirst)
		best, bestN := firstMin(0, i, func(n int) float64 { return max(F+a[n], b[n], k0) }, func(n int) float64 { return e[n] })
		if st := max(F+a[i], b[i], k0, e[i+1]); st < best {
			best, bestN = st, i
		}
		wi := d.p.w[j.lonely[i]]
		st, n := firstMin(i+1, k, func(n int) float64 { return max(F+(a[n+1]-wi), b[i], k0) }, func(n int) float64 { return e[n+1] })
		if st < best {
			best, bestN = st, n
		}
		return best, bestN
	}
	out := j.outFirst
	if c == j.outC {
		out = j.outSecond
	}
	k0 := max(cl.inEnd, out)
	if cl.spec > 0 {
		b = j.specialFold(d, c)
	}
	return firstMin(0, k+1, func(n int) float64 { return max(F+a[n], b[n], k0) }, func(n int) float64 { return e[n] })
}

// firstMin returns the least max(up(n), down(n)) over n in [lo, hi) and
// the first n that gives it (+Inf and lo if the range is empty), for up
// nondecreasing and down nonincreasing, in O(log(hi − lo)): below the
// first n where up(n) >= down(n) the maximum is down and falls, from there
// on it is up and rises.
func firstMin(lo, hi int, up, down func(int) float64) (float64, int) {
	if lo >= hi {
		return math.Inf(1), lo
	}
	x := lo + sort.Search(hi-lo, func(i int) bool { return up(lo+i) >= down(lo+i) })
	best, n := math.Inf(1), x
	if x < hi {
		best = up(x)
	}
	if x > lo && down(x-1) <= best {
		best = down(x - 1)
		n = lo + sort.Search(x-lo, func(i int) bool { return down(lo+i) <= best })
	}
	return best, n
}

// specialFold is B_0 … B_k for cluster c, which holds predecessors of some
// lonely tasks: their ready time on c is the latest of their predecessors'
// ends in c and of the arrivals from other clusters. It returns the
// step's B when no ready time changes above F = finish(c): a task ready
// by F only adds its weight to the fold from F (seq(F, S) =
// max(F + W(S), G of the tasks of S ready after F)), and a ready time
// lowered from at most F stays at most F.
func (j *joinState) specialFold(d *dscState, c int) []float64 {
	k, F := len(j.lonely), d.finish[c]
	entries := j.special[j.cl[c].specFrom : j.cl[c].specFrom+j.cl[c].spec]
	// each calls fn with the lonely tasks of entries and their ready time
	// on c, stopping when fn returns false.
	each := func(fn func(t int, r float64) bool) {
		for i := 0; i < len(entries); {
			t, in := entries[i].t, entries[i].end
			for i++; i < len(entries) && entries[i].t == t; i++ {
				in = max(in, entries[i].end)
			}
			other := j.rFirst[t]
			if c == j.rC[t] {
				other = j.rSecond[t]
			}
			if !fn(t, max(0, in, other)) {
				return
			}
		}
	}
	changed := false
	each(func(t int, r float64) bool {
		changed = r != j.ready[t] && j.ready[t] > F
		return !changed
	})
	if !changed {
		return j.b
	}
	def := j.ready
	j.readyC = append(j.readyC[:0], def...)
	each(func(t int, r float64) bool {
		j.readyC[t] = r
		return true
	})
	j.ready = j.readyC
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

// delays reports whether cluster c finishing at newFinish (no earlier than
// now) instead would make ny's best start later: alone, at tlevel(ny), or
// appended to the cluster cu of an examined predecessor, at
// max(finish(cu), latest end of ny's predecessors in cu, latest arrival
// end + ρ from another cluster). A finish is never before the ends of its
// cluster's tasks, and tlevel(ny) is the latest arrival of all, first
// (ny's predecessors are never pulled, so their ends stay as they were
// when they raised tlevel). So a cluster other than firstC, the one
// first comes from, gives at least first, and ny's best start is
//
//	min(first, max(finish(firstC), second)),
//
// second the latest arrival from another cluster than firstC (first
// itself if two clusters tie). Only c = firstC can delay it. The top two
// arrivals are kept per task as its predecessors are placed, so this is
// O(1).
func (d *dscState) delays(ny, c int, newFinish float64) bool {
	if c != d.firstC[ny] {
		return false
	}
	first, second := d.tlevel[ny], d.second[ny]
	return min(first, max(newFinish, second)) > min(first, max(d.finish[c], second))
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
		tl, second, fc := top2(d.tlevel[u], d.second[u], d.firstC[u], d.end[nx]+d.rho, c)
		changed := tl != d.tlevel[u] // always at the first: tlevel starts at −∞
		d.tlevel[u], d.second[u], d.firstC[u] = tl, second, fc
		key := prio{u, tl + d.blevel[u]}
		if d.left[u] == 0 {
			d.free.Push(key)
		} else if changed {
			d.part.Push(key) // else its entry is still current
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

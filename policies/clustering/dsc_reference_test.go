package clustering

// This file keeps DSC as it was before issue 20 made it O((v + e) log v)
// (commit bd1f402): a quadratic join over the prefixes of the lonely
// predecessors and a linear scan per pulled task. It is the independent
// reference TestDSCMatchesReference compares the fast DSC with, plan for
// plan; do not speed it up.

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
)

// refDSCState is DSC before issue 20, kept verbatim (names aside): the
// partial schedule it grows (newRefDSC makes one, run plans).
type refDSCState struct {
	p          *prepared
	rho        float64
	blevel     []float64
	tlevel     []float64 // data ready time from the examined predecessors
	left       []int     // predecessors not yet examined
	cluster    []int     // −1 while unexamined; id = a task of the cluster
	size       []int     // tasks per cluster id
	finish     []float64 // end of the last task of each cluster id
	start, end []float64
	seq        []int // tasks in the order they were placed (topological)
	free, part taskHeap
	// scratch of bestPartialStart, by cluster id
	mark    []int
	lastEnd []float64
	stamp   int
}

func newRefDSC(p *prepared, rho float64) *refDSCState {
	n := p.n
	d := &refDSCState{p: p, rho: rho, blevel: make([]float64, n), tlevel: make([]float64, n), left: make([]int, n),
		cluster: make([]int, n), size: make([]int, n), finish: make([]float64, n), start: make([]float64, n), end: make([]float64, n),
		mark: make([]int, n), lastEnd: make([]float64, n)}
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
			heap.Push(&d.free, prio{v, d.blevel[v]})
		}
	}
	return d
}

// refPlacement is a cluster nx may join: c (−1 for a new one), the lonely
// predecessors pulled in with it, in execution order, and nx's start.
type refPlacement struct {
	c      int
	pulled []int
	start  float64
}

func (d *refDSCState) run() *Plan {
	for d.free.Len() > 0 {
		nx := heap.Pop(&d.free).(prio)
		ny, hasNY := d.topPartial()
		pl := d.best(nx.task, ny, hasNY && ny.key > nx.key)
		d.commit(nx.task, pl)
	}
	return d.p.plan(Clustering(d.cluster).Normalize(), d.seq, d.rho)
}

// topPartial returns the partially free task of highest priority,
// discarding stale heap entries.
func (d *refDSCState) topPartial() (prio, bool) {
	for d.part.Len() > 0 {
		top := d.part[0]
		v := top.task
		if d.cluster[v] < 0 && d.left[v] > 0 && top.key == d.tlevel[v]+d.blevel[v] {
			return top, true
		}
		heap.Pop(&d.part)
	}
	return prio{}, false
}

// best chooses where nx goes; under DSRW it must not delay ny.
func (d *refDSCState) best(nx int, ny prio, dsrw bool) refPlacement {
	best := refPlacement{c: -1, start: d.tlevel[nx]}
	var tried []int
	for _, u := range d.p.preds[nx] {
		c := d.cluster[u]
		if slices.Contains(tried, c) {
			continue
		}
		tried = append(tried, c)
		pl := d.join(nx, c)
		if pl.start < best.start && !(dsrw && d.delays(ny.task, c, pl.start+d.p.w[nx])) {
			best = pl
		}
	}
	return best
}

// join computes nx's earliest start appended to cluster c, trying every
// prefix of its lonely predecessors (by decreasing arrival) pulled in
// first.
func (d *refDSCState) join(nx, c int) refPlacement {
	p := d.p
	var lonely []int
	for _, u := range p.preds[nx] {
		if cu := d.cluster[u]; cu != c && d.size[cu] == 1 && len(p.succs[u]) == 1 {
			lonely = append(lonely, u)
		}
	}
	slices.SortFunc(lonely, func(a, b int) int { return cmp.Or(cmp.Compare(d.end[b], d.end[a]), cmp.Compare(a, b)) })
	best := refPlacement{c: c, start: math.Inf(1)}
	for j := 0; j <= len(lonely); j++ {
		pulled := slices.Clone(lonely[:j])
		slices.SortFunc(pulled, func(a, b int) int { return cmp.Or(cmp.Compare(d.ready(a, c), d.ready(b, c)), cmp.Compare(a, b)) })
		at := d.finish[c]
		for _, m := range pulled {
			at = max(at, d.ready(m, c)) + p.w[m]
		}
		st := at
		for _, u := range p.preds[nx] {
			if d.cluster[u] == c {
				st = max(st, d.end[u])
			} else if !slices.Contains(pulled, u) {
				st = max(st, d.end[u]+d.rho)
			}
		}
		if st < best.start {
			best = refPlacement{c: c, pulled: pulled, start: st}
		}
	}
	return best
}

// ready is when the data of task v's predecessors are on cluster c.
func (d *refDSCState) ready(v, c int) float64 {
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

// delays reports whether cluster c finishing at newFinish instead would
// make ny's best start (alone, or joining a cluster of its examined
// predecessors) later.
func (d *refDSCState) delays(ny, c int, newFinish float64) bool {
	before := d.bestPartialStart(ny, c, d.finish[c])
	after := d.bestPartialStart(ny, c, newFinish)
	return after > before
}

func (d *refDSCState) bestPartialStart(ny, c int, finishC float64) float64 {
	// The latest arrival from another cluster is the latest of all unless
	// it comes from D itself; keep the latest arrival, its cluster, and
	// the latest from any other cluster.
	first, second, firstC := math.Inf(-1), math.Inf(-1), -1
	d.stamp++
	for _, u := range d.p.preds[ny] {
		cu := d.cluster[u]
		if cu < 0 {
			continue
		}
		if d.mark[cu] != d.stamp {
			d.mark[cu], d.lastEnd[cu] = d.stamp, d.end[u]
		} else {
			d.lastEnd[cu] = max(d.lastEnd[cu], d.end[u])
		}
		switch at := d.end[u] + d.rho; {
		case at > first && cu != firstC:
			first, second, firstC = at, first, cu
		case at > first:
			first = at
		case at > second && cu != firstC:
			second = at
		}
	}
	best := d.tlevel[ny]
	for _, u := range d.p.preds[ny] {
		cu := d.cluster[u]
		if cu < 0 || d.mark[cu] != d.stamp {
			continue
		}
		d.mark[cu] = 0 // each cluster once
		st := d.finish[cu]
		if cu == c {
			st = finishC
		}
		other := first
		if cu == firstC {
			other = second
		}
		best = min(best, max(st, d.lastEnd[cu], other))
	}
	return best
}

// commit places nx (and the predecessors it pulls) and updates the free
// and partially free tasks.
func (d *refDSCState) commit(nx int, pl refPlacement) {
	c := pl.c
	if c < 0 {
		c = nx
	}
	for _, m := range pl.pulled {
		d.size[d.cluster[m]]--
		d.seq = slices.DeleteFunc(d.seq, func(v int) bool { return v == m })
		d.place(m, c, max(d.finish[c], d.ready(m, c)))
	}
	d.place(nx, c, pl.start)
	for _, u := range d.p.succs[nx] {
		d.left[u]--
		d.tlevel[u] = max(d.tlevel[u], d.end[nx]+d.rho)
		key := prio{u, d.tlevel[u] + d.blevel[u]}
		if d.left[u] == 0 {
			heap.Push(&d.free, key)
		} else {
			heap.Push(&d.part, key)
		}
	}
}

func (d *refDSCState) place(v, c int, start float64) {
	d.cluster[v] = c
	d.size[c]++
	d.start[v], d.end[v] = start, start+d.p.w[v]
	d.finish[c] = d.end[v]
	d.seq = append(d.seq, v)
}

// taskHeap is the reference's max-heap of tasks by key, ties to the
// smaller task, through container/heap, as the code it keeps had it.
type taskHeap []prio

func (h taskHeap) Len() int           { return len(h) }
func (h taskHeap) Less(i, j int) bool { return higher(h[i], h[j]) }
func (h taskHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *taskHeap) Push(x any)        { *h = append(*h, x.(prio)) }
func (h *taskHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

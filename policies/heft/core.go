package heft

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
)

// A model is the platform as the list schedulers see it: processors, the
// costs that rank tasks, and the placement of a task on a processor.
type model interface {
	// procs is the number of processors.
	procs() int
	// cost is w_{v,p}, the time task v takes on processor p.
	cost(v, p int) float64
	// meanCost is w̄_v, v's average computation cost.
	meanCost(v int) float64
	// meanComm is c̄ of an edge carrying data between two processors.
	meanComm(data float64) float64
	// place puts task v, whose parents are placed, on processor p as
	// early as insertion allows and returns its finish time; unless keep,
	// it then takes the placement back.
	place(v, p int, keep bool) float64
}

// Algorithm is one of the two list schedulers.
type Algorithm int

// The two list schedulers of Topcuoglu, Hariri and Wu.
const (
	HEFT Algorithm = iota // each task on the processor of its earliest finish time
	CPOP                  // the critical path on one processor, the rest as HEFT
)

// String is the algorithm's policy name.
func (a Algorithm) String() string {
	if a == CPOP {
		return "cpop"
	}
	return "heft"
}

// ranks returns rank_u of every task: w̄_v plus the longest path, in
// c̄ + rank_u, through one of its children.
func ranks(g *graph, m model) []float64 {
	up := make([]float64, g.n)
	for i := g.n - 1; i >= 0; i-- {
		v := g.order[i]
		best := 0.0
		for _, c := range g.children(v) {
			best = max(best, m.meanComm(c.data)+up[c.task])
		}
		up[v] = m.meanCost(v) + best
	}
	return up
}

// downRanks returns rank_d of every task: the longest path from an entry
// task to it, its own cost excluded.
func downRanks(g *graph, m model) []float64 {
	down := make([]float64, g.n)
	for _, v := range g.order {
		for _, u := range g.parents(v) {
			down[v] = max(down[v], down[u.task]+m.meanCost(u.task)+m.meanComm(u.data))
		}
	}
	return down
}

// criticalPath marks CPOP's critical path: from the entry task of highest
// priority, each time the child of highest priority (|CP| = the entry's
// priority, which every task of the path has), ties to the lower index.
// It returns the marks and the processor that computes the path fastest
// (p_CP), ties to the lower index.
func criticalPath(g *graph, m model, prio []float64) ([]bool, int) {
	on := make([]bool, g.n)
	v := -1
	for _, u := range g.order {
		if len(g.parents(u)) == 0 && (v < 0 || higher(prio, u, v)) {
			v = u
		}
	}
	var path []int
	for v >= 0 {
		on[v] = true
		path = append(path, v)
		next := -1
		for _, c := range g.children(v) {
			if next < 0 || higher(prio, c.task, next) {
				next = c.task
			}
		}
		v = next
	}
	best, bestCost := 0, math.Inf(1)
	for p := range m.procs() {
		sum := 0.0
		for _, u := range path {
			sum += m.cost(u, p)
		}
		if sum < bestCost {
			best, bestCost = p, sum
		}
	}
	return on, best
}

// prioTol is the relative tolerance within which two priorities are
// equal, and the lower index goes first: averages of equal paths summed
// in another order differ in their last bits.
const prioTol = 1e-9

// higher reports whether task a goes before task b: a higher priority,
// or an equal one and a lower index.
func higher(prio []float64, a, b int) bool {
	pa, pb := prio[a], prio[b]
	if math.Abs(pa-pb) <= prioTol*max(math.Abs(pa), math.Abs(pb)) {
		return a < b
	}
	return pa > pb
}

// Constraints restrict the list schedulers, for a schedule partly given:
// a mapping (clustering policies) or a recorded execution.
type Constraints struct {
	// Order, if set, is the order in which the tasks are placed, a
	// topological order of the graph, instead of by priority.
	Order []int
	// Allowed, if set, lists the processors task v may go on; the one of
	// earliest finish among them is taken (the first on ties).
	Allowed func(v int) []int
}

// run places every task of g on m with alg: the ready task of highest
// priority first (rank_u for HEFT, rank_u + rank_d for CPOP), so that a
// parent is always placed before its children, unless c (which may be
// nil) gives the order or the processors allowed.
func run(ctx context.Context, g *graph, m model, alg Algorithm, c *Constraints) error {
	if c == nil {
		c = &Constraints{}
	}
	if c.Order != nil {
		return runInOrder(ctx, g, m, c)
	}
	prio := ranks(g, m)
	var onCP []bool
	cpProc := 0
	if alg == CPOP && c.Allowed == nil {
		down := downRanks(g, m)
		for v := range prio {
			prio[v] += down[v]
		}
		onCP, cpProc = criticalPath(g, m, prio)
	}
	pick := newEarliest(m)
	waiting := make([]int, g.n)
	ready := heapq.New(func(a, b int) bool { return higher(prio, a, b) })
	for v := range g.n {
		waiting[v] = len(g.parents(v))
		if waiting[v] == 0 {
			ready.Push(v)
		}
	}
	for placed := 0; ready.Len() > 0; placed++ {
		if placed%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		v := ready.Pop()
		if onCP != nil && onCP[v] {
			m.place(v, cpProc, true)
		} else {
			pick.place(v, c.Allowed)
		}
		for _, ch := range g.children(v) {
			if waiting[ch.task]--; waiting[ch.task] == 0 {
				ready.Push(ch.task)
			}
		}
	}
	return nil
}

// runInOrder places the tasks in the order c gives, which must be
// topological.
func runInOrder(ctx context.Context, g *graph, m model, c *Constraints) error {
	if len(c.Order) != g.n {
		return fmt.Errorf("an order of %d tasks for %d", len(c.Order), g.n)
	}
	pick := newEarliest(m)
	done := make([]bool, g.n)
	for k, v := range c.Order {
		if k%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if v < 0 || v >= g.n || done[v] {
			return fmt.Errorf("the order lists task %d twice or out of range", v)
		}
		for _, u := range g.parents(v) {
			if !done[u.task] {
				return fmt.Errorf("the order places task %d before its parent %d", v, u.task)
			}
		}
		pick.place(v, c.Allowed)
		done[v] = true
	}
	return nil
}

// A bounder is a model that knows a lower bound of the finish time of v
// on p, cheaper than placing it: a processor whose bound is no earlier
// than the best finish found is not tried (the result is the same).
type bounder interface {
	bound(v, p int) float64
}

// earliest places tasks on the processor of earliest finish, the first
// (in the order allowed lists them, or by index) on ties. With a
// bounder it tries them by increasing bound, so that the best is found
// early and the rest, whose bounds are no earlier, are not tried: the
// choice is the same, since it is the least (finish, order) pair.
type earliest struct {
	m     model
	b     bounder // nil if m has no bound
	cands []candidate
}

// candidate is a processor p, the rank-th allowed, with its bound.
type candidate struct {
	bound   float64
	rank, p int
}

// newEarliest places tasks on m.
func newEarliest(m model) *earliest {
	b, _ := m.(bounder)
	return &earliest{m: m, b: b}
}

// place places v on the processor of earliest finish among those allowed
// (all if allowed is nil).
func (e *earliest) place(v int, allowed func(v int) []int) {
	var ps []int
	n := e.m.procs()
	if allowed != nil {
		ps = allowed(v)
		if len(ps) == 1 {
			e.m.place(v, ps[0], true)
			return
		}
		n = len(ps)
	}
	proc := func(k int) int {
		if ps != nil {
			return ps[k]
		}
		return k
	}
	best, bestEnd := -1, math.Inf(1)
	if e.b == nil {
		for k := range n {
			if end := e.m.place(v, proc(k), false); best < 0 || end < bestEnd {
				best, bestEnd = proc(k), end
			}
		}
		e.m.place(v, best, true)
		return
	}
	cs := e.cands[:0]
	for k := range n {
		cs = append(cs, candidate{e.b.bound(v, proc(k)), k, proc(k)})
	}
	slices.SortFunc(cs, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.bound, b.bound), cmp.Compare(a.rank, b.rank))
	})
	e.cands = cs
	bestRank := -1
	for _, c := range cs {
		if bestRank >= 0 && (c.bound > bestEnd || c.bound == bestEnd && c.rank > bestRank) {
			if c.bound > bestEnd {
				break
			}
			continue
		}
		if end := e.m.place(v, c.p, false); bestRank < 0 || end < bestEnd || end == bestEnd && c.rank < bestRank {
			best, bestEnd, bestRank = c.p, end, c.rank
		}
	}
	e.m.place(v, best, true)
}

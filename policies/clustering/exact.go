package clustering

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/netsched/netsched/models"
)

// Class restricts Exact to a class of clusterings.
type Class int

// The classes.
const (
	AnyClustering     Class = iota // every schedule
	ConvexClusterings              // schedules whose clustering is convex (Definition 2)
	CrossClusterings               // schedules whose clustering is cross (Definition 3)
)

// MaxExactTasks bounds the graphs Exact accepts.
const MaxExactTasks = 20

// ExactOptions restrict Exact.
type ExactOptions struct {
	Class Class
	// Fixed, if set, is the only clustering allowed: Exact then computes
	// eval(G, R) of §2, the least time(S) of the schedules derived from R.
	Fixed Clustering
	// Below, if > 0, asks only for a schedule with time(S) < Below.
	Below float64
}

// Exact finds, by exhaustive search, a schedule of least time(S) (the
// latest start, paper 002 §2) on the delay platform, among all schedules
// or those whose clustering is in a class. It enumerates the semi-active
// schedules (each task as early as its processor and its data allow) in
// order of start time, processors numbered by first use, pruned by the
// bound time(S) ≥ start + the heaviest path to an exit task. It returns
// nil and no error when no schedule is below opt.Below. Graphs of up to
// MaxExactTasks tasks only; the time grows exponentially.
func Exact(ctx context.Context, g *models.DAG, rho float64, opt ExactOptions) (*Plan, error) {
	p, err := prepare(g)
	if err != nil {
		return nil, err
	}
	if p.n > MaxExactTasks {
		return nil, fmt.Errorf("exact: %d tasks, at most %d", p.n, MaxExactTasks)
	}
	if opt.Fixed != nil {
		if err := opt.Fixed.check(p.n); err != nil {
			return nil, err
		}
		opt.Fixed = opt.Fixed.Normalize()
	}
	if err := p.withReach(ctx); err != nil {
		return nil, err
	}
	e := newExact(ctx, p, rho, opt)
	e.dfs()
	if e.err != nil {
		return nil, e.err
	}
	if e.bestOrder == nil {
		return nil, nil
	}
	return p.plan(Clustering(e.bestProc).Normalize(), e.bestOrder, rho), nil
}

// exact is the state of the search.
type exact struct {
	ctx                 context.Context
	p                   *prepared
	rho                 float64
	opt                 ExactOptions
	pred, anc, desc     []uint64 // masks
	tail                []float64
	proc                []int
	start, end          []float64
	on, below           []uint64 // tasks on each processor, and tasks they precede
	free                []float64
	nprocs              int
	sched               uint64
	order               []int
	lastStart           float64
	lastRank            int
	best                float64
	bestProc, bestOrder []int
	nodes               int
	err                 error
}

func newExact(ctx context.Context, p *prepared, rho float64, opt ExactOptions) *exact {
	n := p.n
	e := &exact{ctx: ctx, p: p, rho: rho, opt: opt, pred: make([]uint64, n), anc: make([]uint64, n), desc: make([]uint64, n),
		tail: make([]float64, n), proc: make([]int, n), start: make([]float64, n), end: make([]float64, n),
		on: make([]uint64, n), below: make([]uint64, n), free: make([]float64, n), lastRank: -1, best: math.Inf(1)}
	if opt.Below > 0 {
		e.best = opt.Below
	}
	for v := range n {
		for _, u := range p.preds[v] {
			e.pred[v] |= 1 << uint(u)
		}
		e.anc[v], e.desc[v] = p.anc[v][0], p.desc[v][0]
	}
	// tail[v]: the heaviest path from v's start to the start of an exit
	// task (the weights of its tasks but the last), so time(S) >= start +
	// tail.
	for i := n - 1; i >= 0; i-- {
		v := p.order[i]
		for _, u := range p.succs[v] {
			e.tail[v] = max(e.tail[v], p.w[v]+e.tail[u])
		}
	}
	return e
}

func (e *exact) dfs() {
	if e.err != nil {
		return
	}
	if e.nodes++; e.nodes&4095 == 0 {
		if e.err = e.ctx.Err(); e.err != nil {
			return
		}
	}
	n := e.p.n
	if e.sched == 1<<uint(n)-1 {
		e.record()
		return
	}
	bound := 0.0
	for v := range n {
		if e.sched&(1<<uint(v)) != 0 {
			bound = max(bound, e.start[v]+e.tail[v])
		} else {
			bound = max(bound, e.lastStart+e.tail[v])
		}
	}
	if bound >= e.best {
		return
	}
	for _, v := range e.p.order {
		if e.sched&(1<<uint(v)) != 0 || e.pred[v]&^e.sched != 0 {
			continue
		}
		lo, hi := 0, e.nprocs // hi: a new processor
		if e.opt.Fixed != nil {
			lo, hi = e.opt.Fixed[v], e.opt.Fixed[v]
		}
		for q := lo; q <= hi; q++ {
			e.try(v, q)
		}
	}
}

// try schedules v on processor q if canonical, allowed and promising.
func (e *exact) try(v, q int) {
	st := e.free[q]
	if e.opt.Fixed == nil && q == e.nprocs {
		st = 0
	}
	for _, u := range e.p.preds[v] {
		at := e.end[u]
		if e.proc[u] != q {
			at += e.rho
		}
		st = max(st, at)
	}
	rank := e.p.rank[v]
	if st < e.lastStart || (st == e.lastStart && rank < e.lastRank) || st+e.tail[v] >= e.best || !e.allowed(v, q) {
		return
	}
	// apply
	oldFree, oldStart, oldRank, oldN := e.free[q], e.lastStart, e.lastRank, e.nprocs
	oldOn, oldBelow := e.on[q], e.below[q]
	if e.opt.Fixed == nil && q == e.nprocs {
		e.nprocs++
		oldFree, oldOn, oldBelow = 0, 0, 0
	}
	bit := uint64(1) << uint(v)
	e.proc[v], e.start[v], e.end[v] = q, st, st+e.p.w[v]
	e.free[q], e.on[q], e.below[q] = e.end[v], e.on[q]|bit, e.below[q]|e.desc[v]
	e.sched |= bit
	e.lastStart, e.lastRank = st, rank
	e.order = append(e.order, v)
	e.dfs()
	e.order = e.order[:len(e.order)-1]
	e.sched &^= bit
	e.free[q], e.on[q], e.below[q] = oldFree, oldOn, oldBelow
	e.lastStart, e.lastRank, e.nprocs = oldStart, oldRank, oldN
}

// allowed checks the class with v added to processor q; every violation
// is found when its last task is placed.
func (e *exact) allowed(v, q int) bool {
	if e.opt.Fixed != nil || e.opt.Class == AnyClustering {
		return true
	}
	on, bit := e.on[q], uint64(1)<<uint(v)
	if q == e.nprocs {
		on = 0
	}
	procs := e.nprocs
	if e.opt.Class == ConvexClusterings {
		below := e.below[q] | e.desc[v]
		if q == e.nprocs {
			below = e.desc[v]
		}
		for r := range procs {
			if r != q && below&e.on[r] != 0 && e.below[r]&(on|bit) != 0 {
				return false
			}
		}
		return true
	}
	// Cross: no x ≺ y ≺ z with x, z on one processor and y on another.
	for m := e.anc[v] & e.sched &^ on; m != 0; m &= m - 1 { // v as z
		if e.anc[bits.TrailingZeros64(m)]&on != 0 {
			return false
		}
	}
	for r := range procs { // v as y
		if r != q && e.anc[v]&e.on[r] != 0 && e.desc[v]&e.on[r] != 0 {
			return false
		}
	}
	for m := e.desc[v] & e.sched &^ on; m != 0; m &= m - 1 { // v as x
		if e.desc[bits.TrailingZeros64(m)]&on != 0 {
			return false
		}
	}
	return true
}

func (e *exact) record() {
	ts := 0.0
	for v := range e.p.n {
		ts = max(ts, e.start[v])
	}
	if ts < e.best {
		e.best = ts
		e.bestProc = append(e.bestProc[:0], e.proc...)
		e.bestOrder = append(e.bestOrder[:0], e.order...)
	}
}

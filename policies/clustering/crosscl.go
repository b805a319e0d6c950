package clustering

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/netsched/netsched/models"
)

// Selection says how IndependentTasks (paper 002 §5.1.2) picks its two
// independent tasks.
type Selection string

// The selections.
const (
	// SelectCP picks task1 at random among the tasks of largest CP (CP of
	// the whole graph, computed once) that have an independent task in the
	// cluster, and task2 at random among the tasks of largest CP
	// independent of task1: Cross-A's rule (§5.1.2).
	SelectCP Selection = "cp"
	// SelectRandom picks task1 uniformly among the tasks with an
	// independent task in the cluster, and task2 uniformly among the tasks
	// independent of task1.
	SelectRandom Selection = "random"
	// SelectLargest reads Lepère and Trystram's "two sets of independent
	// tasks as large as possible": task1 at random among the tasks with
	// the most descendants in the cluster (that have an independent task
	// there), task2 among the tasks independent of task1 with the most
	// descendants in the cluster that do not follow task1.
	SelectLargest Selection = "largest"
)

// Params are the settings of Cross-A and Convex-A.
type Params struct {
	K      int       // independent-task selections per cluster (paper: 10)
	Runs   int       // randomised runs, the best kept (paper: 10)
	Seed   uint64    // seed of run r's generator is (Seed, r)
	Select Selection // "" means the algorithm's own rule
	// Variant picks among the readings the text leaves open; the zero
	// value is the default reading.
	Variant Variant
}

// Result is what a randomised clustering algorithm found: the best plan of
// its runs (least time(S), then least makespan, then earliest run) and the
// time(S) and makespan of every run, for the paper's Min and Avg columns.
type Result struct {
	Best        *Plan
	RunTimeS    []float64
	RunMakespan []float64
}

// CrossA runs Cross-A, the cross clustering algorithm of paper 002 §5.1
// (Fig. 4): CrossCL_ρ(V) splits a cluster K times with DivideCluster
// around two tasks from IndependentTasks, keeps the split with the least
// eval′ on the cluster's own subgraph (SelectBetterCluster), and recurses
// into its parts if DivideOK holds: the split is no slower than running
// the cluster sequentially. Params.Variant gives the other readings of
// these steps. Its clusterings satisfy Definition 3.
func CrossA(ctx context.Context, g *models.DAG, rho float64, prm Params) (*Result, error) {
	return runNamed(ctx, "cross", g, rho, prm)
}

// ConvexA runs Convex-A, the convex clustering algorithm of Lepère and
// Trystram (IPDPS 2002) as paper 002 §5.2.1.1 describes it: the frame of
// CrossCL, but the two clusters grown around the independent tasks take
// their descendants only (never their ancestors), which keeps every
// clustering convex (Definition 2). The paper says it picks its two tasks
// "like Cross-A", so SelectCP is its default too.
func ConvexA(ctx context.Context, g *models.DAG, rho float64, prm Params) (*Result, error) {
	return runNamed(ctx, "convex", g, rho, prm)
}

func runNamed(ctx context.Context, name string, g *models.DAG, rho float64, prm Params) (*Result, error) {
	p, err := prepare(g)
	if err != nil {
		return nil, err
	}
	return recursiveAlgorithm(name).run(ctx, p, rho, prm)
}

// recursive is a clustering algorithm in the frame of CrossCL: how it
// splits a cluster around two independent tasks, and its default rule for
// choosing them.
type recursive struct {
	name   string
	divide func(w *worker, t1, t2 int) int
	sel    Selection
}

// recursiveAlgorithm returns Cross-A ("cross") or Convex-A ("convex").
func recursiveAlgorithm(name string) recursive {
	if name == "convex" {
		return recursive{name: "convex", divide: (*worker).divideConvex, sel: SelectCP}
	}
	return recursive{name: "cross", divide: (*worker).divideCross, sel: SelectCP}
}

func (a recursive) run(ctx context.Context, p *prepared, rho float64, prm Params) (*Result, error) {
	if prm.K < 1 || prm.Runs < 1 {
		return nil, fmt.Errorf("%s: k and runs must be >= 1, got k=%d runs=%d", a.name, prm.K, prm.Runs)
	}
	if !(rho >= 0) || math.IsInf(rho, 0) {
		return nil, fmt.Errorf("%s: ρ must be a finite number >= 0, got %v", a.name, rho)
	}
	sel := cmp.Or(prm.Select, a.sel)
	if sel != SelectCP && sel != SelectRandom && sel != SelectLargest {
		return nil, fmt.Errorf("%s: selection must be %q, %q or %q, got %q", a.name, SelectCP, SelectRandom, SelectLargest, sel)
	}
	v, err := prm.Variant.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", a.name, err)
	}
	if err := p.withReach(ctx); err != nil {
		return nil, err
	}
	w := newWorker(p, rho, prm.K, sel, a.divide)
	w.v = v
	res := &Result{}
	for r := range prm.Runs {
		w.rng = rand.New(rand.NewPCG(prm.Seed, uint64(r)))
		c, err := w.crossCL(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.name, err)
		}
		pl := p.plan(c, p.order, rho)
		res.RunTimeS = append(res.RunTimeS, pl.TimeS)
		res.RunMakespan = append(res.RunMakespan, pl.Makespan)
		if res.Best == nil || pl.TimeS < res.Best.TimeS || (pl.TimeS == res.Best.TimeS && pl.Makespan < res.Best.Makespan) {
			res.Best = pl
		}
	}
	return res, nil
}

// worker holds the scratch of one run of a recursive algorithm.
type worker struct {
	p      *prepared
	rho    float64
	k      int
	sel    Selection
	divide func(w *worker, t1, t2 int) int
	rng    *rand.Rand
	v      Variant

	// For EvalGlobal: the current clustering of the whole graph by position
	// in the eval′ order (gLab), a scratch copy with C's split (gTry), the
	// next free cluster label, and the whole graph's sequence.
	gLab, gTry   []int32
	nextLabel    int32
	full         sequence
	gStart, gEnd []float64
	gFree        []float64

	lab              []int32 // part of each task of the cluster being split; −1 elsewhere
	labPos, bestLab  []int32 // labels of a split and of the best one, by position in the cluster
	pos              []int32
	seq              sequence // the cluster's induced subgraph
	start, end, free []float64
	count            []float64 // by task, SelectLargest's scratch
	queue, cands     []int
	// The cluster C being split, and the sets DivideCluster builds in it.
	cset, a1, a2, d1, d2, ct, cb, y1, z1, y2, z2, other, tmp, tmp2, visit bitset
}

func newWorker(p *prepared, rho float64, k int, sel Selection, divide func(*worker, int, int) int) *worker {
	w := &worker{p: p, rho: rho, k: k, sel: sel, divide: divide,
		lab: make([]int32, p.n), labPos: make([]int32, p.n), bestLab: make([]int32, p.n), pos: make([]int32, p.n),
		start: make([]float64, p.n), end: make([]float64, p.n), free: make([]float64, p.n)}
	for i := range w.lab {
		w.lab[i] = -1
	}
	w.gLab, w.gTry, w.count = make([]int32, p.n), make([]int32, p.n), make([]float64, p.n)
	w.gStart, w.gEnd, w.gFree = make([]float64, p.n), make([]float64, p.n), make([]float64, 3*p.n+2)
	w.full.build(p, p.order, nil, w.pos)
	for _, b := range []*bitset{&w.cset, &w.a1, &w.a2, &w.d1, &w.d2, &w.ct, &w.cb, &w.y1, &w.z1, &w.y2, &w.z2, &w.other, &w.tmp, &w.tmp2, &w.visit} {
		*b = newBitset(p.n)
	}
	return w
}

// crossCL clusters the whole graph: CrossCL_ρ(V) of Fig. 4, run on a stack
// of clusters instead of by recursion.
func (w *worker) crossCL(ctx context.Context) (Clustering, error) {
	c := make(Clustering, w.p.n)
	stack := [][]int{slices.Clone(w.p.order)}
	next := 0
	clear(w.gLab)
	w.nextLabel = 1
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		C := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if parts := w.split(C); parts != nil {
			for _, part := range parts {
				for _, v := range part {
					w.gLab[w.p.rank[v]] = w.nextLabel
				}
				w.nextLabel++
			}
			stack = append(stack, parts...)
			continue
		}
		for _, v := range C {
			c[v] = next
		}
		next++
	}
	return c.Normalize(), nil
}

// split is one level of CrossCL_ρ(C): K selections of independent tasks,
// each divided and evaluated, the best kept (SelectBetterCluster) and
// returned if DivideOK; nil if C stays whole. C is in eval′ order and its
// parts keep that order.
func (w *worker) split(C []int) [][]int {
	if len(C) < 2 {
		return nil
	}
	w.cset.reset()
	sum := 0.0
	for _, v := range C {
		w.cset.set(v)
		sum += w.p.w[v]
	}
	first := w.firstCandidates(C)
	if len(first) == 0 {
		return nil // C is a chain: no two independent tasks
	}
	w.seq.build(w.p, C, w.cset, w.pos)
	baseTS, baseMS := w.whole(C, sum)
	bestTS, bestMS, bestN := math.Inf(1), math.Inf(1), 0
	var tried [][2]int
	for range w.k {
		t1 := first[w.rng.IntN(len(first))]
		second := w.secondCandidates(t1)
		t2 := second[w.rng.IntN(len(second))]
		if slices.Contains(tried, [2]int{t1, t2}) {
			continue // the same division again
		}
		tried = append(tried, [2]int{t1, t2})
		n := w.divide(w, t1, t2)
		for i, v := range C {
			w.labPos[i] = w.lab[v]
		}
		ts, ms, done := w.evalSplit(C, n, bestTS)
		if done && w.v.better(ts, ms, bestTS, bestMS) {
			bestTS, bestMS, bestN = ts, ms, n
			copy(w.bestLab, w.labPos[:len(C)])
		}
	}
	for _, v := range C {
		w.lab[v] = -1
	}
	if bestN == 0 || !w.v.divides(bestTS, bestMS, baseTS, baseMS, len(C)) { // DivideOK
		return nil
	}
	parts := make([][]int, bestN)
	for i, v := range C {
		parts[w.bestLab[i]] = append(parts[w.bestLab[i]], v)
	}
	return parts
}

// whole is eval′ of C kept whole, DivideOK's reference: C run
// sequentially (EvalLocal), or the current clustering of the whole graph
// (EvalGlobal).
func (w *worker) whole(C []int, sum float64) (timeS, makespan float64) {
	if w.v.Eval != EvalGlobal {
		return sum - w.p.w[C[len(C)-1]], sum
	}
	timeS, makespan, _ = w.full.greedy(w.gLab, w.rho, w.gStart, w.gEnd, w.gFree[:w.nextLabel], math.Inf(1))
	return timeS, makespan
}

// evalSplit is eval′ of the split of C into n parts labelled in labPos
// (SelectBetterCluster): on C's subgraph (EvalLocal) or on the whole graph
// with the other clusters as they are (EvalGlobal). It stops early, with
// ok false, once a start exceeds limit.
func (w *worker) evalSplit(C []int, n int, limit float64) (timeS, makespan float64, ok bool) {
	if w.v.Eval != EvalGlobal {
		return w.seq.greedy(w.labPos, w.rho, w.start, w.end, w.free[:n], limit)
	}
	copy(w.gTry, w.gLab)
	for i, v := range C {
		w.gTry[w.p.rank[v]] = w.nextLabel + w.labPos[i]
	}
	return w.full.greedy(w.gTry, w.rho, w.gStart, w.gEnd, w.gFree[:int(w.nextLabel)+n], limit)
}

// hasPartner reports a task of C independent of v.
func (w *worker) hasPartner(v int) bool {
	anc, desc := w.p.anc[v], w.p.desc[v]
	for i, c := range w.cset {
		x := c &^ anc[i] &^ desc[i]
		if i == v>>6 {
			x &^= 1 << (uint(v) & 63)
		}
		if x != 0 {
			return true
		}
	}
	return false
}

// firstCandidates are the tasks task1 is drawn from.
func (w *worker) firstCandidates(C []int) []int {
	w.cands = w.cands[:0]
	if w.sel == SelectRandom {
		for _, v := range C {
			if w.hasPartner(v) {
				w.cands = append(w.cands, v)
			}
		}
		return slices.Clone(w.cands)
	}
	byCP := slices.Clone(C)
	cp := w.p.cp
	if w.sel == SelectLargest {
		cp = w.descIn(C, nil)
	}
	slices.SortFunc(byCP, func(a, b int) int { return cmp.Or(cmp.Compare(cp[b], cp[a]), cmp.Compare(a, b)) })
	for i := 0; i < len(byCP) && len(w.cands) == 0; {
		j := i
		for ; j < len(byCP) && cp[byCP[j]] == cp[byCP[i]]; j++ {
			if w.hasPartner(byCP[j]) {
				w.cands = append(w.cands, byCP[j])
			}
		}
		i = j
	}
	return slices.Clone(w.cands)
}

// secondCandidates are the tasks task2 is drawn from, given task1.
func (w *worker) secondCandidates(t1 int) []int {
	w.tmp.andNot(w.cset, w.p.anc[t1])
	w.tmp.remove(w.p.desc[t1])
	w.tmp.unset(t1)
	w.cands = w.tmp.members(w.cands[:0])
	key := w.p.cp
	switch w.sel {
	case SelectRandom:
		return w.cands
	case SelectLargest:
		key = w.descIn(w.cands, w.p.desc[t1])
	}
	best := math.Inf(-1)
	for _, v := range w.cands {
		best = max(best, key[v])
	}
	w.cands = slices.DeleteFunc(w.cands, func(v int) bool { return key[v] != best })
	return w.cands
}

// descIn counts, for each task v of vs, its descendants in the cluster
// that are not in except (nil: none), by task index.
func (w *worker) descIn(vs []int, except bitset) []float64 {
	clear(w.count)
	for _, v := range vs {
		n := 0
		for i, d := range w.p.desc[v] {
			x := d & w.cset[i]
			if except != nil {
				x &^= except[i]
			}
			n += bits.OnesCount64(x)
		}
		w.count[v] = float64(n)
	}
	return w.count
}

// divideCross is DivideCluster(C, task1, task2) of §5.1.1 (Fig. 5): C1 is
// task1 with its ancestors Y1 and descendants Z1 that are not ancestors or
// descendants of task2, C2 likewise, C_T the common ancestors, C_B the
// common descendants, C_other the tasks independent of both. Where a task
// of C_other lies between Y1 and Z1 (y ≺ x ≺ z), the offending tasks of Y1
// move to C_T or those of Z1 to C_B, whichever are fewer (Y1 on a tie), and
// the same for C2. C_T, C_B and C_other are split into their mutually
// independent parts. It labels the tasks of C and returns the number of
// parts.
func (w *worker) divideCross(t1, t2 int) int {
	p := w.p
	w.a1.and(p.anc[t1], w.cset)
	w.a2.and(p.anc[t2], w.cset)
	w.d1.and(p.desc[t1], w.cset)
	w.d2.and(p.desc[t2], w.cset)
	w.ct.and(w.a1, w.a2)
	w.cb.and(w.d1, w.d2)
	w.y1.andNot(w.a1, w.a2)
	w.z1.andNot(w.d1, w.d2)
	w.y2.andNot(w.a2, w.a1)
	w.z2.andNot(w.d2, w.d1)
	for i := range w.other {
		w.other[i] = w.cset[i] &^ (w.a1[i] | w.a2[i] | w.d1[i] | w.d2[i])
	}
	w.other.unset(t1)
	w.other.unset(t2)
	w.untangle(w.y1, w.z1)
	w.untangle(w.y2, w.z2)
	w.labelSet(w.y1, 0)
	w.labelSet(w.z1, 0)
	w.lab[t1] = 0
	w.labelSet(w.y2, 1)
	w.labelSet(w.z2, 1)
	w.lab[t2] = 1
	n := w.components(w.ct, 2)
	n = w.components(w.cb, n)
	if w.v.Other == OtherWhole {
		return w.whole1(w.other, n)
	}
	return w.components(w.other, n)
}

// untangle removes the violations of Definition 3 between C1 = Y ∪ {task}
// ∪ Z and C_other: the tasks of Y that precede a task of C_other that
// precedes a task of Z move to C_T, or those of Z that follow such a chain
// move to C_B, whichever are fewer.
func (w *worker) untangle(y, z bitset) {
	p := w.p
	xs, yv := w.tmp, w.tmp2
	xs.reset()
	for _, x := range w.other.members(w.queue[:0]) {
		if p.desc[x].intersects(z) {
			xs.set(x) // x ≺ some z
		}
	}
	yv.reset()
	nyv := 0
	for _, v := range y.members(w.queue[:0]) {
		if p.desc[v].intersects(xs) {
			yv.set(v)
			nyv++
		}
	}
	if nyv == 0 {
		return
	}
	xs.reset()
	for _, x := range w.other.members(w.queue[:0]) {
		if p.anc[x].intersects(y) {
			xs.set(x) // some y ≺ x
		}
	}
	zv := w.visit
	zv.reset()
	nzv := 0
	for _, v := range z.members(w.queue[:0]) {
		if p.anc[v].intersects(xs) {
			zv.set(v)
			nzv++
		}
	}
	if w.v.moveY(nyv, nzv) {
		y.remove(yv)
		w.ct.or(yv)
	} else {
		z.remove(zv)
		w.cb.or(zv)
	}
}

// divideConvex is the division of Convex-A: C1 is task1 with its
// descendants that do not follow task2, C2 likewise, C_B the common
// descendants, and the rest (ancestors of either task and tasks
// independent of both) stays together; C_B and the rest are split into
// their mutually independent parts.
func (w *worker) divideConvex(t1, t2 int) int {
	p := w.p
	w.d1.and(p.desc[t1], w.cset)
	w.d2.and(p.desc[t2], w.cset)
	w.z1.andNot(w.d1, w.d2)
	w.z2.andNot(w.d2, w.d1)
	w.cb.and(w.d1, w.d2)
	for i := range w.other {
		w.other[i] = w.cset[i] &^ (w.d1[i] | w.d2[i])
	}
	w.other.unset(t1)
	w.other.unset(t2)
	w.labelSet(w.z1, 0)
	w.lab[t1] = 0
	w.labelSet(w.z2, 1)
	w.lab[t2] = 1
	n := w.components(w.cb, 2)
	return w.components(w.other, n)
}

// whole1 labels the tasks of s, if any, with next as one part and returns
// the next free label.
func (w *worker) whole1(s bitset, next int) int {
	if s.first() < 0 {
		return next
	}
	w.labelSet(s, int32(next))
	return next + 1
}

func (w *worker) labelSet(b bitset, l int32) {
	for _, v := range b.members(w.queue[:0]) {
		w.lab[v] = l
	}
}

// components labels the maximal mutually independent parts of s (the
// connected components of the relation "x ≺ y or y ≺ x" within s) with
// next, next+1, … and returns the next free label.
func (w *worker) components(s bitset, next int) int {
	p := w.p
	copy(w.visit, s)
	for {
		v := w.visit.first()
		if v < 0 {
			return next
		}
		w.visit.unset(v)
		queue := append(w.queue[:0], v)
		for qi := 0; qi < len(queue); qi++ {
			u := queue[qi]
			w.lab[u] = int32(next)
			anc, desc := p.anc[u], p.desc[u]
			for i, unseen := range w.visit {
				if x := unseen & (anc[i] | desc[i]); x != 0 {
					w.visit[i] &^= x
					queue = bitset{x}.membersAt(queue, i)
				}
			}
		}
		w.queue = queue
		next++
	}
}

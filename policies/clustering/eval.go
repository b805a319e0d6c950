package clustering

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Plan is a clustering and the schedule derived from it: each task's
// start time, the paper's time(S) (the latest start, §2) and the makespan
// (the latest finish).
type Plan struct {
	Clustering Clustering
	// Order is the topological order in which the start times were fixed;
	// it gives the order of the tasks of each cluster.
	Order    []int
	Start    []float64
	TimeS    float64
	Makespan float64
}

// EvalPrime is eval′ of paper 002 §5.1.3: the tasks are taken in a
// topological order (by level s, then by decreasing f, then by index) and
// each starts as soon as its cluster's processor is free and the data of
// its predecessors are there (ρ after they end if on another cluster).
// The plan's TimeS is eval′(R).
func EvalPrime(g *models.DAG, c Clustering, rho float64) (*Plan, error) {
	p, err := prepare(g)
	if err != nil {
		return nil, err
	}
	if err := c.check(p.n); err != nil {
		return nil, err
	}
	return p.plan(c.Normalize(), p.order, rho), nil
}

// plan derives the greedy schedule of a normalized clustering in a
// topological order.
func (p *prepared) plan(c Clustering, order []int, rho float64) *Plan {
	var sq sequence
	sq.build(p, order, nil, make([]int32, p.n))
	label := make([]int32, len(order))
	for i, v := range order {
		label[i] = int32(c[v])
	}
	start, end := make([]float64, len(order)), make([]float64, len(order))
	pl := &Plan{Clustering: c, Order: order, Start: make([]float64, p.n)}
	pl.TimeS, pl.Makespan, _ = sq.greedy(label, rho, start, end, make([]float64, c.NumClusters()), math.Inf(1))
	for i, v := range order {
		pl.Start[v] = start[i]
	}
	return pl
}

// sequence is a list of tasks in topological order packed for eval′: task
// i of the list has weight w[i] and predecessors pred[off[i]:off[i+1]]
// (positions in the list).
type sequence struct {
	w         []float64
	off, pred []int32
}

// build packs order; if within is not nil, only predecessors in it count
// (the subgraph a cluster induces). pos is scratch of one entry per task.
func (sq *sequence) build(p *prepared, order []int, within bitset, pos []int32) {
	for i, v := range order {
		pos[v] = int32(i)
	}
	sq.w, sq.off, sq.pred = sq.w[:0], append(sq.off[:0], 0), sq.pred[:0]
	for _, v := range order {
		sq.w = append(sq.w, p.w[v])
		for _, u := range p.preds[v] {
			if within == nil || within.has(u) {
				sq.pred = append(sq.pred, pos[u])
			}
		}
		sq.off = append(sq.off, int32(len(sq.pred)))
	}
}

// greedy is eval′ on the sequence: each task in turn starts on its cluster
// label[i] as soon as the cluster's previous task has ended and the data of
// its predecessors are there (ρ after they end if on another cluster). It
// returns time(S) and the makespan, or stops with ok false as soon as a
// start exceeds limit. start, end (by position) and free (by cluster,
// zeroed here) are scratch the caller owns.
func (sq *sequence) greedy(label []int32, rho float64, start, end, free []float64, limit float64) (timeS, makespan float64, ok bool) {
	clear(free)
	for i, w := range sq.w {
		l := label[i]
		st := free[l]
		for _, u := range sq.pred[sq.off[i]:sq.off[i+1]] {
			at := end[u]
			if label[u] != l {
				at += rho
			}
			if at > st {
				st = at
			}
		}
		if st > limit {
			return 0, 0, false
		}
		e := st + w
		start[i], end[i] = st, e
		free[l] = e
		timeS, makespan = max(timeS, st), max(makespan, e)
	}
	return timeS, makespan, true
}

// Schedule turns the plan into a schedule for the delay platform: one
// compute action per task (Amount its weight, Label its name) on processor
// Clustering[task], at its planned start and end, after the actions of its
// predecessors. Actions are listed in the plan's Order, so each
// processor's tasks appear in the order they run (what ordered replay
// keeps). Claimed is the makespan; Metrics hold time_S (the paper's
// measure), makespan and clusters.
func (pl *Plan) Schedule(g *models.DAG, policy string) *sim.Schedule {
	return pl.schedule(g, policy, nil)
}

// schedule is Schedule built in the memory of recycle (sim.Recycled), with
// the actions' times and After lists in one array each.
func (pl *Plan) schedule(g *models.DAG, policy string, recycle *sim.Schedule) *sim.Schedule {
	n := len(g.Tasks)
	preds := g.Preds()
	s := sim.Recycled(recycle, n)
	action := s.Ints(n + len(g.Edges))[:n] // then every After list
	for i, v := range pl.Order {
		action[v] = i
	}
	times := s.Floats(2 * n)[:0]
	s.Policy, s.Claimed = policy, pl.Makespan
	s.Metrics = map[string]float64{
		"time_S": pl.TimeS, "makespan": pl.Makespan, "clusters": float64(pl.Clustering.NumClusters()),
	}
	for _, v := range pl.Order {
		from := len(action)
		for _, u := range preds[v] {
			action = append(action, action[u])
		}
		w := g.Tasks[v].Weight
		times = append(times, pl.Start[v], pl.Start[v]+w)
		s.Add(sim.Action{Kind: sim.Compute, Node: pl.Clustering[v], Amount: w, Label: g.TaskName(v),
			Start: &times[len(times)-2], End: &times[len(times)-1], After: action[from:len(action):len(action)]})
	}
	return s
}

// String summarises the plan.
func (pl *Plan) String() string {
	return fmt.Sprintf("%d clusters, time(S) %g, makespan %g", pl.Clustering.NumClusters(), pl.TimeS, pl.Makespan)
}

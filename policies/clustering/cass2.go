package clustering

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/models"
)

// CASS2 runs CASS-II, the clustering of Liou and Palis ("A new heuristic
// for scheduling parallel programs on multiprocessor", PACT 1998) that
// paper 002 §5.2.2 compares with, on the delay platform (every edge costs
// ρ between clusters, nothing inside one).
//
// Its first step computes s(v), the longest path from an entry task to v
// with every edge's delay (v excluded). The second clusters bottom-up: a
// task is free once all its successors are clustered; its f(v) is the
// longest path from v to an exit task in the current clustering, v
// included. Among the free tasks, the one with the largest s(v) + f(v) is
// taken; it joins, as the new first task, the cluster of its dominant
// successor (the one with the largest ρ + f) if that does not increase
// f(v), and otherwise starts a cluster of its own (with JoinTop, only if
// that successor is the cluster's first task). Each cluster is a chain in
// the order its tasks joined, but with the default JoinAny not always a
// path of the graph: a task may join before a first task it does not
// precede. The schedule runs each cluster's tasks in that order, as early
// as the data allow. Deterministic: ties go to the smaller task index.
func CASS2(g *models.DAG, rho float64) (*Plan, error) {
	return CASS2With(g, rho, CASSParams{})
}

// CASSParams picks among readings of CASS-II. Join says which clusters a
// task may join: JoinAny (default; also what H. Kanemitsu's independent
// Java implementation of CASS-II does) the cluster of its dominant
// successor wherever that successor lies in it; JoinTop only if the
// dominant successor is the cluster's current first task, so that every
// cluster is a path of the graph.
type CASSParams struct{ Join string }

// The values of CASSParams.Join.
const (
	JoinAny = "any"
	JoinTop = "top"
)

// CASS2With runs CASS-II with the given reading (see CASS2).
func CASS2With(g *models.DAG, rho float64, prm CASSParams) (*Plan, error) {
	p, err := prepare(g)
	if err != nil {
		return nil, err
	}
	return p.cass2Checked(rho, prm)
}

func (p *prepared) cass2Checked(rho float64, prm CASSParams) (*Plan, error) {
	if !(rho >= 0) || math.IsInf(rho, 0) {
		return nil, fmt.Errorf("cass2: ρ must be a finite number >= 0, got %v", rho)
	}
	if prm.Join == "" {
		prm.Join = JoinAny
	}
	if prm.Join != JoinAny && prm.Join != JoinTop {
		return nil, fmt.Errorf("cass2: join must be %q or %q, got %q", JoinAny, JoinTop, prm.Join)
	}
	return p.cass2(rho, prm.Join == JoinTop), nil
}

func (p *prepared) cass2(rho float64, topOnly bool) *Plan {
	n := p.n
	s := make([]float64, n) // top levels with every delay
	for _, v := range p.order {
		for _, u := range p.preds[v] {
			s[v] = max(s[v], s[u]+p.w[u]+rho)
		}
	}
	f := make([]float64, n)
	cluster := make([]int, n) // cluster id = index of its first-examined (bottom) task
	top := make([]int, n)     // current first task of each cluster, by id
	left := make([]int, n)    // successors not yet examined
	q := heapq.New(higher)
	for v := range n {
		left[v] = len(p.succs[v])
		if left[v] == 0 {
			f[v] = p.w[v]
			q.Push(prio{v, s[v] + f[v]})
		}
	}
	examined := make([]int, 0, n)
	for q.Len() > 0 {
		v := q.Pop().task
		examined = append(examined, v)
		cluster[v], top[v] = v, v
		if d := p.dominantSuccessor(v, f, rho); d >= 0 && (!topOnly || top[cluster[d]] == d) {
			c := cluster[d]
			joined := p.w[v] + f[top[c]]
			for _, u := range p.succs[v] {
				if cluster[u] != c {
					joined = max(joined, p.w[v]+rho+f[u])
				}
			}
			if joined <= f[v] {
				cluster[v], f[v], top[c] = c, joined, v
			}
		}
		for _, u := range p.preds[v] {
			if left[u]--; left[u] == 0 {
				for _, x := range p.succs[u] {
					f[u] = max(f[u], p.w[u]+rho+f[x])
				}
				q.Push(prio{u, s[u] + f[u]})
			}
		}
	}
	slices.Reverse(examined) // each cluster's tasks in chain order, all in topological order
	return p.plan(Clustering(cluster).Normalize(), examined, rho)
}

// dominantSuccessor is the successor u of v with the largest ρ + f(u)
// (ties: smaller index), or −1 for an exit task; f(v) is set to
// w(v) + ρ + f(u), the length of v's longest path while it is alone.
func (p *prepared) dominantSuccessor(v int, f []float64, rho float64) int {
	d := -1
	for _, u := range p.succs[v] {
		if d < 0 || f[u] > f[d] || (f[u] == f[d] && u < d) {
			d = u
		}
	}
	if d >= 0 {
		f[v] = p.w[v] + rho + f[d]
	}
	return d
}

// prio is a task and its priority in a heap ordered by higher.
type prio struct {
	task int
	key  float64
}

// higher orders a heap of tasks (heapq.Heap[prio]) by key, highest first,
// ties to the smaller task.
func higher(a, b prio) bool {
	return a.key > b.key || (a.key == b.key && a.task < b.task)
}

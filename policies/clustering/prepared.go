package clustering

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
)

// prepared is a task graph with what every algorithm of the package reads:
// adjacency, the levels of paper 002 §2, a fixed topological order, and
// the precedence relation ≺ as reachability bitsets. It does not depend on
// ρ, so one serves every delay.
type prepared struct {
	g            *models.DAG
	n            int
	w            []float64
	preds, succs [][]int
	// s, f and cp are the levels of §2, weighted: s(x) is the heaviest path
	// from an entry task to x without x, f(x) from x to an exit task
	// without x, and CP(x) = s(x) + w(x) + f(x). With unit tasks they count
	// tasks as in the paper.
	s, f, cp []float64
	// order is the topological order of eval′ (§5.1.3): by s, then by
	// decreasing f, then by index; rank is the position in it.
	order, rank []int
	// anc[x] and desc[x] are the tasks y with y ≺ x and x ≺ y (strict);
	// nil until withReach.
	anc, desc []bitset
	total     float64 // Σ w, the time of sequential execution
}

// prepare checks g and computes its levels, order and reachability.
func prepare(g *models.DAG) (*prepared, error) {
	if g == nil {
		return nil, fmt.Errorf("clustering: no task graph")
	}
	if !wellFormed(g) {
		return nil, g.Validate("dag") // names the offending field
	}
	topo, err := g.TopoOrder()
	if err != nil {
		return nil, g.Validate("dag")
	}
	n := len(g.Tasks)
	p := &prepared{g: g, n: n, w: make([]float64, n), preds: g.Preds(), succs: g.Succs(),
		s: make([]float64, n), f: make([]float64, n), cp: make([]float64, n), rank: make([]int, n)}
	for i, t := range g.Tasks {
		p.w[i] = t.Weight
		p.total += t.Weight
	}
	for _, v := range topo {
		for _, u := range p.preds[v] {
			p.s[v] = max(p.s[v], p.s[u]+p.w[u])
		}
	}
	for i := n - 1; i >= 0; i-- {
		v := topo[i]
		for _, u := range p.succs[v] {
			p.f[v] = max(p.f[v], p.f[u]+p.w[u])
		}
		p.cp[v] = p.s[v] + p.w[v] + p.f[v]
	}
	p.order = slices.Clone(topo)
	slices.SortFunc(p.order, func(a, b int) int {
		return cmp.Or(cmp.Compare(p.s[a], p.s[b]), cmp.Compare(p.f[b], p.f[a]), cmp.Compare(a, b))
	})
	p.fixZeroWeightOrder(topo)
	for i, v := range p.order {
		p.rank[v] = i
	}
	return p, nil
}

// wellFormed is the quick part of DAG.Validate: tasks, weights and edge
// ends (DAG.Validate builds a field path for every edge, which costs more
// than the algorithms on dense graphs).
func wellFormed(g *models.DAG) bool {
	if len(g.Tasks) == 0 {
		return false
	}
	for _, t := range g.Tasks {
		if !(t.Weight >= 0) || math.IsInf(t.Weight, 0) {
			return false
		}
	}
	for _, e := range g.Edges {
		if e.From < 0 || e.From >= len(g.Tasks) || e.To < 0 || e.To >= len(g.Tasks) || !(e.Data >= 0) || math.IsInf(e.Data, 0) {
			return false
		}
	}
	return true
}

// reachCheckEvery is how many tasks withReach handles between two checks
// of its context: a task costs a few bitset unions of n bits, so on 45,000
// tasks the context is checked every few milliseconds.
const reachCheckEvery = 256

// withReach computes the reachability bitsets anc and desc, once; the
// levels and orders alone do not need them. Not safe for concurrent use
// until it has returned once. When ctx is done first it returns ctx.Err()
// and leaves them unset.
func (p *prepared) withReach(ctx context.Context) error {
	if p.anc != nil {
		return nil
	}
	n := p.n
	topo := p.order
	anc, desc := make([]bitset, n), make([]bitset, n)
	for i := range n {
		if i%reachCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		anc[i], desc[i] = newBitset(n), newBitset(n)
	}
	for i := n - 1; i >= 0; i-- {
		if i%reachCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		v := topo[i]
		for _, u := range p.succs[v] {
			desc[v].set(u)
			desc[v].or(desc[u])
		}
	}
	for i, v := range topo {
		if i%reachCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for _, u := range p.preds[v] {
			anc[v].set(u)
			anc[v].or(anc[u])
		}
	}
	p.anc, p.desc = anc, desc
	return nil
}

// fixZeroWeightOrder falls back to Kahn's order if sorting by s is not
// topological, which happens only when a task of weight 0 has a successor
// at the same level s.
func (p *prepared) fixZeroWeightOrder(topo []int) {
	pos := make([]int, p.n)
	for i, v := range p.order {
		pos[v] = i
	}
	for v := range p.n {
		for _, u := range p.succs[v] {
			if pos[u] < pos[v] {
				p.order = slices.Clone(topo)
				return
			}
		}
	}
}

package bound

import (
	"context"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// cutFigures are the figures of every branch that take the pairs of
// participants across or within its cut, for all branches at once. Pair by
// pair, branch by branch, they cost the cube of the tree's size (40 s on a
// random tree of 1,024 participants); here each comes from one walk of the
// tree per node, in time that grows with the square.
type cutFigures struct {
	// Per direction x→w, aligned with the participants beyond it in node
	// order: for a participant p, far is the most cost[p][q] and in the
	// least cost[q][p] over the other participants q beyond (−Inf and +Inf
	// when there is none).
	far, in [][]float64
	// Per direction x→w: over the routes from a participant outside the
	// branch to one in it, the greatest and the least bandwidth (0 and +Inf
	// when there is none).
	inRate, inMin []float64
}

// newCutFigures computes the cut figures; it checks ctx between walks.
func newCutFigures(ctx context.Context, nw *treenet.Network, dirs int) (*cutFigures, error) {
	cf := &cutFigures{far: make([][]float64, dirs), in: make([][]float64, dirs),
		inRate: make([]float64, dirs), inMin: make([]float64, dirs)}
	maxTo, minTo := make([]float64, dirs), make([]float64, dirs)     // per x→w: over participants on x's side, of the rate of their route to x
	maxFrom, minFrom := make([]float64, dirs), make([]float64, dirs) // per x→w: over participants beyond, of the rate of w's route to them
	var t eulerTour
	for x := range nw.N {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t.walk(nw, x)
		if nw.Rank[x] >= 0 {
			cf.addPairs(nw, &t, x)
		}
		// The rates of the routes to x and from x (x itself, +Inf, counts),
		// over the participants on x's side of the edge to each child.
		to, from := &t.spans[2], &t.spans[3]
		to.fill(nw, &t, -1, func(i int) float64 { return t.rateTo[i] })
		from.fill(nw, &t, -1, func(i int) float64 { return t.rateFrom[i] })
		for _, c := range t.children {
			down, up := dirID(t.hop[c].Link), dirID(reverse(t.hop[c].Link)) // x→c, c→x
			maxTo[down], minTo[down] = to.outside(&t, c)
			maxFrom[up], minFrom[up] = from.outside(&t, c)
		}
	}
	for id := range dirs {
		cf.inRate[id], cf.inMin[id] = 0, math.Inf(1)
		if math.IsInf(maxTo[id], -1) || math.IsInf(maxFrom[id], -1) {
			continue // no pair across the cut
		}
		bw := nw.Routes.Bandwidth(linkOf(id))
		cf.inRate[id] = min(maxTo[id], bw, maxFrom[id])
		cf.inMin[id] = min(minTo[id], bw, minFrom[id])
	}
	return cf, nil
}

// addPairs appends participant x's far and in figures to every direction
// whose branch holds x: rooted at x, those are z→w for every node z and its
// parent w, and the branch is every node but z's subtree.
func (cf *cutFigures) addPairs(nw *treenet.Network, t *eulerTour, x int) {
	far, in := &t.spans[0], &t.spans[1]
	far.fill(nw, t, x, func(i int) float64 { return nw.Cost[x][t.order[i]] })
	in.fill(nw, t, x, func(i int) float64 { return nw.Cost[t.order[i]][x] })
	for _, z := range t.order[1:] {
		id := dirID(reverse(t.hop[z].Link))
		hi, _ := far.outside(t, z)
		_, lo := in.outside(t, z)
		cf.far[id] = append(cf.far[id], hi)
		cf.in[id] = append(cf.in[id], lo)
	}
}

// eulerTour is the tree rooted at one node in depth-first order: the
// subtree of a node is a run of the order. Its slices are reused from walk
// to walk.
type eulerTour struct {
	order    []int        // nodes, depth first
	pos, end []int        // per node: its place in order, and the end of its subtree's run
	hop      []models.Hop // per node: the hop from its parent to it
	children []int        // the root's
	rateFrom []float64    // per place: the least bandwidth on the route from the root
	rateTo   []float64    // per place: the least bandwidth on the route to the root
	spans    [4]span      // scratch of newCutFigures
}

// walk roots the tour at x.
func (t *eulerTour) walk(nw *treenet.Network, x int) {
	t.order, t.children = t.order[:0], t.children[:0]
	t.rateFrom, t.rateTo = t.rateFrom[:0], t.rateTo[:0]
	if len(t.pos) != nw.N {
		t.pos, t.end, t.hop = make([]int, nw.N), make([]int, nw.N), make([]models.Hop, nw.N)
	}
	var visit func(u, prev int, from, to float64)
	visit = func(u, prev int, from, to float64) {
		t.pos[u] = len(t.order)
		t.order = append(t.order, u)
		t.rateFrom, t.rateTo = append(t.rateFrom, from), append(t.rateTo, to)
		for _, h := range nw.Adj[u] {
			if h.To == prev {
				continue
			}
			if u == x {
				t.children = append(t.children, h.To)
			}
			t.hop[h.To] = h
			visit(h.To, u, min(from, nw.Routes.Bandwidth(h.Link)), min(to, nw.Routes.Bandwidth(reverse(h.Link))))
		}
		t.end[u] = len(t.order)
	}
	visit(x, -1, math.Inf(1), math.Inf(1))
}

// span is the greatest and least of a figure over runs of a tour's order:
// hi[i], lo[i] over the places before i, hiAfter[i], loAfter[i] over those
// from i on.
type span struct{ hi, lo, hiAfter, loAfter []float64 }

// fill computes the span of f over the places held by a participant other
// than skip (−Inf and +Inf over runs without one).
func (sp *span) fill(nw *treenet.Network, t *eulerTour, skip int, f func(i int) float64) {
	n := len(t.order)
	grow := func(b []float64) []float64 { return slices.Grow(b[:0], n+1)[:n+1] }
	sp.hi, sp.lo, sp.hiAfter, sp.loAfter = grow(sp.hi), grow(sp.lo), grow(sp.hiAfter), grow(sp.loAfter)
	sp.hi[0], sp.lo[0], sp.hiAfter[n], sp.loAfter[n] = math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1)
	for i, u := range t.order {
		sp.hi[i+1], sp.lo[i+1] = sp.hi[i], sp.lo[i]
		if u != skip && nw.Rank[u] >= 0 {
			v := f(i)
			sp.hi[i+1], sp.lo[i+1] = max(sp.hi[i], v), min(sp.lo[i], v)
		}
	}
	for i := n - 1; i >= 0; i-- {
		sp.hiAfter[i], sp.loAfter[i] = sp.hiAfter[i+1], sp.loAfter[i+1]
		if u := t.order[i]; u != skip && nw.Rank[u] >= 0 {
			v := f(i)
			sp.hiAfter[i], sp.loAfter[i] = max(sp.hiAfter[i+1], v), min(sp.loAfter[i+1], v)
		}
	}
}

// outside returns the greatest and the least of the span's figure over the
// places outside z's subtree.
func (sp *span) outside(t *eulerTour, z int) (hi, lo float64) {
	a, b := t.pos[z], t.end[z]
	return max(sp.hi[a], sp.hiAfter[b]), min(sp.lo[a], sp.loAfter[b])
}

// Package openshop schedules preemptively the edges of a bipartite
// multigraph in [0, T] so that no node has two edges at once, whenever no
// node's edges add up to more than T: the preemptive open shop (Gonzalez
// and Sahni, 1976), or the real-weighted form of König's edge-colouring
// theorem.
//
// Schedule pads the graph with idle edges until every node's edges add up
// to exactly T, then splits it into weighted perfect matchings (the
// Birkhoff–von Neumann decomposition): while edges remain, a perfect
// matching of the edges left exists (Hall's condition holds in a regular
// bipartite graph), and it is run for the least weight among its edges,
// which removes that edge. A matching is repaired by augmenting paths
// after each step rather than found anew, so E edges take O(E²) time.
package openshop

import (
	"fmt"
	"math"
)

// Edge is an edge from left node L to right node R that takes W of time.
type Edge struct {
	L, R int
	W    float64
}

// Piece is a time [Start, End] during which Edge runs (an index into the
// edges given to Schedule).
type Piece struct {
	Edge       int
	Start, End float64
}

// idle marks a padding edge.
const idle = -1

// Schedule runs every edge of a bipartite graph of nl left and nr right
// nodes for its weight within [0, T], no node on two edges at once, and
// returns the pieces by start, each edge's pieces adding up to its weight
// (to rounding). It fails when a node's edges add up to more than T
// (beyond a relative 1e-12).
func Schedule(nl, nr int, edges []Edge, T float64) ([]Piece, error) {
	g, err := newGraph(nl, nr, edges, T)
	if err != nil {
		return nil, err
	}
	return g.decompose(), nil
}

// graph is the padded graph being decomposed.
type graph struct {
	n     int     // nodes per side
	e     []Edge  // the edges given, then the padding
	orig  []int   // per edge, its index in the caller's edges, or idle
	adj   [][]int // per left node, its edges
	mateL []int   // per left node, its matched edge or −1
	mateR []int   // per right node, its matched edge or −1
	eps   float64 // weights at most this are gone
}

func newGraph(nl, nr int, edges []Edge, T float64) (*graph, error) {
	n := max(nl, nr)
	dl, dr := make([]float64, n), make([]float64, n)
	for k, e := range edges {
		if e.L < 0 || e.L >= nl || e.R < 0 || e.R >= nr || !(e.W >= 0) || math.IsInf(e.W, 0) {
			return nil, fmt.Errorf("openshop: edge %d (%d→%d, %g) out of range", k, e.L, e.R, e.W)
		}
		dl[e.L] += e.W
		dr[e.R] += e.W
	}
	g := &graph{n: n, eps: 1e-12 * T}
	for i := range n {
		if dl[i] > T*(1+1e-12) || dr[i] > T*(1+1e-12) {
			return nil, fmt.Errorf("openshop: a node's edges take %g, more than %g", max(dl[i], dr[i]), T)
		}
	}
	for k, e := range edges {
		if e.W > g.eps {
			g.e, g.orig = append(g.e, e), append(g.orig, k)
		}
	}
	// Idle edges between the nodes short of T, left and right in order
	// (the north-west corner rule), so that every node totals T.
	for i := range n {
		dl[i], dr[i] = max(0, T-dl[i]), max(0, T-dr[i])
	}
	for i, j := 0, 0; i < n && j < n; {
		w := min(dl[i], dr[j])
		if w > g.eps {
			g.e, g.orig = append(g.e, Edge{L: i, R: j, W: w}), append(g.orig, idle)
		}
		dl[i] -= w
		dr[j] -= w
		if dl[i] <= g.eps {
			i++
		} else {
			j++
		}
	}
	g.adj = make([][]int, n)
	for k, e := range g.e {
		g.adj[e.L] = append(g.adj[e.L], k)
	}
	g.mateL, g.mateR = make([]int, n), make([]int, n)
	for i := range n {
		g.mateL[i], g.mateR[i] = -1, -1
	}
	return g, nil
}

// decompose runs matchings until no caller's edge is left.
func (g *graph) decompose() []Piece {
	var out []Piece
	open := map[int]int{} // caller's edge → its piece that ends now
	t := 0.0
	for g.realLeft() {
		g.match()
		delta := math.Inf(1)
		for _, k := range g.mateL {
			if k >= 0 {
				delta = min(delta, g.e[k].W)
			}
		}
		if math.IsInf(delta, 1) {
			break // no edge can run: only rounding is left
		}
		next := map[int]int{}
		for _, k := range g.mateL {
			if k < 0 || g.orig[k] == idle {
				continue
			}
			if p, ok := open[g.orig[k]]; ok {
				out[p].End = t + delta
				next[g.orig[k]] = p
			} else {
				next[g.orig[k]] = len(out)
				out = append(out, Piece{Edge: g.orig[k], Start: t, End: t + delta})
			}
		}
		open = next
		t += delta
		for i, k := range g.mateL {
			if k < 0 {
				continue
			}
			if g.e[k].W -= delta; g.e[k].W <= g.eps {
				g.e[k].W = 0
				g.mateL[i], g.mateR[g.e[k].R] = -1, -1
			}
		}
	}
	return out
}

// realLeft reports whether a caller's edge has weight left.
func (g *graph) realLeft() bool {
	for k, e := range g.e {
		if g.orig[k] != idle && e.W > g.eps {
			return true
		}
	}
	return false
}

// match grows the matching by augmenting paths (breadth first) from
// every unmatched left node, over edges with weight left: a maximum
// matching, perfect while the weights left are a regular graph's.
func (g *graph) match() {
	for s := range g.n {
		if g.mateL[s] < 0 {
			g.augment(s)
		}
	}
}

// augment searches an augmenting path from unmatched left node s and
// flips it; it reports whether it found one.
func (g *graph) augment(s int) bool {
	via := make([]int, g.n) // per right node, the edge it was reached by, or −1
	for j := range via {
		via[j] = -1
	}
	queue := []int{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, k := range g.adj[u] {
			e := g.e[k]
			if e.W <= g.eps || via[e.R] >= 0 || k == g.mateL[u] {
				continue
			}
			via[e.R] = k
			if g.mateR[e.R] < 0 {
				g.flip(e.R, via)
				return true
			}
			queue = append(queue, g.e[g.mateR[e.R]].L)
		}
	}
	return false
}

// flip matches the path that ends at free right node r.
func (g *graph) flip(r int, via []int) {
	for r >= 0 {
		k := via[r]
		l := g.e[k].L
		prev := g.mateL[l]
		g.mateL[l], g.mateR[r] = k, k
		r = -1
		if prev >= 0 {
			r = g.e[prev].R
		}
	}
}

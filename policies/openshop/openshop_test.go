package openshop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// check verifies a schedule: within [0, T], no node on two pieces at
// once, every edge run for its weight.
func check(t *testing.T, nl, nr int, edges []Edge, T float64, ps []Piece) {
	t.Helper()
	tol := 1e-9 * T
	ran := make([]float64, len(edges))
	type use struct{ s, e float64 }
	left, right := make([][]use, nl), make([][]use, nr)
	for _, p := range ps {
		if p.Start < -tol || p.End > T+tol || p.End < p.Start {
			t.Fatalf("piece %+v outside [0, %g]", p, T)
		}
		ran[p.Edge] += p.End - p.Start
		e := edges[p.Edge]
		left[e.L] = append(left[e.L], use{p.Start, p.End})
		right[e.R] = append(right[e.R], use{p.Start, p.End})
	}
	for k, e := range edges {
		if math.Abs(ran[k]-e.W) > tol {
			t.Errorf("edge %d ran %g of %g", k, ran[k], e.W)
		}
	}
	for _, side := range [][][]use{left, right} {
		for n, us := range side {
			slices.SortFunc(us, func(a, b use) int { return int(math.Copysign(1, a.s-b.s)) })
			for k := 1; k < len(us); k++ {
				if us[k].s < us[k-1].e-tol {
					t.Errorf("node %d runs two edges at once: %v and %v", n, us[k-1], us[k])
				}
			}
		}
	}
}

// TestSchedule schedules random bipartite multigraphs scaled so that the
// busiest node takes exactly T, and checks each schedule.
func TestSchedule(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 300 {
		nl, nr := 1+r.IntN(9), 1+r.IntN(9)
		var edges []Edge
		for range r.IntN(40) {
			edges = append(edges, Edge{L: r.IntN(nl), R: r.IntN(nr), W: r.Float64()})
		}
		dl, dr := make([]float64, nl), make([]float64, nr)
		for _, e := range edges {
			dl[e.L] += e.W
			dr[e.R] += e.W
		}
		T := max(slices.Max(dl), slices.Max(dr))
		if k%2 == 0 {
			T *= 1 + r.Float64()
		}
		if T == 0 {
			T = 1
		}
		ps, err := Schedule(nl, nr, edges, T)
		if err != nil {
			t.Fatal(err)
		}
		check(t, nl, nr, edges, T, ps)
	}
}

// TestScheduleRefusesOverfullNode checks the one failure.
func TestScheduleRefusesOverfullNode(t *testing.T) {
	if _, err := Schedule(1, 2, []Edge{{0, 0, 0.6}, {0, 1, 0.6}}, 1); err == nil {
		t.Error("a node of 1.2 scheduled in 1")
	}
}

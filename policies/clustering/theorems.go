package clustering

import (
	"fmt"

	"github.com/netsched/netsched/models"
)

// twoChains builds chains x1…x_l and x'1…x'_l of unit tasks ("x<i>",
// "y<i>" for x'_i) and adds, for each pair (i, j) of cross, the edges
// x_i → x'_j and x'_i → x_j.
func twoChains(l int, cross [][2]int) *models.DAG {
	g := &models.DAG{}
	for _, prefix := range []string{"x", "y"} {
		for i := 1; i <= l; i++ {
			g.Tasks = append(g.Tasks, models.Task{Name: fmt.Sprintf("%s%d", prefix, i), Weight: 1})
		}
	}
	x := func(i int) int { return i - 1 }
	y := func(i int) int { return l + i - 1 }
	for i := 1; i < l; i++ {
		g.Edges = append(g.Edges, models.DAGEdge{From: x(i), To: x(i + 1)}, models.DAGEdge{From: y(i), To: y(i + 1)})
	}
	for _, c := range cross {
		g.Edges = append(g.Edges, models.DAGEdge{From: x(c[0]), To: y(c[1])}, models.DAGEdge{From: y(c[0]), To: x(c[1])})
	}
	return g
}

// Theorem2DAG is the graph of paper 002 §3 (Fig. 1(a)) for an integer
// delay ρ >= 1: two chains x1…x_{ρ+2} and x'1…x'_{ρ+2} of unit tasks and
// the edges (x1, x'_{ρ+2}) and (x'1, x_{ρ+2}); 2ρ+4 tasks. Its optimal
// schedule (the two chains on two processors) has time(S*) = ρ+1, while
// every convex clustering gives at least 2ρ+1 = 2·time(S*) − 1
// (Theorem 2). Tasks x'_i are named "y<i>".
func Theorem2DAG(rho int) *models.DAG {
	return twoChains(rho+2, [][2]int{{1, rho + 2}})
}

// Theorem4DAG is a graph for Theorem 4 of paper 002 §4, whose Fig. 3(a) is
// not in the text; this reconstruction follows Fig. 1(a) one step
// further. For an integer delay ρ >= 1: two chains x1…x_{2ρ+3} and
// x'1…x'_{2ρ+3} of unit tasks with the edges x1 → x'_{ρ+2},
// x'1 → x_{ρ+2}, x_{ρ+2} → x'_{2ρ+3} and x'_{ρ+2} → x_{2ρ+3}; 4ρ+6
// tasks. The two chains on two processors give time(S*) = 2ρ+2, but that
// clustering is not cross (x1 ≺ x'_{ρ+2} ≺ x_{2ρ+3}); cutting each chain
// in the middle gives 3ρ+2 = 1.5·time(S*) − 1, the bound of Theorem 4.
// Tasks x'_i are named "y<i>".
func Theorem4DAG(rho int) *models.DAG {
	return twoChains(2*rho+3, [][2]int{{1, rho + 2}, {rho + 2, 2*rho + 3}})
}

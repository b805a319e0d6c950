package models

import (
	"fmt"
	"math/bits"
)

// FFT is the task graph of the recursive one-dimensional FFT of a vector of
// n points (n a power of two, n >= 2), as in Topcuoglu, Hariri and Wu,
// "Performance-effective and low-complexity task scheduling for
// heterogeneous computing" (IEEE TPDS 13(3), 2002), Fig. 10: 2n−1
// recursive-call tasks forming a binary out-tree (root "R0"; the n leaves
// are the input points in bit-reversed order), then log2 n levels of n
// butterfly tasks; butterfly task i of level l (named "B<l>_<i>") needs
// tasks i and i XOR 2^(l−1) of the level before (level 0: the leaves).
// That is (2n−1) + n·log2 n unit tasks, the sizes 223, 511, 1151, 2559 of
// paper 002 for n = 32…256.
func FFT(n int) (*DAG, error) {
	if n < 2 || n&(n-1) != 0 {
		return nil, fmt.Errorf("fft: the number of points must be a power of two >= 2, got %d", n)
	}
	levels := bits.TrailingZeros(uint(n))
	g := &DAG{}
	for i := 0; i < 2*n-1; i++ {
		g.Tasks = append(g.Tasks, Task{Name: fmt.Sprintf("R%d", i), Weight: 1})
		if i > 0 {
			g.Edges = append(g.Edges, DAGEdge{From: (i - 1) / 2, To: i})
		}
	}
	prev := func(i int) int { return n - 1 + i } // leaf of point i
	for l := 1; l <= levels; l++ {
		base := len(g.Tasks)
		for i := 0; i < n; i++ {
			g.Tasks = append(g.Tasks, Task{Name: fmt.Sprintf("B%d_%d", l, i), Weight: 1})
			g.Edges = append(g.Edges,
				DAGEdge{From: prev(i), To: base + i},
				DAGEdge{From: prev(i ^ 1<<(l-1)), To: base + i})
		}
		prev = func(i int) int { return base + i }
	}
	return g, nil
}

// GaussianElimination is the task graph of Gaussian elimination on an m×m
// matrix (m >= 2) as in Topcuoglu, Hariri and Wu (IEEE TPDS 13(3), 2002),
// Fig. 9: for each step k = 1…m−1 a pivot task "T<k>_<k>" and the update
// tasks "T<k>_<j>", j = k+1…m, each needing the pivot of its step; the
// update of column j at step k feeds the task of column j at step k+1.
// That is (m² + m − 2)/2 unit tasks, the sizes 299, 495, 989, 1952 of paper
// 002 for m = 24, 31, 44, 62.
func GaussianElimination(m int) (*DAG, error) {
	if m < 2 {
		return nil, fmt.Errorf("gaussian elimination: the matrix size must be >= 2, got %d", m)
	}
	g := &DAG{}
	id := make(map[[2]int]int)
	for k := 1; k < m; k++ {
		for j := k; j <= m; j++ {
			id[[2]int{k, j}] = len(g.Tasks)
			g.Tasks = append(g.Tasks, Task{Name: fmt.Sprintf("T%d_%d", k, j), Weight: 1})
		}
	}
	for k := 1; k < m; k++ {
		for j := k + 1; j <= m; j++ {
			g.Edges = append(g.Edges, DAGEdge{From: id[[2]int{k, k}], To: id[[2]int{k, j}]})
			if k+1 < m {
				g.Edges = append(g.Edges, DAGEdge{From: id[[2]int{k, j}], To: id[[2]int{k + 1, j}]})
			}
		}
	}
	return g, nil
}

// UnitWeights returns a copy of g whose every task takes one unit of time,
// the model of paper 002 (§2: "each task takes one time unit on any
// processor").
func (g *DAG) UnitWeights() *DAG {
	out := &DAG{Tasks: append([]Task(nil), g.Tasks...), Edges: append([]DAGEdge(nil), g.Edges...)}
	for i := range out.Tasks {
		out.Tasks[i].Weight = 1
	}
	return out
}

// CriticalPath is the weight of the heaviest path of g, the sum of the
// weights of its tasks (communication ignored), or an error if g has a
// cycle.
func (g *DAG) CriticalPath() (float64, error) {
	order, err := g.TopoOrder()
	if err != nil {
		return 0, err
	}
	preds := g.Preds()
	finish := make([]float64, len(g.Tasks))
	longest := 0.0
	for _, v := range order {
		start := 0.0
		for _, u := range preds[v] {
			start = max(start, finish[u])
		}
		finish[v] = start + g.Tasks[v].Weight
		longest = max(longest, finish[v])
	}
	return longest, nil
}

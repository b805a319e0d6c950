package models

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"
)

// edgeNames lists the edges of g as "from>to" by task name, sorted.
func edgeNames(g *DAG) []string {
	var out []string
	for _, e := range g.Edges {
		out = append(out, g.TaskName(e.From)+">"+g.TaskName(e.To))
	}
	slices.Sort(out)
	return out
}

func TestFFTSmall(t *testing.T) {
	g, err := FFT(4)
	if err != nil {
		t.Fatal(err)
	}
	// Topcuoglu et al. Fig. 10 for four points, written out by hand: the
	// call tree R0…R6 (leaves R3…R6 = points 0…3), then two butterfly
	// levels pairing points 1 apart and 2 apart.
	want := []string{
		"R0>R1", "R0>R2", "R1>R3", "R1>R4", "R2>R5", "R2>R6",
		"R3>B1_0", "R4>B1_0", "R3>B1_1", "R4>B1_1", "R5>B1_2", "R6>B1_2", "R5>B1_3", "R6>B1_3",
		"B1_0>B2_0", "B1_2>B2_0", "B1_1>B2_1", "B1_3>B2_1", "B1_0>B2_2", "B1_2>B2_2", "B1_1>B2_3", "B1_3>B2_3",
	}
	slices.Sort(want)
	if got := edgeNames(g); !slices.Equal(got, want) {
		t.Errorf("edges\n got %v\nwant %v", got, want)
	}
}

func TestGaussianEliminationSmall(t *testing.T) {
	g, err := GaussianElimination(3)
	if err != nil {
		t.Fatal(err)
	}
	// m = 3: step 1 pivot T1_1 and updates T1_2, T1_3; step 2 pivot T2_2
	// (column 2 after step 1) and update T2_3 (column 3 after step 1).
	want := []string{"T1_1>T1_2", "T1_1>T1_3", "T1_2>T2_2", "T1_3>T2_3", "T2_2>T2_3"}
	if got := edgeNames(g); !slices.Equal(got, want) {
		t.Errorf("edges %v, want %v", got, want)
	}
}

func TestDAGSetSizes(t *testing.T) {
	for _, n := range []int{2, 4, 32, 64, 128, 256} {
		g, err := FFT(n)
		if err != nil {
			t.Fatal(err)
		}
		lg := bits.TrailingZeros(uint(n))
		checkShape(t, fmt.Sprintf("FFT(%d)", n), g, (2*n-1)+n*lg, (2*n-2)+2*n*lg, float64(2*lg+1))
	}
	for _, m := range []int{2, 5, 24, 31, 44, 62} {
		g, err := GaussianElimination(m)
		if err != nil {
			t.Fatal(err)
		}
		// pivot → updates: m(m−1)/2 edges; column j to the next step: one
		// fewer. The critical path alternates pivot and update: 2(m−1).
		checkShape(t, fmt.Sprintf("GE(%d)", m), g, (m*m+m-2)/2, m*(m-1)-1, float64(2*(m-1)))
	}
	// The paper's sizes (errata of shared/papers/README.md).
	for _, c := range []struct {
		gen  func(int) (*DAG, error)
		arg  int
		size int
	}{{FFT, 32, 223}, {FFT, 64, 511}, {FFT, 128, 1151}, {FFT, 256, 2559},
		{GaussianElimination, 24, 299}, {GaussianElimination, 31, 495}, {GaussianElimination, 44, 989}, {GaussianElimination, 62, 1952}} {
		g, _ := c.gen(c.arg)
		if len(g.Tasks) != c.size {
			t.Errorf("size for %d: %d, want %d", c.arg, len(g.Tasks), c.size)
		}
	}
	for _, bad := range []int{0, 1, 3, 6, -4} {
		if _, err := FFT(bad); err == nil {
			t.Errorf("FFT(%d): no error", bad)
		}
	}
	for _, bad := range []int{1, 0, -2} {
		if _, err := GaussianElimination(bad); err == nil {
			t.Errorf("GaussianElimination(%d): no error", bad)
		}
	}
}

func checkShape(t *testing.T, name string, g *DAG, tasks, edges int, cp float64) {
	t.Helper()
	if err := g.Validate("dag"); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if len(g.Tasks) != tasks || len(g.Edges) != edges {
		t.Errorf("%s: %d tasks, %d edges; want %d, %d", name, len(g.Tasks), len(g.Edges), tasks, edges)
	}
	if got, _ := g.CriticalPath(); got != cp {
		t.Errorf("%s: critical path %v, want %v", name, got, cp)
	}
	seen := map[string]bool{}
	for i := range g.Tasks {
		if g.Tasks[i].Weight != 1 || seen[g.TaskName(i)] {
			t.Errorf("%s: task %d weight %v or duplicate name %q", name, i, g.Tasks[i].Weight, g.TaskName(i))
		}
		seen[g.TaskName(i)] = true
	}
}

func TestUnitWeights(t *testing.T) {
	g := &DAG{Tasks: []Task{{Weight: 3}, {Weight: 0}}, Edges: []DAGEdge{{From: 0, To: 1, Data: 2}}}
	u := g.UnitWeights()
	if u.Tasks[0].Weight != 1 || u.Tasks[1].Weight != 1 || g.Tasks[0].Weight != 3 || u.Edges[0] != g.Edges[0] {
		t.Errorf("UnitWeights: %+v (original %+v)", u, g)
	}
}

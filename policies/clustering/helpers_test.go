package clustering

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/formats/stg"
	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/models"
)

// randomDAG draws a graph of n unit tasks with each edge i → j (i < j)
// present with probability prob.
func randomDAG(rng *rand.Rand, n int, prob float64) *models.DAG {
	g := &models.DAG{}
	for i := range n {
		g.Tasks = append(g.Tasks, models.Task{Name: fmt.Sprintf("t%d", i), Weight: 1})
		for j := range i {
			if rng.Float64() < prob {
				g.Edges = append(g.Edges, models.DAGEdge{From: j, To: i})
			}
		}
	}
	return g
}

// reaches is the precedence relation ≺ by brute force (Floyd–Warshall),
// independent of the package's bitsets.
func reaches(g *models.DAG) [][]bool {
	n := len(g.Tasks)
	r := make([][]bool, n)
	for i := range r {
		r[i] = make([]bool, n)
	}
	for _, e := range g.Edges {
		r[e.From][e.To] = true
	}
	for k := range n {
		for i := range n {
			for j := range n {
				r[i][j] = r[i][j] || (r[i][k] && r[k][j])
			}
		}
	}
	return r
}

// convexByDefinition and crossByDefinition test Definitions 2 and 3
// literally, quantifier by quantifier.
func convexByDefinition(g *models.DAG, c Clustering) bool {
	r, n := reaches(g), len(g.Tasks)
	for a := range n {
		for b := range n {
			for b2 := range n {
				for a2 := range n {
					if c[a] == c[a2] && c[b] == c[b2] && c[a] != c[b] && r[a][b] && r[b2][a2] {
						return false
					}
				}
			}
		}
	}
	return true
}

func crossByDefinition(g *models.DAG, c Clustering) bool {
	r, n := reaches(g), len(g.Tasks)
	for x := range n {
		for y := range n {
			for z := range n {
				if c[x] == c[z] && c[x] != c[y] && r[x][y] && r[y][z] {
					return false
				}
			}
		}
	}
	return true
}

// forEachClustering calls fn with every clustering of n tasks (restricted
// growth strings), stopping when fn returns false.
func forEachClustering(n int, fn func(Clustering) bool) {
	c := make(Clustering, n)
	var rec func(i, k int) bool
	rec = func(i, k int) bool {
		if i == n {
			return fn(c)
		}
		for id := 0; id <= k; id++ {
			c[i] = id
			if !rec(i+1, max(k, id+1)) {
				return false
			}
		}
		return true
	}
	rec(0, 0)
}

// loadSTGSet reads the graphs of one STG set (rand50, rand100, rand300)
// the way paper 002 uses them: dummy nodes kept, every task unit.
func loadSTGSet(t testing.TB, set string) []*models.DAG {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(shareddata.STGDir(t), set, "*.stg"))
	if err != nil || len(files) == 0 {
		t.Skipf("STG set %s absent", set)
	}
	var out []*models.DAG
	for _, f := range files {
		s, err := stg.ReadFile(f, stg.Options{KeepDummies: true})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s.DAG.UnitWeights())
	}
	return out
}

package clustering

import (
	"context"
	"testing"

	"github.com/netsched/netsched/models"
)

// join is k unit entry tasks feeding one exit task; fork is one entry task
// feeding k exit tasks.
func join(k int) *models.DAG {
	g := &models.DAG{Tasks: make([]models.Task, k+1)}
	for i := range g.Tasks {
		g.Tasks[i].Weight = 1
	}
	for i := range k {
		g.Edges = append(g.Edges, models.DAGEdge{From: i, To: k})
	}
	return g
}

func fork(k int) *models.DAG {
	g := &models.DAG{Tasks: make([]models.Task, k+1)}
	for i := range g.Tasks {
		g.Tasks[i].Weight = 1
	}
	for i := range k {
		g.Edges = append(g.Edges, models.DAGEdge{From: 0, To: i + 1})
	}
	return g
}

// TestDSCOptimalOnJoinAndFork checks DSC against the exact optimum on
// join and fork graphs, where Yang and Gerasoulis prove it optimal; the
// optimum there is min(k, 1+ρ) (all tasks on one processor, or the far
// side waiting one delay).
func TestDSCOptimalOnJoinAndFork(t *testing.T) {
	for k := 1; k <= 6; k++ {
		for _, rho := range []float64{0.5, 1, 2.5, 4} {
			for name, g := range map[string]*models.DAG{"join": join(k), "fork": fork(k)} {
				want := min(float64(k), 1+rho)
				if opt := exactValue(t, g, rho, AnyClustering); opt != want {
					t.Fatalf("%s(%d) ρ=%v: exact %v, closed form %v", name, k, rho, opt, want)
				}
				pl, err := DSC(g, rho)
				if err != nil {
					t.Fatal(err)
				}
				if pl.TimeS != want {
					t.Errorf("DSC on %s(%d) ρ=%v: %v, optimum %v (clusters %v)", name, k, rho, pl.TimeS, want, pl.Clustering)
				}
			}
		}
	}
}

// TestCASS2ClosedForms: CASS-II builds linear clusters bottom-up, so on a
// join it stacks entry tasks on the exit task's cluster while that does not
// lengthen the path (optimal, min(k, 1+ρ)), while on a fork the exit tasks
// stay apart and all but one wait a delay (1+ρ for k >= 2). On a chain
// everything joins one cluster (n−1).
func TestCASS2ClosedForms(t *testing.T) {
	for k := 1; k <= 6; k++ {
		for _, rho := range []float64{0.5, 1, 2.5, 4} {
			j, _ := CASS2(join(k), rho)
			f, _ := CASS2(fork(k), rho)
			wantFork := 1 + rho
			if k == 1 {
				wantFork = 1
			}
			if j.TimeS != min(float64(k), 1+rho) || f.TimeS != wantFork {
				t.Errorf("k=%d ρ=%v: join %v (want %v), fork %v (want %v)", k, rho, j.TimeS, min(float64(k), 1+rho), f.TimeS, wantFork)
			}
		}
	}
	for _, alg := range []func(*models.DAG, float64) (*Plan, error){CASS2, DSC} {
		pl, err := alg(chain(7), 2)
		if err != nil || pl.TimeS != 6 || pl.Clustering.NumClusters() != 1 {
			t.Errorf("chain: %v %v", pl, err)
		}
	}
}

// TestRecursiveOnSmallShapes: Cross-A and Convex-A put independent tasks
// on processors of their own and leave a chain whole.
func TestRecursiveOnSmallShapes(t *testing.T) {
	indep := &models.DAG{Tasks: make([]models.Task, 5)}
	for i := range indep.Tasks {
		indep.Tasks[i].Weight = 1
	}
	for _, alg := range []func(context.Context, *models.DAG, float64, Params) (*Result, error){CrossA, ConvexA} {
		r, err := alg(context.Background(), indep, 3, Params{K: 3, Runs: 2})
		if err != nil || r.Best.TimeS != 0 || r.Best.Clustering.NumClusters() != 5 {
			t.Errorf("independent tasks: %v %v", r.Best, err)
		}
		r, err = alg(context.Background(), chain(6), 3, Params{K: 3, Runs: 2})
		if err != nil || r.Best.TimeS != 5 || r.Best.Clustering.NumClusters() != 1 || len(r.RunTimeS) != 2 {
			t.Errorf("chain: %v %v", r, err)
		}
		if _, err := alg(context.Background(), chain(3), 3, Params{K: 0, Runs: 2}); err == nil {
			t.Error("K = 0 accepted")
		}
	}
}

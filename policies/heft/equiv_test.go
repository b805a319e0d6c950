package heft

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
)

// TestNetworkWithoutDataIsThePaperModel: when no edge carries data, the
// platform model has nothing to book but computations, so HEFT and CPOP
// must place every task where, and when, they do in the paper's model
// (matrix) with the cost matrix w[v][p] = weight_v·γ_p, which shares only
// the list scheduling (run) with it: ranks, processors and starts agree
// on random graphs and platforms.
func TestNetworkWithoutDataIsThePaperModel(t *testing.T) {
	for seed := uint64(1); seed < 120; seed += 2 {
		pl, pr, err := checktest.Random(models.FamilyDAG, seed)
		if err != nil {
			t.Fatal(err)
		}
		dag := pr.DAG
		for i := range dag.Edges {
			dag.Edges[i].Data = 0
		}
		g, err := newGraph(dag)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []Algorithm{HEFT, CPOP} {
			net := newNetwork(g, dag, &pl)
			w := make([][]float64, g.n)
			for v := range w {
				w[v] = make([]float64, net.procs())
				for p := range w[v] {
					w[v][p] = net.cost(v, p)
				}
			}
			mat := newMatrix(g, w)
			if err := run(context.Background(), g, net, alg, nil); err != nil {
				t.Fatal(err)
			}
			if err := run(context.Background(), g, mat, alg, nil); err != nil {
				t.Fatal(err)
			}
			for v := range g.n {
				if net.proc[v] != mat.proc[v] || net.start[v] != mat.start[v] {
					t.Fatalf("seed %d %v: task %d on P%d at %g, the paper's model P%d at %g",
						seed, alg, v, net.proc[v], net.start[v], mat.proc[v], mat.start[v])
				}
			}
			if len(net.xfers) != 0 {
				t.Fatalf("seed %d %v: %d transfers without data", seed, alg, len(net.xfers))
			}
		}
	}
}

// TestBoundPruningIsExact: trying the processors by increasing lower
// bound and skipping those whose bound is later than the best finish
// places every task where trying every processor in order does (the
// earliest finish, ties to the first), on random graphs with data on
// random crossbars and multi-clusters, for HEFT and CPOP; on every other
// seed with identical processors and whole weights and data, where
// finishes tie.
func TestBoundPruningIsExact(t *testing.T) {
	for seed := uint64(1); seed < 160; seed += 2 {
		pl, pr, err := checktest.Random(models.FamilyDAG, seed)
		if err != nil {
			t.Fatal(err)
		}
		if seed%4 == 3 {
			makeTies(&pl, pr.DAG)
		}
		g, err := newGraph(pr.DAG)
		if err != nil {
			t.Fatal(err)
		}
		for _, alg := range []Algorithm{HEFT, CPOP} {
			pruned, every := newNetwork(g, pr.DAG, &pl), newNetwork(g, pr.DAG, &pl)
			if err := run(context.Background(), g, pruned, alg, nil); err != nil {
				t.Fatal(err)
			}
			if err := run(context.Background(), g, unbounded{every}, alg, nil); err != nil {
				t.Fatal(err)
			}
			for v := range g.n {
				if pruned.proc[v] != every.proc[v] || pruned.start[v] != every.start[v] {
					t.Fatalf("seed %d %v: task %d on P%d at %g, trying every processor P%d at %g",
						seed, alg, v, pruned.proc[v], pruned.start[v], every.proc[v], every.start[v])
				}
			}
		}
	}
}

// unbounded is a model without its bound, whose processors are all tried.
type unbounded struct{ model }

// makeTies makes every processor of pl compute at γ = 1 (communicating
// at that speed where it overlapped) and rounds every weight and data
// size of g up to a whole number.
func makeTies(pl *models.Platform, g *models.DAG) {
	var groups []models.Processors
	if pl.Crossbar != nil {
		groups = append(groups, pl.Crossbar.Processors)
	}
	if pl.MultiCluster != nil {
		for _, c := range pl.MultiCluster.Clusters {
			groups = append(groups, c.Processors)
		}
	}
	for _, ps := range groups {
		for i := range ps {
			ps[i].Gamma = 1
			for k := range ps[i].Overlap {
				ps[i].Overlap[k] = 1
			}
		}
	}
	for i := range g.Tasks {
		g.Tasks[i].Weight = math.Ceil(g.Tasks[i].Weight)
	}
	for i := range g.Edges {
		g.Edges[i].Data = math.Ceil(g.Edges[i].Data)
	}
}

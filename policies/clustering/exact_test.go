package clustering

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/models"
)

// bruteForce is eval over a class by brute force: every clustering the
// literal definition admits, and for each every topological order of the
// graph fed to the greedy list (which yields every semi-active schedule
// of the clustering).
func bruteForce(g *models.DAG, rho float64, class Class) float64 {
	p, err := prepare(g)
	if err != nil {
		panic(err)
	}
	n := p.n
	best := math.Inf(1)
	start, end, free := make([]float64, n), make([]float64, n), make([]float64, n)
	label, pos := make([]int32, n), make([]int32, n)
	var orders [][]int
	var rec func(order []int, used uint)
	rec = func(order []int, used uint) {
		if len(order) == n {
			orders = append(orders, append([]int(nil), order...))
			return
		}
		for v := range n {
			ready := used&(1<<uint(v)) == 0
			for _, u := range p.preds[v] {
				ready = ready && used&(1<<uint(u)) != 0
			}
			if ready {
				rec(append(order, v), used|1<<uint(v))
			}
		}
	}
	rec(nil, 0)
	forEachClustering(n, func(c Clustering) bool {
		if (class == ConvexClusterings && !convexByDefinition(g, c)) || (class == CrossClusterings && !crossByDefinition(g, c)) {
			return true
		}
		for _, o := range orders {
			var sq sequence
			sq.build(p, o, nil, pos)
			for i, v := range o {
				label[i] = int32(c[v])
			}
			ts, _, _ := sq.greedy(label, rho, start, end, free, math.Inf(1))
			best = min(best, ts)
		}
		return true
	})
	return best
}

// TestExactAgainstBruteForce compares the branch-and-bound search with
// brute force on small random graphs, for every class and a fixed
// clustering.
func TestExactAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	ctx := context.Background()
	for trial := range 36 {
		n := 3 + trial%4
		g := randomDAG(rng, n, 0.35)
		rho := []float64{1, 1.5, 2.5}[trial%3]
		opt := exactValue(t, g, rho, AnyClustering)
		if none, _ := Exact(ctx, g, rho, ExactOptions{Below: opt}); opt > 0 && none != nil {
			t.Errorf("a schedule below the optimum %v: %v", opt, none)
		}
		if some, _ := Exact(ctx, g, rho, ExactOptions{Below: opt + 0.5}); some == nil || some.TimeS != opt {
			t.Errorf("no schedule of time %v below %v: %v", opt, opt+0.5, some)
		}
		for _, class := range []Class{AnyClustering, ConvexClusterings, CrossClusterings} {
			pl, err := Exact(ctx, g, rho, ExactOptions{Class: class})
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(g, rho, class)
			if pl.TimeS != want {
				t.Errorf("graph %v ρ=%v class %d: exact %v, brute force %v", g.Edges, rho, class, pl.TimeS, want)
			}
			if err := CheckSchedule(g, pl.Clustering, pl.Start, rho); err != nil {
				t.Errorf("exact schedule infeasible: %v", err)
			}
			if (class == CrossClusterings && CheckCross(g, pl.Clustering) != nil) || (class == ConvexClusterings && CheckConvex(g, pl.Clustering) != nil) {
				t.Errorf("class %d: clustering %v outside the class", class, pl.Clustering)
			}
		}
		// eval(G, R) of one clustering, against the brute force over its orders.
		fixed := make(Clustering, n)
		for i := range fixed {
			fixed[i] = rng.IntN(2)
		}
		pl, err := Exact(ctx, g, rho, ExactOptions{Fixed: fixed})
		if err != nil {
			t.Fatal(err)
		}
		if ev, _ := EvalPrime(g, fixed, rho); pl.TimeS > ev.TimeS || pl.TimeS < opt {
			t.Errorf("eval(G,R) %v above eval′ %v or below the optimum %v", pl.TimeS, ev.TimeS, opt)
		}
	}
}

// TestTheorem2 checks the bound of Theorem 2 on its graph: the optimum is
// ρ+1 (two chains, a cross clustering), every convex clustering gives at
// least 2ρ+1 = 2·time(S*) − 1.
func TestTheorem2(t *testing.T) {
	ctx := context.Background()
	for rho := 1; rho <= 4; rho++ {
		g := Theorem2DAG(rho)
		r := float64(rho)
		opt := exactValue(t, g, r, AnyClustering)
		convex := exactValue(t, g, r, ConvexClusterings)
		cross := exactValue(t, g, r, CrossClusterings)
		if opt != r+1 || cross != opt || convex != 2*r+1 || convex < 2*opt-1 {
			t.Errorf("ρ=%d: optimum %v (want %v), cross %v, convex %v (want %v)", rho, opt, r+1, cross, convex, 2*r+1)
		}
		res, err := ConvexA(ctx, g, r, Params{K: DefaultK, Runs: DefaultRuns})
		if err != nil || res.Best.TimeS < 2*opt-1 {
			t.Errorf("ρ=%d: Convex-A %v below the bound %v (%v)", rho, res.Best.TimeS, 2*opt-1, err)
		}
	}
}

// TestTheorem4 checks the bound of Theorem 4 on the reconstructed graph:
// the optimum is 2ρ+2 and every cross clustering gives at least
// 1.5·time(S*) − 1 = 3ρ+2 (and reaches it).
func TestTheorem4(t *testing.T) {
	maxRho := 3
	if testing.Short() {
		maxRho = 2
	}
	ctx := context.Background()
	for rho := 1; rho <= maxRho; rho++ {
		g := Theorem4DAG(rho)
		r := float64(rho)
		opt := exactValue(t, g, r, AnyClustering)
		cross := exactValue(t, g, r, CrossClusterings)
		if opt != 2*r+2 || cross != 3*r+2 || cross < 1.5*opt-1 {
			t.Errorf("ρ=%d: optimum %v (want %v), best cross %v (want %v)", rho, opt, 2*r+2, cross, 3*r+2)
		}
		res, err := CrossA(ctx, g, r, Params{K: DefaultK, Runs: DefaultRuns})
		if err != nil || res.Best.TimeS < 1.5*opt-1 {
			t.Errorf("ρ=%d: Cross-A %v below the bound %v (%v)", rho, res.Best.TimeS, 1.5*opt-1, err)
		}
	}
}

func exactValue(t *testing.T, g *models.DAG, rho float64, class Class) float64 {
	t.Helper()
	pl, err := Exact(context.Background(), g, rho, ExactOptions{Class: class})
	if err != nil {
		t.Fatal(err)
	}
	return pl.TimeS
}

// TestTheorems1And3 checks the existence results on random graphs: a
// convex clustering within 2 of the optimum (Theorem 1, Lepère–Trystram)
// and a cross clustering within 1.5 (Theorem 3). It also builds the cross
// clustering of Lemmas 4.1 and 4.2 from the optimal schedule (its clusters
// cut into windows of length 2ρ, window j delayed by jρ) and checks that
// it is feasible, cross, and within 1.5.
func TestTheorems1And3(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	trials := 60
	if testing.Short() {
		trials = 20
	}
	worstConvex, worstCross := 1.0, 1.0
	for trial := range trials {
		g := randomDAG(rng, 4+trial%6, 0.3)
		if trial%2 == 1 {
			g = randomTwoChains(rng, 3+trial%4) // where convex and cross part ways
		}
		rho := []float64{1, 1.5, 3}[trial%3]
		opt, err := Exact(context.Background(), g, rho, ExactOptions{})
		if err != nil {
			t.Fatal(err)
		}
		convex := exactValue(t, g, rho, ConvexClusterings)
		cross := exactValue(t, g, rho, CrossClusterings)
		if !(opt.TimeS <= cross && cross <= convex && convex <= 2*opt.TimeS && cross <= 1.5*opt.TimeS) {
			t.Errorf("graph %v ρ=%v: optimum %v, cross %v, convex %v", g.Edges, rho, opt.TimeS, cross, convex)
		}
		if opt.TimeS > 0 {
			worstConvex, worstCross = max(worstConvex, convex/opt.TimeS), max(worstCross, cross/opt.TimeS)
		}
		c, start := lemma41(g, opt, rho)
		if err := CheckSchedule(g, c, start, rho); err != nil {
			t.Errorf("Lemma 4.1 schedule infeasible: %v", err)
		}
		if err := CheckCross(g, c); err != nil {
			t.Errorf("Lemma 4.2: %v", err)
		}
		if ts := maxOf(start); ts > 1.5*opt.TimeS {
			t.Errorf("Lemma 4.1: time %v above 1.5 × %v", ts, opt.TimeS)
		}
	}
	t.Logf("worst best-convex/optimum %.3f (Theorem 1: <= 2), best-cross/optimum %.3f (Theorem 3: <= 1.5)", worstConvex, worstCross)
}

// randomTwoChains is two chains of l unit tasks with random pairs of
// crossing edges, the shape of Fig. 1(a).
func randomTwoChains(rng *rand.Rand, l int) *models.DAG {
	var cross [][2]int
	for range 1 + rng.IntN(3) {
		i := 1 + rng.IntN(l-1)
		cross = append(cross, [2]int{i, i + 1 + rng.IntN(l-i)})
	}
	return twoChains(l, cross)
}

// lemma41 is the construction of Lemma 4.1: cluster i of the optimal plan
// is cut into V_{i,j} = tasks starting in [2jρ, 2(j+1)ρ), and a task of
// V_{i,j} starts jρ later.
func lemma41(g *models.DAG, opt *Plan, rho float64) (Clustering, []float64) {
	c := make(Clustering, len(g.Tasks))
	start := make([]float64, len(g.Tasks))
	k := opt.Clustering.NumClusters()
	for v, t := range opt.Start {
		j := math.Floor(t / (2 * rho))
		c[v] = opt.Clustering[v] + k*int(j)
		start[v] = t + rho*j
	}
	return c, start
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

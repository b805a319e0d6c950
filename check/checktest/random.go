// Package checktest is what a policy's tests need to hold its schedules
// to the project's claim: Verify replays a schedule, runs the problem
// checks and fails the test on any breach, and Random draws seeded
// instances of every problem family on the platforms it runs on. The
// conformance suite (this package's tests) runs every registered policy
// through them, so a new policy is covered without writing a helper.
package checktest

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/models"
)

// Random draws a valid instance of the problem family on a platform it
// runs on, from seed: the same seed gives the same instance. Divisible
// loads run on a crossbar (half or full duplex) or a multi-cluster, some
// collecting results; task graphs of 1–30 tasks on the delay platform
// (even seeds) or, with data on their edges, on a crossbar or a
// multi-cluster (odd seeds);
// broadcasts on trees of 2–14 nodes with relays; task pools on 2–8
// workstations.
func Random(family string, seed uint64) (models.Platform, models.Problem, error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var pl models.Platform
	var pr models.Problem
	switch family {
	case models.FamilyDivisible:
		pl, pr = randomDivisible(r)
	case models.FamilyDAG:
		pl, pr = randomDAG(r)
		if seed%2 == 1 {
			pl = randomNetwork(r, pr.DAG)
		}
	case models.FamilyBroadcast:
		pl, pr = randomBroadcast(r)
	case models.FamilyBalance:
		pl, pr = randomBalance(r)
	default:
		return pl, pr, fmt.Errorf("checktest: no problem family %q", family)
	}
	if err := pl.Validate(); err != nil {
		return pl, pr, fmt.Errorf("random %s instance %d: %w", family, seed, err)
	}
	if err := pr.Validate(&pl); err != nil {
		return pl, pr, fmt.Errorf("random %s instance %d: %w", family, seed, err)
	}
	return pl, pr, nil
}

func uniform(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// randomProcessors draws p processors with γ in [0.5, 4), about half of
// them holding load, some able to compute while communicating.
func randomProcessors(r *rand.Rand, p int, kinds []string) []models.Processor {
	ps := make([]models.Processor, p)
	for i := range ps {
		ps[i].Gamma = uniform(r, 0.5, 4)
		if r.IntN(2) == 0 {
			ps[i].Load = float64(r.IntN(100)) + r.Float64()
		}
		if r.IntN(3) == 0 {
			ps[i].Overlap = map[string]float64{}
			for _, k := range kinds {
				ps[i].Overlap[k] = ps[i].Gamma * uniform(r, 1, 3)
			}
		}
	}
	if ps[0].Load == 0 {
		ps[0].Load = 50
	}
	return ps
}

// randomDivisible draws a crossbar (half or full duplex) or a multi-cluster
// with a divisible load, sometimes with results to collect.
func randomDivisible(r *rand.Rand) (models.Platform, models.Problem) {
	pr := models.Problem{Divisible: &models.Divisible{}}
	if r.IntN(3) == 0 {
		pr.Divisible.CollectResults, pr.Divisible.ResultSize = true, uniform(r, 0.05, 1)
	}
	return randomBounded(r, 10, 4), pr
}

// randomBounded draws a crossbar (half or full duplex) of 1 to crossbarMax
// processors or a multi-cluster of 1 to 3 clusters of 1 to clusterMax,
// half of them with a start-up latency.
func randomBounded(r *rand.Rand, crossbarMax, clusterMax int) models.Platform {
	alpha := 0.0
	if r.IntN(2) == 0 {
		alpha = uniform(r, 0, 0.5)
	}
	if r.IntN(2) == 0 {
		duplex := models.HalfDuplex
		if r.IntN(2) == 0 {
			duplex = models.FullDuplex
		}
		return models.Platform{Crossbar: &models.Crossbar{Beta: uniform(r, 0.01, 0.5), Alpha: alpha, Duplex: duplex,
			Processors: randomProcessors(r, 1+r.IntN(crossbarMax), models.CrossbarKinds)}}
	}
	m := &models.MultiCluster{Alpha: alpha}
	for range 1 + r.IntN(3) {
		c := models.Cluster{Beta: uniform(r, 0.01, 0.3), Processors: randomProcessors(r, 1+r.IntN(clusterMax), models.MultiClusterKinds)}
		m.Beta = max(m.Beta, c.Beta*uniform(r, 1, 4))
		m.Clusters = append(m.Clusters, c)
	}
	return models.Platform{MultiCluster: m}
}

// randomDAG draws a task graph of 1–30 tasks (edges go from lower to higher
// index) with unit or random weights, on a delay platform.
func randomDAG(r *rand.Rand) (models.Platform, models.Problem) {
	n := 1 + r.IntN(30)
	g := &models.DAG{Tasks: make([]models.Task, n)}
	unit := r.IntN(2) == 0
	for i := range g.Tasks {
		g.Tasks[i].Weight = 1
		if !unit {
			g.Tasks[i].Weight = float64(r.IntN(5)) + r.Float64()
		}
	}
	p := uniform(r, 0.05, 0.3)
	for j := range n {
		for i := range j {
			if r.Float64() < p {
				g.Edges = append(g.Edges, models.DAGEdge{From: i, To: j})
			}
		}
	}
	return models.Platform{Delay: &models.Delay{Rho: float64(r.IntN(6)) * uniform(r, 0.5, 1.5)}},
		models.Problem{DAG: g}
}

// randomBroadcast draws a tree of 2–14 nodes (node i hangs from a random
// earlier node), some relays, per-direction parameters, some half-duplex
// edges, and one or two roots.
func randomBroadcast(r *rand.Rand) (models.Platform, models.Problem) {
	n := 2 + r.IntN(13)
	t := &models.Tree{}
	for i := range n {
		t.Nodes = append(t.Nodes, models.TreeNode{Name: fmt.Sprintf("n%d", i), Relay: i > 0 && r.IntN(4) == 0})
		if i == 0 {
			continue
		}
		e := models.TreeEdge{A: t.Nodes[r.IntN(i)].Name, B: t.Nodes[i].Name,
			LinkParams: models.LinkParams{Bandwidth: uniform(r, 1, 200), Latency: uniform(r, 0, 0.01)}}
		if r.IntN(3) == 0 {
			e.Reverse = &models.LinkParams{Bandwidth: uniform(r, 1, 200), Latency: uniform(r, 0, 0.01)}
		}
		if r.IntN(3) == 0 {
			e.Duplex = models.HalfDuplex
		}
		t.Edges = append(t.Edges, e)
	}
	b := &models.Broadcast{Roots: []string{"n0"}, Size: uniform(r, 0.1, 10)}
	if last := t.Nodes[n-1]; !last.Relay && n > 2 && r.IntN(3) == 0 {
		b.Roots = append(b.Roots, last.Name)
	}
	return models.Platform{Tree: t}, models.Problem{Broadcast: b}
}

// randomBalance draws 2–8 workstations, some loaded by other users for a
// while, in one of the three topologies, with a pool of tasks that may
// differ from processor to processor and jitter in their work.
func randomBalance(r *rand.Rand) (models.Platform, models.Problem) {
	n := 2 + r.IntN(7)
	ws := &models.Workstations{Topology: []string{models.TopologyTree, models.TopologyRing, models.TopologyComplete}[r.IntN(3)],
		Latency: uniform(r, 0.01, 0.5), PerTask: uniform(r, 0.01, 0.5),
		Profiles: []models.LoadProfile{{Name: "busy", Share: uniform(r, 0.3, 0.9),
			Steps: []models.LoadStep{{At: uniform(r, 1, 20), Share: 0}}}}}
	for i := range n {
		w := models.Workstation{Speed: uniform(r, 0.5, 2)}
		if r.IntN(3) == 0 {
			w.Profile = "busy"
		} else if r.IntN(3) == 0 {
			w.Share = uniform(r, 0, 0.5)
		}
		if i%2 == 1 {
			w.Name = fmt.Sprintf("ws%d", i)
		}
		ws.Processors = append(ws.Processors, w)
	}
	pool := &models.Balance{Tasks: 1 + r.IntN(12), Work: uniform(r, 0.5, 3), Interval: uniform(r, 1, 5)}
	if r.IntN(2) == 0 {
		pool.Counts = make([]int, n)
		for i := range pool.Counts {
			pool.Counts[i] = r.IntN(15)
		}
		pool.Counts[0]++
	}
	if r.IntN(2) == 0 {
		pool.Jitter = uniform(r, 0, 0.5)
	}
	return models.Platform{Workstations: ws}, models.Problem{Balance: pool}
}

// randomNetwork draws a crossbar (half or full duplex) or a multi-cluster
// of 1–8 processors for task graph g, and data in [0, 20) on most of its
// edges.
func randomNetwork(r *rand.Rand, g *models.DAG) models.Platform {
	for i := range g.Edges {
		if r.IntN(5) > 0 {
			g.Edges[i].Data = uniform(r, 0, 20)
		}
	}
	return randomBounded(r, 8, 3)
}

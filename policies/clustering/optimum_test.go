package clustering

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
)

// TestAgainstOptimum runs every policy on random graphs of up to 9 unit
// tasks (and two-chain graphs like Fig. 1(a)) and compares it with
//   - the exact optimum over all schedules (Exact): no policy may beat it;
//   - the best eval′ over every clustering of the class, found by
//     enumerating all clusterings: Cross-A, whose clusterings are cross and
//     scored by eval′, may not beat the best cross one; Convex-A likewise.
//
// It logs the worst ratios.
func TestAgainstOptimum(t *testing.T) {
	trials := slowtest.Pick(40, 150)
	rng := rand.New(rand.NewPCG(9, 9))
	worst := map[string]float64{}
	mean := map[string]float64{}
	counted := 0
	for trial := range trials {
		var g *models.DAG
		if trial%3 == 2 {
			g = randomTwoChains(rng, 3+rng.IntN(2))
		} else {
			g = randomDAG(rng, 5+trial%5, []float64{0.2, 0.35, 0.5}[trial%3])
		}
		rho := []float64{1, 1.5, 3, 5}[trial%4]
		opt := exactValue(t, g, rho, AnyClustering)
		bestCross, bestConvex := bestEvalPrime(g, rho)
		values := map[string]float64{}
		for _, pol := range policyNames {
			s, _ := plan(t, pol, g, rho, nil, uint64(trial))
			values[pol] = s.Metrics["time_S"]
			if values[pol] < opt-1e-9 {
				t.Errorf("%s beats the optimum %v with %v on %v ρ=%v", pol, opt, values[pol], g.Edges, rho)
			}
		}
		if values["cross"] < bestCross-1e-9 || values["convex"] < bestConvex-1e-9 {
			t.Errorf("Cross-A %v / Convex-A %v below the best eval′ of their class %v / %v on %v ρ=%v",
				values["cross"], values["convex"], bestCross, bestConvex, g.Edges, rho)
		}
		if opt == 0 {
			for pol, v := range values {
				if v != 0 {
					t.Errorf("%s: %v on a graph of independent tasks", pol, v)
				}
			}
			continue
		}
		counted++
		for pol, v := range values {
			worst[pol] = max(worst[pol], v/opt)
			mean[pol] += v / opt
		}
		worst["best eval′ cross"] = max(worst["best eval′ cross"], bestCross/opt)
		worst["best eval′ convex"] = max(worst["best eval′ convex"], bestConvex/opt)
		worst["Cross-A / best eval′ cross"] = max(worst["Cross-A / best eval′ cross"], values["cross"]/bestCross)
		worst["Convex-A / best eval′ convex"] = max(worst["Convex-A / best eval′ convex"], values["convex"]/bestConvex)
	}
	for pol := range mean {
		mean[pol] /= float64(counted)
	}
	t.Logf("%d graphs (optimum > 0): worst ratio to the optimum %v; mean %v", counted, worst, mean)
}

// bestEvalPrime is the least eval′ over all cross and all convex
// clusterings, by enumeration.
func bestEvalPrime(g *models.DAG, rho float64) (cross, convex float64) {
	p, err := prepare(g)
	if err != nil {
		panic(err)
	}
	cross, convex = math.Inf(1), math.Inf(1)
	forEachClustering(p.n, func(c Clustering) bool {
		isCross := p.checkCross(c) == nil
		if !isCross {
			return true
		}
		ts := p.plan(c, p.order, rho).TimeS
		cross = min(cross, ts)
		if p.checkConvex(c) == nil {
			convex = min(convex, ts)
		}
		return true
	})
	return cross, convex
}

package multicluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// benchInstance is a large random multi-cluster: J clusters of n
// processors each, heterogeneous, with overlap, and a third of the
// clusters holding most of the load, so that master clusters, worker
// clusters and relays occur. With β = 0.05 the master clusters' uplinks
// bind (T = T_L); with β = 0.0001 they do not, and T is the root of Ȳ.
func benchInstance(J, n int, seed uint64, beta float64) (*models.Platform, *models.Problem) {
	rng := rand.New(rand.NewPCG(seed, 7))
	logUniform := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, rng.Float64()) }
	mc := &models.MultiCluster{Beta: beta, Alpha: 0.001}
	for j := range J {
		c := models.Cluster{Beta: mc.Beta * logUniform(0.05, 0.5)}
		heavy := j%3 == 0
		for range n {
			p := models.Processor{Gamma: logUniform(0.1, 2)}
			switch {
			case heavy && rng.IntN(10) == 0:
				p.Load = logUniform(500, 5000)
			case rng.IntN(5) == 0:
				p.Load = logUniform(1, 200)
			}
			p.Overlap = randomOverlap(rng, p.Gamma, c.Beta/mc.Beta, false)
			c.Processors = append(c.Processors, p)
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	return &models.Platform{MultiCluster: mc}, &models.Problem{Divisible: &models.Divisible{}}
}

// benchCases are the two regimes of benchInstance.
var benchCases = []struct {
	name string
	beta float64
}{{"uplink-bound", 0.05}, {"root", 0.0001}}

// BenchmarkRoundTime is §3.4's search for P = 100,000 processors in 100
// clusters.
func BenchmarkRoundTime(b *testing.B) {
	for _, bc := range benchCases {
		for _, relays := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/relays=%v", bc.name, relays), func(b *testing.B) {
				pl, pr := benchInstance(100, 1000, 1, bc.beta)
				m, err := NewModel(pl, pr)
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					r, err := RoundTime(m, relays)
					if err != nil {
						b.Fatal(err)
					}
					if (r.T > r.TL) != (bc.name == "root") {
						b.Fatalf("T %g, T_L %g: not the %s regime", r.T, r.TL, bc.name)
					}
				}
			})
		}
	}
}

// BenchmarkRound is the whole round for P = 100,000 in 100 clusters: the
// model (with the platform's validation), T (§3), and the layout of its
// transfers (§4).
func BenchmarkRound(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			pl, pr := benchInstance(100, 1000, 1, bc.beta)
			for b.Loop() {
				m, err := NewModel(pl, pr)
				if err != nil {
					b.Fatal(err)
				}
				r, err := RoundTime(m, true)
				if err != nil {
					b.Fatal(err)
				}
				trs, _, err := RoundLayout(m, r)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := NewExpansion(m, r, trs); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(trs)), "transfers")
			}
		})
	}
}

// BenchmarkPlan is the multicluster policy, R chosen by BestRounds, for
// P = 10,000 in 10 clusters.
func BenchmarkPlan(b *testing.B) {
	pl, pr := benchInstance(10, 1000, 2, 0.05)
	e, _ := policies.Lookup("multicluster")
	for b.Loop() {
		s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(s.Actions)), "actions")
		b.ReportMetric(s.Metrics["R"], "R")
	}
}

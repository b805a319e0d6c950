package divisiblelp

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// benchCrossbar is a half-duplex crossbar of p processors with start-up
// latency and overlap, a third of them loaded.
func benchCrossbar(p int) *models.Platform {
	r := rand.New(rand.NewPCG(5, uint64(p)))
	cb := &models.Crossbar{Beta: 0.01, Alpha: 0.001, Duplex: models.HalfDuplex}
	for i := range p {
		g := 0.05 + 0.15*r.Float64()
		proc := models.Processor{Gamma: g, Overlap: map[string]float64{models.KindSend: 2 * g, models.KindRecv: 2 * g}}
		if i%3 == 0 {
			proc.Load = 100 * r.Float64()
		}
		cb.Processors = append(cb.Processors, proc)
	}
	return &models.Platform{Crossbar: cb}
}

// benchMultiCluster is p/10 clusters of 10 processors, β_j from 0.6 β to
// 1.4 β (outside paper 001's assumptions where above β), a third of the
// processors loaded.
func benchMultiCluster(p int) *models.Platform {
	r := rand.New(rand.NewPCG(6, uint64(p)))
	mc := &models.MultiCluster{Beta: 0.02, Alpha: 0.0005}
	for j := range p / 10 {
		c := models.Cluster{Beta: mc.Beta * (0.6 + 0.8*float64(j%5)/4)}
		for i := range 10 {
			g := 0.05 + 0.15*r.Float64()
			proc := models.Processor{Gamma: g, Overlap: map[string]float64{}}
			for _, k := range models.MultiClusterKinds {
				proc.Overlap[k] = g * (1 + 2*r.Float64())
			}
			if i%3 == 0 {
				proc.Load = 100 * r.Float64()
			}
			c.Processors = append(c.Processors, proc)
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	return &models.Platform{MultiCluster: mc}
}

// BenchmarkPlan is divisible-lp's whole plan (optimal round, layout,
// expansion into rounds chosen automatically) on crossbars of 100 and
// 1,000 processors and a multi-cluster of 100 (results/benchmarks.md,
// "divisible-lp at 100 and 1,000 processors").
func BenchmarkPlan(b *testing.B) {
	e, _ := policies.Lookup(Name)
	for _, c := range []struct {
		name string
		pl   *models.Platform
	}{
		{"crossbar/P=100", benchCrossbar(100)},
		{"crossbar/P=1000", benchCrossbar(1000)},
		{"multicluster/P=100", benchMultiCluster(100)},
	} {
		in := policies.Instance{Platform: c.pl, Problem: &models.Problem{Divisible: &models.Divisible{}}}
		b.Run(c.name, func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				s, err := e.Planner.Plan(context.Background(), in)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(s.Metrics["mixed_clusters"], "mixed-clusters")
			}
			b.ReportMetric((cputime.Process()-cpu)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

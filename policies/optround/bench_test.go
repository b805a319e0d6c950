package optround

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/models"
)

// benchProcessors draws n processors with overlap, a third of them loaded.
func benchProcessors(r *rand.Rand, n int, kinds []string) []models.Processor {
	ps := make([]models.Processor, n)
	for i := range ps {
		ps[i] = models.Processor{Gamma: 0.5 + 2*r.Float64(), Overlap: map[string]float64{}}
		if i%3 == 0 {
			ps[i].Load = 100 * r.Float64()
		}
		for _, k := range kinds {
			ps[i].Overlap[k] = ps[i].Gamma * (1 + 2*r.Float64())
		}
	}
	return ps
}

// BenchmarkLP is the cost of the optimal round against the number of
// processors P: a half-duplex crossbar with results, and a multi-cluster
// of clusters of 10 (results/benchmarks.md, "divisible-lp").
func BenchmarkLP(b *testing.B) {
	for _, p := range []int{10, 50, 100, 200, 500, 1000} {
		r := rand.New(rand.NewPCG(4, uint64(p)))
		cb := &models.Platform{Crossbar: &models.Crossbar{Beta: 0.1, Duplex: models.HalfDuplex,
			Processors: benchProcessors(r, p, []string{models.KindSend, models.KindRecv})}}
		pr := &models.Problem{Divisible: &models.Divisible{CollectResults: true, ResultSize: 0.3}}
		b.Run(fmt.Sprintf("crossbar/P=%d", p), func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := Crossbar(context.Background(), cb, pr); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-cpu)*1e3/float64(b.N), "cpu-ms/op")
		})
		mc := &models.MultiCluster{Beta: 0.2}
		for j := range p / 10 {
			mc.Clusters = append(mc.Clusters, models.Cluster{Beta: 0.02 + 0.01*float64(j%5),
				Processors: benchProcessors(r, 10, models.MultiClusterKinds)})
		}
		b.Run(fmt.Sprintf("multicluster/P=%d", p), func(b *testing.B) {
			if p > 500 {
				b.Skip("the dense simplex takes minutes beyond 500 processors")
			}
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := MultiCluster(context.Background(), &models.Platform{MultiCluster: mc}, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-cpu)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

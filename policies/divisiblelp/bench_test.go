package divisiblelp

import (
	"context"
	"fmt"
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

// BenchmarkPlan is divisible-lp's whole plan (optimal round, matching,
// expansion into rounds chosen automatically) on crossbars of 100 and
// 1,000 processors (results/benchmarks.md, "divisible-lp").
func BenchmarkPlan(b *testing.B) {
	e, _ := policies.Lookup(Name)
	for _, p := range []int{100, 1000} {
		in := policies.Instance{Platform: benchCrossbar(p), Problem: &models.Problem{Divisible: &models.Divisible{}}}
		b.Run(fmt.Sprintf("crossbar/P=%d", p), func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := e.Planner.Plan(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-cpu)*1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

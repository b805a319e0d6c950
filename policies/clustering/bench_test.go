package clustering

import (
	"context"
	"testing"

	"github.com/netsched/netsched/internal/cputime"

	"github.com/netsched/netsched/models"
)

// benchRun times one run of a recursive algorithm (K = 10), the unit of
// paper 002 Tables 2 and 7, at ρ = 3.
func benchRun(b *testing.B, name string, g *models.DAG) {
	p, err := prepare(g)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := recursiveAlgorithm(name).run(ctx, p, 3, Params{K: DefaultK, Runs: 1, Seed: uint64(i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCrossASTG302 is one Cross-A run on the first 302-task STG graph
// (paper: 145 ms on a 3.2 GHz Pentium).
func BenchmarkCrossASTG302(b *testing.B) { benchRun(b, "cross", loadSTGSet(b, "rand300")[0]) }

// BenchmarkCrossAFFT1151 is one Cross-A run on the 1151-task FFT graph
// (paper's nearest figure: 2.7 s for 1252 tasks).
func BenchmarkCrossAFFT1151(b *testing.B) {
	g, _ := models.FFT(128)
	benchRun(b, "cross", g)
}

func BenchmarkConvexASTG302(b *testing.B) { benchRun(b, "convex", loadSTGSet(b, "rand300")[0]) }

func BenchmarkCASS2STG302(b *testing.B) {
	g := loadSTGSet(b, "rand300")[0]
	for b.Loop() {
		if _, err := CASS2(g, 3); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDSCSTG302(b *testing.B) {
	g := loadSTGSet(b, "rand300")[0]
	for b.Loop() {
		if _, err := DSC(g, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDSC times DSC at ρ = 3 on the shapes of issue 20: a fork-join
// (2,000 middle tasks), an STG-like graph of 1,252 tasks whose exit has
// 562 predecessors of a single successor, and random layered graphs of
// 10^5 and 10^6 tasks (width 1,000, one to three predecessors each,
// weights 1…10). cpu-ms/op is the CPU time of the process per run (the
// garbage collector's included), steadier than the wall time on a shared
// machine.
func BenchmarkDSC(b *testing.B) {
	cases := []struct {
		name string
		g    func() *models.DAG
	}{
		{"forkjoin2000", func() *models.DAG { return forkJoin(2000) }},
		{"wideexit1252", func() *models.DAG { return wideExit(1, 688, 562) }},
		{"layered1e5", func() *models.DAG { return layeredDAG(1, 100_000, 1000, 3, 10, 0) }},
		{"layered1e6", func() *models.DAG { return layeredDAG(1, 1_000_000, 1000, 3, 10, 0) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			g := c.g()
			b.ReportAllocs()
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := DSC(g, 3); err != nil {
					b.Fatal(err)
				}
			}
			if cpu >= 0 {
				b.ReportMetric((cputime.Process()-cpu)*1e3/float64(b.N), "cpu-ms/op")
			}
		})
	}
}

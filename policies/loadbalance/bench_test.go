package loadbalance

import (
	"context"
	"testing"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// BenchmarkPaper plans paper 003's experiment (700 tasks, 7 processors,
// three threads each, run as actors) with every policy. cpu-ns/op is the
// process's CPU time per plan.
func BenchmarkPaper(b *testing.B) {
	pl, pr := PaperInstance()
	for _, name := range allPolicies {
		p, _ := Lookup(name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := p.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-cpu)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkReplayPaper replays power-diff's schedule of paper 003's
// experiment on the workstations platform (timed).
func BenchmarkReplayPaper(b *testing.B) {
	pl, pr := PaperInstance()
	p, _ := Lookup(PowerDiff)
	s, err := p.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := replay.Replay(context.Background(), pl, s, sim.Timed); err != nil {
			b.Fatal(err)
		}
	}
}

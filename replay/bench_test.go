package replay

import (
	"context"
	"github.com/netsched/netsched/internal/fixture"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// crossbarWorkload is the pattern of issue 2's benchmark: 64 processors on
// a full-duplex crossbar, each sending 1,000 transfers of random size
// (uniform in [1, 100) units, β = 0.01) to random other processors, listed
// round-robin over the senders. Single-port contention is left to ordered
// replay.
func crossbarWorkload() (*models.Platform, *sim.Schedule) {
	const nodes, perNode = 64, 1000
	p := fixture.Crossbar(models.FullDuplex, 0.01, 0, fixture.Procs(nodes, 1)...)
	rng := rand.New(rand.NewPCG(1, 2))
	s := &sim.Schedule{Actions: make([]sim.Action, 0, nodes*perNode)}
	for range perNode {
		for i := range nodes {
			peer := (i + 1 + rng.IntN(nodes-1)) % nodes
			s.Add(sim.Action{Kind: sim.Transfer, From: i, To: peer, Amount: 1 + 99*rng.Float64()})
		}
	}
	return p, s
}

// BenchmarkCrossbarTransfers replays crossbarWorkload in ordered mode,
// trace included. One op is one replay of 64,000 transfers.
func BenchmarkCrossbarTransfers(b *testing.B) {
	p, s := crossbarWorkload()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		r, err := Replay(ctx, p, s, sim.Ordered)
		if err != nil || len(r.Violations) != 0 {
			b.Fatalf("replay: %v %v", err, r.Violations)
		}
	}
	b.ReportMetric(float64(b.N*len(s.Actions))/b.Elapsed().Seconds(), "transfers/s")
}

// BenchmarkCrossbarTransfersTimed verifies the same workload in timed mode,
// planned at the starts and ends ordered replay found (what checking a
// policy's schedule costs). One op is one replay of 64,000 transfers.
func BenchmarkCrossbarTransfersTimed(b *testing.B) {
	p, s := crossbarWorkload()
	ctx := context.Background()
	r, err := Replay(ctx, p, s, sim.Ordered)
	if err != nil {
		b.Fatal(err)
	}
	for j := range s.Actions {
		s.Actions[j].Start, s.Actions[j].End = sim.Time(r.Starts[j]), sim.Time(r.Ends[j])
	}
	s.Claimed = r.Makespan
	b.ReportAllocs()
	for b.Loop() {
		r, err := Replay(ctx, p, s, sim.Timed)
		if err != nil || !r.OK() {
			b.Fatalf("replay: %v %v", err, r.Violations)
		}
	}
	b.ReportMetric(float64(b.N*len(s.Actions))/b.Elapsed().Seconds(), "transfers/s")
}

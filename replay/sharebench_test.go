package replay

import (
	"context"
	"testing"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sim"
)

// BenchmarkCrossbarTransfersShared replays a sixteenth of crossbarWorkload
// (4,000 transfers, 64 processors) in ordered mode under max-min sharing,
// every allocation certified. One op is one replay.
func BenchmarkCrossbarTransfersShared(b *testing.B) {
	p, s := crossbarWorkload()
	s.Actions = s.Actions[:4000]
	ctx := context.Background()
	r := Replayer{Mode: sim.Ordered, Sharing: network.MaxMin}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Verify(ctx, p, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(s.Actions))/b.Elapsed().Seconds(), "transfers/s")
}

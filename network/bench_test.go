package network_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/flowgen"
)

// BenchmarkConcurrent replays n flows that all start at 0 on the two-level
// cluster of flowgen.BenchmarkCluster (8 clusters × 32 hosts, uplinks and
// a backbone), the comparison with SimGrid of results/benchmarks.md. The
// machine may be shared: cpu-s/op, the process's CPU time per replay, is
// the figure to read.
func BenchmarkConcurrent(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 10000} {
		in := flowgen.Generate(rand.New(rand.NewPCG(1, uint64(n))), flowgen.BenchmarkCluster().Topology(), flowgen.Concurrent(n))
		b.Run(fmt.Sprintf("flows=%d", n), func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := network.Replay(context.Background(), &in.Network, in.Flows, network.MaxMin); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-cpu)/float64(b.N), "cpu-s/op")
		})
	}
}

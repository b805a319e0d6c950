package broadcast

import (
	"context"
	"fmt"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/bound"
	"github.com/netsched/netsched/policies/broadcast/heuristic"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/trees"
)

// benchOptimal solves an instance to proven optimality in every iteration.
func benchOptimal(b *testing.B, in policies.Instance) {
	b.Helper()
	var nodes int64
	for b.Loop() {
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		if !res.Proven {
			b.Fatalf("not proven: best %g, bound %g", res.Schedule.Claimed, res.LowerBound)
		}
		nodes = res.Nodes
	}
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkSearchTables solves every instance of paper 004's Tables 1–4
// with both prunings (and the bound), from participant 0: the networks of
// Figs. 11–14 (families in that order), stars of 8–16 participants and
// dual-CPU trees of 4–8 nodes, and the two cluster families of 2–4 nodes.
func BenchmarkSearchTables(b *testing.B) {
	for i, f := range families() {
		ks := []int{2, 3, 4}
		if i < 2 {
			ks = []int{4, 5, 6, 7, 8}
		}
		for _, k := range ks {
			tr, err := f.build(k)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("fig%d/%s-%d", 11+i, f.name, k), func(b *testing.B) { benchOptimal(b, instanceOf(tr, trees.DefaultMessageSize, "0")) })
		}
	}
}

// BenchmarkLargest solves the largest tree of each family to proven
// optimality: 128 participants on a star, 64 in the other families.
func BenchmarkLargest(b *testing.B) {
	p := trees.DefaultNetParams()
	for _, c := range []struct {
		name  string
		build func() (*models.Tree, error)
	}{
		{"star-128", func() (*models.Tree, error) { return trees.StarTree(128, p.Gigabit) }},
		{"dual-cpu-2x32", func() (*models.Tree, error) { return trees.DualCPUTree(32, p) }},
		{"cluster-of-clusters-2x16x2", func() (*models.Tree, error) { return trees.ClusterOfClustersTree(16, p) }},
		{"unequal-clusters-2x16x(1+1)", func() (*models.Tree, error) { return trees.UnequalClustersTree(16, p) }},
	} {
		tr, err := c.build()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchOptimal(b, instanceOf(tr, trees.DefaultMessageSize, "0")) })
	}
}

// hardNodes is the node budget of BenchmarkHardFamilies, deterministic on
// any machine.
const hardNodes = 20_000

// BenchmarkHardFamilies runs the hard families of issue 21 with a node
// budget and reports what it proves: random heterogeneous trees with relays
// at 32 participants (seeds 0–9) and the three-level SMP tree at 64. The
// metrics (best makespan, lower bound, 1 when proven) are the same on
// every machine; ns/op is the time the budget takes.
func BenchmarkHardFamilies(b *testing.B) {
	for seed := range uint64(10) {
		in, err := randomHardInstance(seed, 32)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("random-32/seed%d", seed), func(b *testing.B) { benchBudget(b, in) })
	}
	tr, err := smpTree(64)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("smp-64", func(b *testing.B) { benchBudget(b, instanceOf(tr, trees.DefaultMessageSize, "0")) })
}

// benchBudget runs the search with hardNodes and reports its result.
func benchBudget(b *testing.B, in policies.Instance) {
	b.Helper()
	opt := DefaultOptions()
	opt.MaxNodes = hardNodes
	var res *Result
	for b.Loop() {
		var err error
		if res, err = Optimal(context.Background(), in, opt); err != nil {
			b.Fatal(err)
		}
	}
	proven := 0.0
	if res.Proven {
		proven = 1
	}
	b.ReportMetric(float64(res.Nodes), "nodes")
	b.ReportMetric(res.Schedule.Claimed, "best")
	b.ReportMetric(res.LowerBound, "bound")
	b.ReportMetric(res.RootBound, "root")
	b.ReportMetric(proven, "proven")
}

// BenchmarkImprove times the local search (improve) from ecef's schedule
// on random trees with relays: improveDecodes decodings per transfer, the
// time of one decoding and the best makespan found.
func BenchmarkImprove(b *testing.B) {
	const improveDecodes = 200
	for _, parts := range []int{16, 32, 64} {
		nw := hardNetwork(b, 0, parts)
		b.Run(fmt.Sprintf("random-%d", parts), func(b *testing.B) {
			var s *search
			for b.Loop() {
				s = newSearch(nw, DefaultOptions())
				if err := s.first.ecef(context.Background()); err != nil {
					b.Fatal(err)
				}
				s.first.improveFor(improveDecodes * len(s.bestMoves))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*improveDecodes*len(s.bestMoves)), "ns/decode")
			b.ReportMetric(s.best, "best")
		})
	}
}

// BenchmarkStartUp times what every search does before its first node on
// large trees: the network's tables (newNetwork), fnf's and ecef's
// schedules in time order and with backfill (the fnf and ecef policies),
// and the bounder's set-up, on random trees with relays of 256 to 2,048
// participants (seed 1) and the SMP tree of 512.
func BenchmarkStartUp(b *testing.B) {
	type tree struct {
		name string
		in   func() (policies.Instance, error)
	}
	var cases []tree
	for _, parts := range []int{256, 512, 1024, 2048} {
		cases = append(cases, tree{fmt.Sprintf("random-%d", parts), func() (policies.Instance, error) { return randomHardInstance(1, parts) }})
	}
	cases = append(cases, tree{"smp-512", func() (policies.Instance, error) {
		tr, err := smpTree(512)
		return instanceOf(tr, trees.DefaultMessageSize, "0"), err
	}})
	for _, tr := range cases {
		in, err := tr.in()
		if err != nil {
			b.Fatal(err)
		}
		nw, err := treenet.NewNetwork(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		for _, step := range []struct {
			name string
			run  func() error
		}{
			{"network", func() error { _, err := treenet.NewNetwork(ctx, in); return err }},
			{"fnf", func() error { return heuristic.FNF(ctx, heuristic.New(nw)) }},
			{"ecef", func() error { return heuristic.ECEF(ctx, heuristic.New(nw)) }},
			{"fnf-backfill", func() error { return heuristic.FNF(ctx, backfilling(nw)) }},
			{"ecef-backfill", func() error { return heuristic.ECEF(ctx, backfilling(nw)) }},
			{"bounder", func() error { _, err := bound.New(ctx, nw); return err }},
		} {
			b.Run(tr.name+"/"+step.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := step.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// backfilling is a greedy with backfill, as the fnf and ecef policies run.
func backfilling(nw *treenet.Network) *heuristic.Greedy {
	g := heuristic.New(nw)
	g.Backfill = true
	return g
}

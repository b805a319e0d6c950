package broadcast

import (
	"context"
	"fmt"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
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
			b.Run(fmt.Sprintf("fig%d/%s-%d", 11+i, f.name, k), func(b *testing.B) { benchOptimal(b, instanceOf(tr, models.DefaultMessageSize, "0")) })
		}
	}
}

// BenchmarkLargest solves the largest tree of each family to proven
// optimality: 128 participants on a star, 64 in the other families.
func BenchmarkLargest(b *testing.B) {
	p := models.DefaultNetParams()
	for _, c := range []struct {
		name  string
		build func() (*models.Tree, error)
	}{
		{"star-128", func() (*models.Tree, error) { return models.StarTree(128, p.Gigabit) }},
		{"dual-cpu-2x32", func() (*models.Tree, error) { return models.DualCPUTree(32, p) }},
		{"cluster-of-clusters-2x16x2", func() (*models.Tree, error) { return models.ClusterOfClustersTree(16, p) }},
		{"unequal-clusters-2x16x(1+1)", func() (*models.Tree, error) { return models.UnequalClustersTree(16, p) }},
	} {
		tr, err := c.build()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchOptimal(b, instanceOf(tr, models.DefaultMessageSize, "0")) })
	}
}

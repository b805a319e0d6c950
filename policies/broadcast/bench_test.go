package broadcast

import (
	"context"
	"fmt"
	"strings"
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
// with both prunings (and the bound), from participant 0.
func BenchmarkSearchTables(b *testing.B) {
	nets, err := SearchNetworks(models.DefaultNetParams())
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range nets {
		name := fmt.Sprintf("fig%d/%s", n.Figure, strings.ReplaceAll(n.Label, "×", "x"))
		b.Run(name, func(b *testing.B) { benchOptimal(b, instanceOf(n.Tree, models.DefaultMessageSize, "0")) })
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

package treenet

import (
	"context"
	"reflect"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/trees"
)

// treeInstances are broadcast instances on random trees with relays and on the
// networks of paper 004's Figs. 12–14, from participant 0.
func treeInstances(t *testing.T) []policies.Instance {
	t.Helper()
	var trs []*models.Tree
	for seed := range uint64(20) {
		tr, err := trees.RandomTree(seed, trees.DefaultRandomTreeConfig(2+int(seed)%15, int(seed)%4))
		if err != nil {
			t.Fatal(err)
		}
		trs = append(trs, tr)
	}
	p := trees.DefaultNetParams()
	for _, mk := range []func(int, trees.NetParams) (*models.Tree, error){trees.DualCPUTree, trees.ClusterOfClustersTree, trees.UnequalClustersTree} {
		tr, err := mk(3, p)
		if err != nil {
			t.Fatal(err)
		}
		trs = append(trs, tr)
	}
	var ins []policies.Instance
	for _, tr := range trs {
		root := ""
		for _, v := range tr.Nodes {
			if !v.Relay {
				root = v.Name
				break
			}
		}
		ins = append(ins, policies.Instance{Platform: &models.Platform{Tree: tr},
			Problem: &models.Problem{Broadcast: &models.Broadcast{Roots: []string{root}, Size: 1}}})
	}
	if len(ins) == 0 {
		t.Fatal("no trees")
	}
	return ins
}

// TestRoutesAreReplays checks that the routes the network keeps, builds
// and walks are replay.Routes.Route's, and the costs and rates their
// durations and bandwidths, on random trees and the networks of paper 004;
// on every other tree the network keeps no route.
func TestRoutesAreReplays(t *testing.T) {
	for i, in := range treeInstances(t) {
		nw, err := NewNetwork(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 1 {
			nw.kept = maxKeptRoutes // keep none: every route is built on use
		}
		var buf replay.Route
		nw.EachRoute(func(u, v int, walked *replay.Route) {
			want := nw.Routes.Route(u, v)
			for _, got := range []*replay.Route{walked, nw.Route(u, v), nw.RouteInto(u, v, &buf)} {
				if !reflect.DeepEqual(*got, want) {
					t.Errorf("tree %d, %s→%s: route %+v, replay's %+v", i, nw.Name(u), nw.Name(v), *got, want)
				}
			}
			if nw.Rate[u][v] != want.Bandwidth {
				t.Errorf("tree %d, %s→%s: rate %g, replay's %g", i, nw.Name(u), nw.Name(v), nw.Rate[u][v], want.Bandwidth)
			}
			if nw.Cost[u][v] != want.Duration(nw.Size) {
				t.Errorf("tree %d, %s→%s: cost %g, replay's %g", i, nw.Name(u), nw.Name(v), nw.Cost[u][v], want.Duration(nw.Size))
			}
		})
	}
}

package lower_test

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/internal/fixture"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/lower"
	_ "github.com/netsched/netsched/policies/all" // the bundled scenarios name policies
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// platforms are one platform of each kind Lower lowers, with unequal
// parameters: the bundled tree and multi-cluster scenarios, crossbars of
// both duplexes, and the network example.
func platforms(t *testing.T) map[string]*models.Platform {
	ps := map[string]*models.Platform{
		"crossbar-full": fixture.Crossbar(models.FullDuplex, 0.25, 0.5, fixture.Procs(4, 1)...),
		"crossbar-half": fixture.Crossbar(models.HalfDuplex, 0.125, 0.75, fixture.Procs(3, 1)...),
	}
	for _, name := range []string{"tree-small", "broadcast-fig14", "multicluster-two", "multicluster-beta", "../../docs/examples/network-dag.yaml"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		ps[name] = &sc.Platform
	}
	return ps
}

// transferable lists the pairs of nodes a transfer may join: on a tree,
// participants only.
func transferable(p *models.Platform) [][2]int {
	var pairs [][2]int
	n := p.NumNodes()
	for a := range n {
		for b := range n {
			if a == b || p.Tree != nil && (p.Tree.Nodes[a].Relay || p.Tree.Nodes[b].Relay) {
				continue
			}
			pairs = append(pairs, [2]int{a, b})
		}
	}
	return pairs
}

// A transfer alone on the lowered network ends when the platform's own
// model (the replay) says it arrives, for every pair of nodes.
func TestLoneTransferTakesTheIdealTime(t *testing.T) {
	const amount = 3.5
	for name, p := range platforms(t) {
		n, err := lower.Lower(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(n.HostNames) != p.NumNodes() || len(n.LinkNames) != len(n.Links) {
			t.Fatalf("%s: %d host names for %d nodes, %d link names for %d links", name, len(n.HostNames), p.NumNodes(), len(n.LinkNames), len(n.Links))
		}
		for _, pair := range transferable(p) {
			s := &sim.Schedule{}
			s.Add(fixture.Transfer(pair[0], pair[1], amount))
			r, err := replay.Replay(context.Background(), p, s, sim.Ordered)
			if err != nil {
				t.Fatal(err)
			}
			route := n.Route(pair[0], pair[1], nil)
			times, err := network.Replay(context.Background(), &n.Network, []network.Flow{{Src: pair[0], Dst: pair[1], Size: amount, Route: route}}, network.MaxMin)
			if err != nil {
				t.Fatalf("%s %v: %v", name, pair, err)
			}
			if got, want := times[0].End, r.Makespan; math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s: transfer %v alone ends at %v on the links, %v in the platform's model (route %v)", name, pair, got, want, route)
			}
		}
	}
}

// Transfers that share a port share its link: two sends from one
// full-duplex crossbar port at once each get half of 1/β, and two
// transfers between distinct pairs do not slow each other down.
func TestCrossbarPortsShare(t *testing.T) {
	const alpha, beta, a = 0.5, 0.25, 8.0
	n := lower.Crossbar(fixture.Crossbar(models.FullDuplex, beta, alpha, fixture.Procs(4, 1)...).Crossbar)
	flows := []network.Flow{
		{Src: 0, Dst: 1, Size: a, Route: n.Route(0, 1, nil)},
		{Src: 0, Dst: 2, Size: a, Route: n.Route(0, 2, nil)},
		{Src: 3, Dst: 2, Size: a, Start: 100, Route: n.Route(3, 2, nil)},
		{Src: 1, Dst: 0, Size: a, Start: 100, Route: n.Route(1, 0, nil)},
	}
	times, err := network.Replay(context.Background(), &n.Network, flows, network.MaxMin)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{alpha + 2*a*beta, alpha + 2*a*beta, 100 + alpha + a*beta, 100 + alpha + a*beta}
	for i, w := range want {
		if math.Abs(times[i].End-w) > 1e-12*w {
			t.Errorf("flow %d ends at %v, want %v", i, times[i].End, w)
		}
	}
}

// Inter-cluster transfers out of one cluster share its uplink; the
// backbone does not bind.
func TestMultiClusterUplinksShare(t *testing.T) {
	mc := &models.MultiCluster{Beta: 1, Alpha: 0, Clusters: []models.Cluster{
		{Beta: 0.5, Processors: fixture.Procs(2, 1)},
		{Beta: 0.5, Processors: fixture.Procs(2, 1)},
		{Beta: 0.5, Processors: fixture.Procs(2, 1)},
	}}
	n := lower.MultiCluster(mc)
	flows := []network.Flow{
		{Src: 0, Dst: 2, Size: 4, Route: n.Route(0, 2, nil)}, // C0 → C1
		{Src: 1, Dst: 4, Size: 4, Route: n.Route(1, 4, nil)}, // C0 → C2: shares C0's uplink-out
		{Src: 3, Dst: 5, Size: 4, Route: n.Route(3, 5, nil)}, // C1 → C2: its own uplink
	}
	times, err := network.Replay(context.Background(), &n.Network, flows, network.MaxMin)
	if err != nil {
		t.Fatal(err)
	}
	// Flows 0 and 1 share C0's uplink-out (1 unit/s): 0.5 each until both
	// end at 8; flow 2 shares C2's uplink-in with flow 1 (0.5 each) ... and
	// so ends at 8 too.
	for i, w := range []float64{8, 8, 8} {
		if math.Abs(times[i].End-w) > 1e-12*w {
			t.Errorf("flow %d ends at %v, want %v", i, times[i].End, w)
		}
	}
	if got := n.LinkNames[len(n.LinkNames)-1]; got != "backbone" {
		t.Errorf("last link %q, want the backbone", got)
	}
}

// The platforms without links are refused, naming their kind.
func TestLowerRefusesPlatformsWithoutNetwork(t *testing.T) {
	for _, name := range []string{"delay-small", "loadbalance-paper"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lower.Lower(&sc.Platform); err == nil {
			t.Errorf("%s: lowered a %s platform", name, sc.Platform.Kind())
		}
	}
}

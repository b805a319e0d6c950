package replay

import (
	"github.com/netsched/netsched/internal/fixture"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// twoClusters: C0 = {P0, P1} with β_0 = 1, C1 = {P2, P3} with β_1 = 2,
// inter-cluster β = 4, start-up α = 0.5.
func twoClusters(p0 models.Processor) *models.Platform {
	one := models.Processor{Gamma: 1}
	return &models.Platform{MultiCluster: &models.MultiCluster{Beta: 4, Alpha: 0.5, Clusters: []models.Cluster{
		{Beta: 1, Processors: []models.Processor{p0, one}},
		{Beta: 2, Processors: []models.Processor{one, one}},
	}}}
}

func TestReplayMultiCluster(t *testing.T) {
	p := twoClusters(models.Processor{Gamma: 1})
	// Inter-cluster 0.5 + 1·4 = 4.5; intra C0 0.5 + 2·1 = 2.5; intra C1
	// 0.5 + 1·2 = 2.5. Two transfers from C0 to C1 share C0's uplink-out.
	uplink := []sim.Action{fixture.Transfer(0, 2, 1), fixture.Transfer(1, 0, 2), fixture.Transfer(1, 3, 1), fixture.Transfer(3, 2, 1)}
	// P0 γ = 1, γ_intra = 2, γ_inter-send = 4: 2·½ during the intra send,
	// 4·¼ during the inter send, then 8 at rate 1.
	p0 := models.Processor{Gamma: 1, Overlap: map[string]float64{"intra": 2, models.KindInterSend: 4}}
	rated := twoClusters(p0)
	rated.MultiCluster.Alpha = 0
	rates := []sim.Action{fixture.Compute(0, 10), fixture.Transfer(0, 1, 2), fixture.Transfer(0, 2, 1, 1)}
	runCases(t, []replayCase{
		{name: "uplink serializes, intra overlaps", platform: p, actions: uplink, mode: sim.Ordered,
			starts: []float64{0, 0, 4.5, 4.5}, ends: []float64{4.5, 2.5, 9, 7}},
		{name: "uplink serializes, timed", platform: p, actions: timed([]float64{0, 0, 4.5, 4.5}, uplink...), mode: sim.Timed,
			ends: []float64{4.5, 2.5, 9, 7}},
		{name: "opposite directions overlap", platform: p, actions: []sim.Action{fixture.Transfer(0, 2, 1), fixture.Transfer(3, 1, 1)}, mode: sim.Ordered,
			starts: []float64{0, 0}, ends: []float64{4.5, 4.5}},
		{name: "uplink booked twice", platform: p, actions: timed([]float64{0, 1}, fixture.Transfer(0, 2, 1), fixture.Transfer(1, 3, 1)), mode: sim.Timed,
			ends: []float64{4.5, 5.5}, violations: []sim.Violation{v(sim.PortConflict, 1, "C0 uplink-out", 1), v(sim.PortConflict, 1, "C1 uplink-in", 1)}},
		{name: "intra and inter kinds", platform: rated, actions: rates, mode: sim.Ordered,
			starts: []float64{0, 0, 2}, ends: []float64{14, 2, 6}},
		{name: "intra and inter kinds, timed", platform: rated, actions: timed([]float64{0, 0, 2}, rates...), mode: sim.Timed,
			ends: []float64{14, 2, 6}},
	})
}

// chain: a —(b 2, d 1)— b —(b 1, d 0.5)— c, full duplex.
func chainTree() *models.Platform {
	return &models.Platform{Tree: &models.Tree{
		Nodes: []models.TreeNode{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Edges: []models.TreeEdge{
			{A: "a", B: "b", LinkParams: models.LinkParams{Bandwidth: 2, Latency: 1}},
			{A: "b", B: "c", LinkParams: models.LinkParams{Bandwidth: 1, Latency: 0.5}},
		},
	}}
}

// star: participants s, r1, r2 around relay x; s–x has bandwidth sx, the
// others 2; no latency.
func starTree(sx float64, duplex models.Duplex) *models.Platform {
	e := func(a, b string, bw float64) models.TreeEdge {
		return models.TreeEdge{A: a, B: b, LinkParams: models.LinkParams{Bandwidth: bw}, Duplex: duplex}
	}
	return &models.Platform{Tree: &models.Tree{
		Nodes: []models.TreeNode{{Name: "s"}, {Name: "x", Relay: true}, {Name: "r1"}, {Name: "r2"}},
		Edges: []models.TreeEdge{e("s", "x", sx), e("x", "r1", 2), e("x", "r2", 2)},
	}}
}

// unitChain: a — b — c, bandwidth 1 and latency 1 on every link.
func unitChain(duplex models.Duplex) *models.Platform {
	lp := models.LinkParams{Bandwidth: 1, Latency: 1}
	return &models.Platform{Tree: &models.Tree{
		Nodes: []models.TreeNode{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Edges: []models.TreeEdge{{A: "a", B: "b", LinkParams: lp, Duplex: duplex}, {A: "b", B: "c", LinkParams: lp, Duplex: duplex}},
	}}
}

func TestReplayTree(t *testing.T) {
	twoToReceivers := []sim.Action{fixture.Transfer(0, 2, 4), fixture.Transfer(0, 3, 4)}
	// b→c is busy during [1, 3) (transfer 0, latency 1); a→c reserves b→c
	// from s + 2, so it can start at 1, and arrives at 1 + 2 + 2 = 5.
	offsets := []sim.Action{fixture.Transfer(1, 2, 2), fixture.Transfer(0, 2, 2)}
	opposite := []sim.Action{fixture.Transfer(0, 1, 2), fixture.Transfer(1, 0, 2)}
	runCases(t, []replayCase{
		// Σd + D/min b = 1.5 + 4/1.
		{name: "arrival at Σd + D/min b", platform: chainTree(), actions: []sim.Action{fixture.Transfer(0, 2, 4)}, mode: sim.Ordered,
			starts: []float64{0}, ends: []float64{5.5}},
		{name: "arrival at Σd + D/min b, reverse", platform: chainTree(), actions: timed([]float64{1}, fixture.Transfer(2, 0, 4)), mode: sim.Timed,
			ends: []float64{6.5}},
		{name: "two transfers exceeding a link wait", platform: starTree(2, ""), actions: twoToReceivers, mode: sim.Ordered,
			starts: []float64{0, 2}, ends: []float64{2, 4}},
		{name: "two transfers within a link overlap", platform: starTree(4, ""), actions: twoToReceivers, mode: sim.Ordered,
			starts: []float64{0, 0}, ends: []float64{2, 2}},
		{name: "two transfers exceeding a link, timed", platform: starTree(2, ""), actions: timed([]float64{0, 1}, twoToReceivers...), mode: sim.Timed,
			ends: []float64{2, 3}, violations: []sim.Violation{v(sim.LinkOverCapacity, 1, "s→x", 1)}},
		{name: "latency offsets let a transfer start early", platform: unitChain(""), actions: offsets, mode: sim.Ordered,
			starts: []float64{0, 1}, ends: []float64{3, 5}},
		{name: "latency offsets, timed, no overlap", platform: unitChain(""), actions: timed([]float64{0, 1}, offsets...), mode: sim.Timed,
			ends: []float64{3, 5}},
		{name: "latency offsets, timed, overlap", platform: unitChain(""), actions: timed([]float64{0, 0.5}, offsets...), mode: sim.Timed,
			ends: []float64{3, 4.5}, violations: []sim.Violation{v(sim.LinkOverCapacity, 1, "b→c", 2.5)}},
		{name: "full-duplex edge: both directions at once", platform: unitChain(models.FullDuplex), actions: opposite, mode: sim.Ordered,
			starts: []float64{0, 0}, ends: []float64{3, 3}},
		{name: "half-duplex edge: directions share the capacity", platform: unitChain(models.HalfDuplex), actions: opposite, mode: sim.Ordered,
			starts: []float64{0, 2}, ends: []float64{3, 5}},
		{name: "half-duplex edge, timed", platform: unitChain(models.HalfDuplex), actions: timed([]float64{0, 0}, opposite...), mode: sim.Timed,
			ends: []float64{3, 3}, violations: []sim.Violation{v(sim.LinkOverCapacity, 1, "b→a", 1)}},
		{name: "list order on a link", platform: starTree(2, ""), actions: []sim.Action{fixture.Transfer(2, 3, 4), fixture.Transfer(0, 2, 4, 0), fixture.Transfer(0, 3, 2)},
			mode: sim.Ordered, starts: []float64{0, 2, 4}, ends: []float64{2, 4, 5}},
	})
}

func TestReplayDelay(t *testing.T) {
	p := &models.Platform{Delay: &models.Delay{Rho: 3}}
	// Task 1 follows task 0 on another processor: 2 + ρ. Task 2 follows it
	// on the same processor: no delay. Task 3 is listed after task 2 on
	// P0: it waits for it.
	acts := []sim.Action{fixture.Compute(0, 2), fixture.Compute(1, 1, 0), fixture.Compute(0, 1, 0), fixture.Compute(0, 1)}
	runCases(t, []replayCase{
		{name: "ρ across processors, none on the same", platform: p, actions: acts, mode: sim.Ordered,
			starts: []float64{0, 5, 2, 3}, ends: []float64{2, 6, 3, 4}},
		{name: "timed, as planned", platform: p, actions: timed([]float64{0, 5, 2, 3}, acts...), mode: sim.Timed,
			ends: []float64{2, 6, 3, 4}},
		{name: "sparse virtual processor ids", platform: p, actions: []sim.Action{fixture.Compute(7, 1), fixture.Compute(1000, 1, 0)}, mode: sim.Ordered,
			starts: []float64{0, 4}, ends: []float64{1, 5}},
	})
}

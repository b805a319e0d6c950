// Package trees builds the tree networks of paper 004 §6 (the star, the
// dual-CPU cluster, the cluster of clusters and the two unequal clusters of
// Figs. 11–14, with the link parameters decided in ../shared/papers/README.md)
// and seeded random trees with relays, for the broadcast policies, their
// tests and the paper's reproduction. It draws trees; package models holds
// them and checks them.
package trees

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/netsched/netsched/models"
)

// NetParams are the link parameters of the network families of paper 004
// §6 (Figs. 11–14). The paper measured its parameters but does not list
// them; DefaultNetParams gives the defaults decided in
// ../shared/papers/README.md.
type NetParams struct {
	Gigabit      models.LinkParams // switch ports of a Gigabit Ethernet cluster
	FastEthernet models.LinkParams // switch ports of a Fast Ethernet cluster
	SharedMemory models.LinkParams // between a CPU and its SMP node
}

// DefaultNetParams are the scenario defaults for paper 004 in units of MB
// and seconds: Gigabit Ethernet 125 MB/s with 50 µs latency, Fast Ethernet
// 12.5 MB/s with 100 µs, shared memory 1 GB/s with 1 µs. Messages are 1 MB.
func DefaultNetParams() NetParams {
	return NetParams{
		Gigabit:      models.LinkParams{Bandwidth: 125, Latency: 50e-6},
		FastEthernet: models.LinkParams{Bandwidth: 12.5, Latency: 100e-6},
		SharedMemory: models.LinkParams{Bandwidth: 1000, Latency: 1e-6},
	}
}

// DefaultMessageSize is the broadcast message of paper 004 §6, 1 MB in the
// units of DefaultNetParams.
const DefaultMessageSize = 1.0

// treeBuilder assembles a tree by name; participants are named by their
// MPI rank, "0", "1", ..., in the order they are added.
type treeBuilder struct {
	t     models.Tree
	ranks int
}

func (b *treeBuilder) relay(name string) string {
	b.t.Nodes = append(b.t.Nodes, models.TreeNode{Name: name, Relay: true})
	return name
}

func (b *treeBuilder) participant() string {
	name := strconv.Itoa(b.ranks)
	b.ranks++
	b.t.Nodes = append(b.t.Nodes, models.TreeNode{Name: name})
	return name
}

func (b *treeBuilder) edge(a, c string, p models.LinkParams) {
	b.t.Edges = append(b.t.Edges, models.TreeEdge{A: a, B: c, LinkParams: p, Duplex: models.FullDuplex})
}

// smp adds a dual-CPU node: a relay (the node's memory and NIC) with two
// participants on shared memory, its NIC joined to sw by link.
func (b *treeBuilder) smp(sw string, link models.LinkParams, shm models.LinkParams) {
	node := b.relay("smp" + strconv.Itoa(b.ranks/2))
	for range 2 {
		b.edge(node, b.participant(), shm)
	}
	b.edge(sw, node, link)
}

func atLeast(what string, n, min int) error {
	if n < min {
		return fmt.Errorf("%s: need at least %d, got %d", what, min, n)
	}
	return nil
}

// StarTree is Fig. 11 of paper 004: n participants, "0".."n-1", each
// joined to one switch "sw" by link.
func StarTree(n int, link models.LinkParams) (*models.Tree, error) {
	if err := atLeast("star: participants", n, 1); err != nil {
		return nil, err
	}
	var b treeBuilder
	sw := b.relay("sw")
	for range n {
		b.edge(sw, b.participant(), link)
	}
	return &b.t, nil
}

// DualCPUTree is Fig. 12 of paper 004, the 2×n dual-CPU cluster: n SMP
// nodes "smp0".."smp<n-1>" on a Gigabit switch "sw", each with two CPUs on
// shared memory; SMP k holds participants 2k and 2k+1.
func DualCPUTree(smps int, p NetParams) (*models.Tree, error) {
	if err := atLeast("dual-CPU cluster: SMP nodes", smps, 1); err != nil {
		return nil, err
	}
	var b treeBuilder
	sw := b.relay("sw")
	for range smps {
		b.smp(sw, p.Gigabit, p.SharedMemory)
	}
	return &b.t, nil
}

// ClusterOfClustersTree is Fig. 13 of paper 004, the 2×k×2 cluster of two
// uniform clusters: two Gigabit switches "sw0" and "sw1" joined by a
// Gigabit link, each with k dual-CPU SMP nodes. Cluster 0 holds
// participants 0..2k−1, cluster 1 the rest.
func ClusterOfClustersTree(smps int, p NetParams) (*models.Tree, error) {
	if err := atLeast("cluster of clusters: SMP nodes per cluster", smps, 1); err != nil {
		return nil, err
	}
	var b treeBuilder
	sw0, sw1 := b.relay("sw0"), b.relay("sw1")
	b.edge(sw0, sw1, p.Gigabit)
	for _, sw := range []string{sw0, sw1} {
		for range smps {
			b.smp(sw, p.Gigabit, p.SharedMemory)
		}
	}
	return &b.t, nil
}

// UnequalClustersTree is Fig. 14 of paper 004, the 2×k×(1+1) cluster of
// two unequal clusters: k dual-CPU SMP nodes on a Fast Ethernet switch
// "fe" (participants 0..2k−1) and k on a Gigabit switch "ge" (participants
// 2k..4k−1), the switches joined by Fast Ethernet.
//
// The figure is not in the text, so the layout is inferred: the paper's
// optimal 12-node schedule (0→6, 0→2, 6→8, 6→4, ... §6.1) sends twice
// across the clusters and spreads fast among 6..11, which fits the slow
// cluster holding the low ranks; and its model-level optima for 8, 12 and
// 16 CPUs (Table 5: 180.6, 191.4, 270.8 ms) grow like 2, 2 and 3 rounds of
// a 1 MB Fast Ethernet transfer, which needs the link between the switches
// to carry one transfer at a time, that is Fast Ethernet.
func UnequalClustersTree(smps int, p NetParams) (*models.Tree, error) {
	if err := atLeast("unequal clusters: SMP nodes per cluster", smps, 1); err != nil {
		return nil, err
	}
	var b treeBuilder
	fe, ge := b.relay("fe"), b.relay("ge")
	b.edge(fe, ge, p.FastEthernet)
	for range smps {
		b.smp(fe, p.FastEthernet, p.SharedMemory)
	}
	for range smps {
		b.smp(ge, p.Gigabit, p.SharedMemory)
	}
	return &b.t, nil
}

// RandomTreeConfig shapes the random trees of RandomTree.
type RandomTreeConfig struct {
	Participants int       // at least 1
	Relays       int       // relay nodes, placed anywhere in the tree
	Bandwidths   []float64 // each link direction draws one (few values make ties and symmetry)
	Latencies    []float64 // each link direction draws one
	Asymmetric   float64   // probability that an edge's reverse direction draws its own parameters
	HalfDuplex   float64   // probability that an edge is half duplex
}

// DefaultRandomTreeConfig has few distinct bandwidths and latencies so that
// random trees contain the ties and symmetric subtrees that paper 004's
// pruning exploits.
func DefaultRandomTreeConfig(participants, relays int) RandomTreeConfig {
	return RandomTreeConfig{
		Participants: participants, Relays: relays,
		Bandwidths: []float64{1, 2, 4}, Latencies: []float64{0, 0, 0.1, 0.25},
		Asymmetric: 0.3, HalfDuplex: 0.3,
	}
}

// RandomTree draws a tree of cfg.Participants participants ("0", "1", ...)
// and cfg.Relays relays ("r0", "r1", ...): nodes are shuffled and each
// joins a uniformly drawn earlier node. The same seed gives the same tree.
func RandomTree(seed uint64, cfg RandomTreeConfig) (*models.Tree, error) {
	if err := atLeast("random tree: participants", cfg.Participants, 1); err != nil {
		return nil, err
	}
	if cfg.Relays < 0 {
		return nil, fmt.Errorf("random tree: relays must be >= 0, got %d", cfg.Relays)
	}
	if len(cfg.Bandwidths) == 0 || len(cfg.Latencies) == 0 {
		return nil, fmt.Errorf("random tree: need at least one bandwidth and one latency to draw from")
	}
	r := rand.New(rand.NewPCG(seed, 0x7472656567656e))
	var b treeBuilder
	for range cfg.Participants {
		b.participant()
	}
	for i := range cfg.Relays {
		b.relay("r" + strconv.Itoa(i))
	}
	order := r.Perm(len(b.t.Nodes))
	draw := func() models.LinkParams {
		return models.LinkParams{
			Bandwidth: cfg.Bandwidths[r.IntN(len(cfg.Bandwidths))],
			Latency:   cfg.Latencies[r.IntN(len(cfg.Latencies))],
		}
	}
	for k := 1; k < len(order); k++ {
		e := models.TreeEdge{
			A: b.t.Nodes[order[r.IntN(k)]].Name, B: b.t.Nodes[order[k]].Name,
			LinkParams: draw(), Duplex: models.FullDuplex,
		}
		if r.Float64() < cfg.Asymmetric {
			rev := draw()
			e.Reverse = &rev
		}
		if r.Float64() < cfg.HalfDuplex {
			e.Duplex = models.HalfDuplex
		}
		b.t.Edges = append(b.t.Edges, e)
	}
	return &b.t, nil
}

// Package flowgen generates seeded flow instances for tests and
// benchmarks of package network: stars, two-level clusters with uplinks
// and a backbone, trees of switches and dumbbells, with random bandwidths
// and latencies, and traffic with bursts of simultaneous starts, equal
// sizes and flows of 0 bytes. The same seed gives the same instance.
package flowgen

import (
	"math/rand/v2"

	"github.com/netsched/netsched/network"
)

// Topology is a network with a route between every two distinct hosts.
type Topology struct {
	Name    string
	Network network.Network
	Route   func(src, dst int) []int
}

// Traffic says which flows Generate draws.
type Traffic struct {
	Flows   int     // how many
	Bursts  int     // distinct start times, drawn in [0, Horizon); 0 or 1: all start at 0
	Horizon float64 // seconds
	// Sizes is how many distinct sizes are drawn (so that flows of equal
	// size end together); 0 draws each flow's size anew.
	Sizes            int
	MinSize, MaxSize float64 // bytes, whole numbers drawn uniformly
	Zero             float64 // the fraction of flows of 0 bytes
}

// Generate draws t's flows on topo between random distinct hosts.
func Generate(rng *rand.Rand, topo Topology, t Traffic) *network.Instance {
	starts := []float64{0}
	for i := 1; i < t.Bursts; i++ {
		starts = append(starts, roundTo(rng.Float64()*t.Horizon, 1e-6))
	}
	var sizes []float64
	for range t.Sizes {
		sizes = append(sizes, drawSize(rng, t))
	}
	in := &network.Instance{Network: topo.Network}
	for range t.Flows {
		src := rng.IntN(topo.Network.Hosts)
		dst := rng.IntN(topo.Network.Hosts - 1)
		if dst >= src {
			dst++
		}
		size := drawSize(rng, t)
		if len(sizes) > 0 {
			size = sizes[rng.IntN(len(sizes))]
		}
		if rng.Float64() < t.Zero {
			size = 0
		}
		in.Flows = append(in.Flows, network.Flow{
			Src: src, Dst: dst, Size: size,
			Start: starts[rng.IntN(len(starts))],
			Route: topo.Route(src, dst),
		})
	}
	return in
}

func drawSize(rng *rand.Rand, t Traffic) float64 {
	return float64(int64(t.MinSize + rng.Float64()*(t.MaxSize-t.MinSize)))
}

// roundTo rounds x to a multiple of q, so that generated times read well.
func roundTo(x, q float64) float64 { return float64(int64(x/q)) * q }

// bandwidth is a link bandwidths drawn, in bytes per second (100 Mb/s
// to 10 Gb/s).
func bandwidth(rng *rand.Rand) float64 {
	return [...]float64{1.25e7, 1.25e8, 2.5e8, 1e9, 1.25e9}[rng.IntN(5)]
}

// latency is 0 one time in three, else a multiple of 10 µs up to 1 ms.
func latency(rng *rand.Rand) float64 {
	if rng.IntN(3) == 0 {
		return 0
	}
	return float64(1+rng.IntN(100)) * 1e-5
}

func randomLink(rng *rand.Rand) network.Link {
	return network.Link{Bandwidth: bandwidth(rng), Latency: latency(rng)}
}

// Star is hosts around one switch, each with a link of its own to it: a
// flow crosses its source's link and its destination's.
func Star(rng *rand.Rand, hosts int) Topology {
	n := network.Network{Hosts: hosts}
	for range hosts {
		n.Links = append(n.Links, randomLink(rng))
	}
	return Topology{Name: "star", Network: n, Route: func(s, d int) []int { return []int{s, d} }}
}

// Cluster is the description of a two-level cluster: Clusters clusters of
// Hosts hosts, each host with a link to its cluster's switch, each switch
// with an uplink to the backbone, one link.
type Cluster struct {
	Clusters, Hosts int
	Host, Uplink    network.Link
	Backbone        network.Link
}

// BenchmarkCluster is the two-level cluster of the speed benchmark: 8
// clusters of 32 hosts, 1 Gb/s host links (50 µs), 10 Gb/s uplinks
// (100 µs) and a 40 Gb/s backbone (1 ms).
func BenchmarkCluster() Cluster {
	return Cluster{
		Clusters: 8, Hosts: 32,
		Host:     network.Link{Bandwidth: 1.25e8, Latency: 5e-5},
		Uplink:   network.Link{Bandwidth: 1.25e9, Latency: 1e-4},
		Backbone: network.Link{Bandwidth: 5e9, Latency: 1e-3},
	}
}

// Concurrent is the traffic of the speed benchmark: n flows that all
// start at 0, of 1 to 100 MB each.
func Concurrent(n int) Traffic {
	return Traffic{Flows: n, MinSize: 1e6, MaxSize: 1e8}
}

// Topology builds c: links 0 to H−1 are the hosts' (H = Clusters×Hosts),
// then the clusters' uplinks, then the backbone. A flow within a cluster
// crosses its two hosts' links, a flow between clusters also both uplinks
// and the backbone.
func (c Cluster) Topology() Topology {
	hosts := c.Clusters * c.Hosts
	n := network.Network{Hosts: hosts}
	for range hosts {
		n.Links = append(n.Links, c.Host)
	}
	for range c.Clusters {
		n.Links = append(n.Links, c.Uplink)
	}
	n.Links = append(n.Links, c.Backbone)
	backbone := hosts + c.Clusters
	route := func(s, d int) []int {
		cs, cd := s/c.Hosts, d/c.Hosts
		if cs == cd {
			return []int{s, d}
		}
		return []int{s, hosts + cs, backbone, hosts + cd, d}
	}
	return Topology{Name: "cluster", Network: n, Route: route}
}

// RandomCluster is a two-level cluster with random links: host links alike
// within a cluster, uplinks and backbone drawn apart.
func RandomCluster(rng *rand.Rand, clusters, hosts int) Topology {
	c := Cluster{Clusters: clusters, Hosts: hosts, Host: randomLink(rng), Uplink: randomLink(rng), Backbone: randomLink(rng)}
	t := c.Topology()
	for i := range t.Network.Links {
		if i < clusters*hosts && rng.IntN(4) == 0 {
			t.Network.Links[i] = randomLink(rng)
		}
	}
	return t
}

// Tree is a random tree of switches, each switch's parent drawn among the
// earlier ones, with hosts hanging from random switches; every edge is a
// link, and a flow crosses the edges of the tree's path between its hosts.
func Tree(rng *rand.Rand, switches, hosts int) Topology {
	// nodes 0..switches-1 are switches, then the hosts; parent[v] is v's
	// parent and the link of edge (v, parent[v]) is v-1.
	parent := make([]int, switches+hosts)
	depth := make([]int, switches+hosts)
	n := network.Network{Hosts: hosts}
	for v := 1; v < switches+hosts; v++ {
		if v < switches {
			parent[v] = rng.IntN(v)
		} else {
			parent[v] = rng.IntN(switches)
		}
		depth[v] = depth[parent[v]] + 1
		n.Links = append(n.Links, randomLink(rng))
	}
	route := func(s, d int) []int {
		a, b := switches+s, switches+d
		var up, down []int
		for a != b {
			if depth[a] >= depth[b] {
				up, a = append(up, a-1), parent[a]
			} else {
				down, b = append(down, b-1), parent[b]
			}
		}
		for i := len(down) - 1; i >= 0; i-- {
			up = append(up, down[i])
		}
		return up
	}
	return Topology{Name: "tree", Network: n, Route: route}
}

// Dumbbell is two groups of hosts, each host with an access link to its
// group's router, and one link between the routers: a flow between the
// groups crosses its two access links and the middle one.
func Dumbbell(rng *rand.Rand, left, right int) Topology {
	hosts := left + right
	n := network.Network{Hosts: hosts}
	for range hosts {
		n.Links = append(n.Links, randomLink(rng))
	}
	n.Links = append(n.Links, randomLink(rng))
	route := func(s, d int) []int {
		if (s < left) == (d < left) {
			return []int{s, d}
		}
		return []int{s, hosts, d}
	}
	return Topology{Name: "dumbbell", Network: n, Route: route}
}

// Random draws one of the four kinds with a few to some tens of hosts and
// the traffic of a test: up to maxFlows flows in bursts, sizes sometimes
// equal, some of 0 bytes.
func Random(rng *rand.Rand, maxFlows int) *network.Instance {
	var topo Topology
	switch rng.IntN(4) {
	case 0:
		topo = Star(rng, 2+rng.IntN(12))
	case 1:
		topo = RandomCluster(rng, 2+rng.IntN(3), 2+rng.IntN(5))
	case 2:
		topo = Tree(rng, 1+rng.IntN(6), 2+rng.IntN(10))
	default:
		topo = Dumbbell(rng, 1+rng.IntN(5), 1+rng.IntN(5))
	}
	t := Traffic{
		Flows:   1 + rng.IntN(maxFlows),
		Bursts:  1 + rng.IntN(4),
		Horizon: 0.5,
		MinSize: 1e5, MaxSize: 1e8,
	}
	if rng.IntN(2) == 0 {
		t.Sizes = 1 + rng.IntN(3)
	}
	if rng.IntN(3) == 0 {
		t.Zero = 0.1
	}
	return Generate(rng, topo, t)
}

// Package lower turns netsched's platforms into shared networks: links
// with a bandwidth and a latency, and a route of links between every two
// hosts that exchange transfers, so that a schedule's transfers can run as
// flows under bandwidth sharing (package network; issue 38).
//
// Each platform kind with a network has its lowering, written so that a
// transfer alone on the network takes exactly the time the platform's own
// model gives it:
//
//   - a crossbar (paper 000 §2.2): each processor's port as a send link
//     and a receive link of bandwidth 1/β; the send link carries the
//     start-up latency α, the receive link none (α + a·β for a transfer
//     alone). A half-duplex port is one link for both directions, of
//     latency α/2, which every route crosses twice.
//   - a multi-cluster (paper 001): each processor's send and receive links
//     of bandwidth 1/β_j in its cluster j, the send link of latency α; each
//     cluster's uplink as an out link and an in link of bandwidth 1/β; and
//     the inter-cluster crossbar as one backbone link of bandwidth C/β for
//     C clusters, which binds no more than the uplinks do (a crossbar does
//     not block) but is there to be narrowed in the flow file.
//   - a tree (paper 004 §2): each direction of a full-duplex edge as a link
//     of its bandwidth and latency, a half-duplex edge as one link of the
//     A→B bandwidth and latency, shared by both directions (as the tree's
//     reservations share it); routes follow the tree's paths.
//   - a network (models.Network) is links already: each of its links, of
//     its bandwidth and latency, both directions sharing it, and its
//     routes.
//
// The delay and workstations platforms have no network to share, and
// Lower says so.
package lower

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
)

// Network is a platform lowered to links: the network, a name for each
// host (the platform's nodes, in order) and link, and the route of a
// transfer between two hosts.
type Network struct {
	network.Network
	HostNames []string
	LinkNames []string
	route     func(from, to int, buf []int) []int
}

// Route appends to buf the links a transfer from host from to host to
// crosses, in order, and returns it.
func (n *Network) Route(from, to int, buf []int) []int { return n.route(from, to, buf[:0]) }

// Lower lowers a validated platform to links.
func Lower(p *models.Platform) (*Network, error) {
	var n *Network
	switch kind := p.Kind(); kind {
	case models.KindCrossbar:
		n = Crossbar(p.Crossbar)
	case models.KindMultiCluster:
		n = MultiCluster(p.MultiCluster)
	case models.KindTree:
		n = Tree(p.Tree)
	case models.KindNetwork:
		n = Links(p.Network)
	default:
		return nil, fmt.Errorf("a %s platform has no network links to share (sharing lowers crossbar, multicluster, tree and network platforms)", kind)
	}
	n.HostNames = make([]string, n.Hosts)
	for i := range n.HostNames {
		n.HostNames[i] = p.NodeName(i)
	}
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("lower: %w", err)
	}
	return n, nil
}

// links builds a Network's links and their names.
type links struct{ n *Network }

func (l links) add(name string, bandwidth, latency float64) int {
	l.n.Links = append(l.n.Links, network.Link{Bandwidth: bandwidth, Latency: latency})
	l.n.LinkNames = append(l.n.LinkNames, name)
	return len(l.n.Links) - 1
}

// Crossbar lowers a crossbar: links 2i and 2i+1 are processor i's send
// and receive links (full duplex), or link i its one port (half duplex).
func Crossbar(c *models.Crossbar) *Network {
	n := &Network{Network: network.Network{Hosts: len(c.Processors)}}
	l := links{n}
	bw := 1 / c.Beta
	if c.Duplex == models.HalfDuplex {
		for i := range c.Processors {
			l.add(fmt.Sprintf("P%d port", i), bw, c.Alpha/2)
		}
		n.route = func(from, to int, buf []int) []int { return append(buf, from, to) }
		return n
	}
	for i := range c.Processors {
		l.add(fmt.Sprintf("P%d send", i), bw, c.Alpha)
		l.add(fmt.Sprintf("P%d recv", i), bw, 0)
	}
	n.route = func(from, to int, buf []int) []int { return append(buf, 2*from, 2*to+1) }
	return n
}

// MultiCluster lowers a multi-cluster: links 2i and 2i+1 are processor
// i's send and receive links; then, per cluster, its uplink out and in;
// then the backbone.
func MultiCluster(mc *models.MultiCluster) *Network {
	procs := mc.NumProcessors()
	n := &Network{Network: network.Network{Hosts: procs}}
	l := links{n}
	cluster := make([]int, procs)
	for i := range procs {
		c, _, _ := mc.Locate(i)
		cluster[i] = c
		bw := 1 / mc.Clusters[c].Beta
		l.add(fmt.Sprintf("P%d send", i), bw, mc.Alpha)
		l.add(fmt.Sprintf("P%d recv", i), bw, 0)
	}
	up := len(n.Links)
	for c := range mc.Clusters {
		name := mc.Clusters[c].Name
		if name == "" {
			name = fmt.Sprintf("C%d", c)
		}
		l.add(name+" uplink-out", 1/mc.Beta, 0)
		l.add(name+" uplink-in", 1/mc.Beta, 0)
	}
	backbone := l.add("backbone", float64(len(mc.Clusters))/mc.Beta, 0)
	n.route = func(from, to int, buf []int) []int {
		cf, ct := cluster[from], cluster[to]
		if cf == ct {
			return append(buf, 2*from, 2*to+1)
		}
		return append(buf, 2*from, up+2*cf, backbone, up+2*ct+1, 2*to+1)
	}
	return n
}

// Tree lowers a tree: link k is the tree's reservation link k (one per
// direction of a full-duplex edge, one per half-duplex edge, in edge
// order), named "a→b", or "a↔b" for a half-duplex edge.
func Tree(t *models.Tree) *Network {
	n := &Network{Network: network.Network{Hosts: len(t.Nodes)}}
	l := links{n}
	for i, e := range t.Edges {
		if e.Duplex == models.HalfDuplex {
			l.add(e.A+"↔"+e.B, e.Bandwidth, e.Latency)
			continue
		}
		rev := models.Link{Edge: i, Forward: false}
		l.add(e.A+"→"+e.B, e.Bandwidth, e.Latency)
		l.add(e.B+"→"+e.A, t.Params(rev).Bandwidth, t.Params(rev).Latency)
	}
	routes := replayRoutes(t)
	n.route = func(from, to int, buf []int) []int {
		for _, lk := range t.Path(from, to) {
			buf = append(buf, routes(lk))
		}
		return buf
	}
	return n
}

// replayRoutes numbers the links of a tree as Tree lays them out: the
// numbering of replay.Routes' reservation links.
func replayRoutes(t *models.Tree) func(models.Link) int {
	first := make([]int, len(t.Edges))
	k := 0
	for i, e := range t.Edges {
		first[i] = k
		if k++; e.Duplex != models.HalfDuplex {
			k++
		}
	}
	return func(l models.Link) int {
		if l.Forward || t.Edges[l.Edge].Duplex == models.HalfDuplex {
			return first[l.Edge]
		}
		return first[l.Edge] + 1
	}
}

// Links lowers a network platform: link k is its link k; a pair of hosts
// without a route has an empty one.
func Links(m *models.Network) *Network {
	n := &Network{Network: network.Network{Hosts: len(m.Hosts)}}
	l := links{n}
	for _, link := range m.Links {
		l.add(link.Name, link.Bandwidth, link.Latency)
	}
	routes := m.NewRoutes()
	n.route = func(from, to int, buf []int) []int {
		ids, _ := routes.Route(from, to)
		return append(buf, ids...)
	}
	return n
}

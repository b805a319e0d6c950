package replay

import (
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// links replays on a network of links (models.Network, issue 38)
// without sharing: a transfer of a units runs at the smallest bandwidth
// b of its route and crosses link i of it from s + Σ_{j≤i} d_j for a/b,
// arriving at s + Σ d + a/b; it holds every link of its route while it
// runs, so that a link carries one transfer at a time (a link-conflict
// is a port-conflict naming the link). Hosts compute as crossbar
// processors do, their rates depending on the kinds send and recv. Under
// sharing (Replayer.Sharing) the links are shared instead: see
// flowTransfers.
type links struct {
	p      *models.Platform
	routes *models.NetworkRoutes
}

func (m links) CheckAction(i int, a *sim.Action) error {
	if err := checkOnNodes(i, a, len(m.p.Network.Hosts)); err != nil || a.Kind == sim.Compute {
		return err
	}
	if _, ok := m.routes.Route(a.From, a.To); !ok {
		return actionErr(i, "to", "no route from %s to %s", m.p.NodeName(a.From), m.p.NodeName(a.To))
	}
	return nil
}

func (m links) Build(b *Builder) {
	n := m.p.Network
	hosts := len(n.Hosts)
	b.AddNodeLanes(m.p, hosts)
	b.AddProcessorPorts(hosts)
	actions := b.Actions()
	used := make([]bool, len(n.Links))
	for j := range actions {
		if a := &actions[j]; a.Kind == sim.Transfer {
			route, _ := m.routes.Route(a.From, a.To)
			for _, l := range route {
				used[l] = true
			}
		}
	}
	lane, port := make([]int, len(n.Links)), make([]Port, len(n.Links))
	for l := range n.Links {
		if used[l] {
			lane[l] = b.AddLane(n.Links[l].Name)
			port[l] = b.AddPort(lane[l], "", sim.PortConflict)
		}
	}
	b.AddProcessors(n.Hosts, models.NetworkKinds)
	var ports []Port
	for j := range actions {
		a := &actions[j]
		if a.Kind == sim.Compute {
			b.BindCompute(j, Port(a.Node))
			continue
		}
		route, _ := m.routes.Route(a.From, a.To)
		bw := math.Inf(1)
		ports = ports[:0]
		for _, l := range route {
			bw = min(bw, n.Links[l].Bandwidth)
			ports = append(ports, port[l])
		}
		b.BindTransfer(j, a.Amount/bw, ports...)
		b.BindKinds(j, bitSend, bitRecv)
		offset := 0.0
		for _, l := range route {
			offset += n.Links[l].Latency
			b.PassLink(j, lane[l], offset)
		}
	}
}

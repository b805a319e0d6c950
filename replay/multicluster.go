package replay

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// multiCluster replays on the two-level platform of paper 001.
// Processors are numbered across clusters in order and are single-port
// full duplex. A transfer inside cluster j takes Alpha + a·β_j; between
// clusters it takes Alpha + a·β and also holds the uplink-out of the
// sender's cluster and the uplink-in of the receiver's (one inter-cluster
// transfer each way at a time). Compute rates depend on the active kinds
// intra-send, intra-recv, inter-send and inter-recv.
type multiCluster struct{ p *models.Platform }

func (m multiCluster) CheckAction(i int, a *sim.Action) error {
	return checkOnNodes(i, a, m.p.MultiCluster.NumProcessors())
}

// Multi-cluster kind bits, in the order of models.MultiClusterKinds.
const (
	bitIntraSend uint8 = iota
	bitIntraRecv
	bitInterSend
	bitInterRecv
)

func (m multiCluster) Build(b *Builder) {
	mc := m.p.MultiCluster
	n := mc.NumProcessors()
	b.AddNodeLanes(m.p, n)
	b.AddProcessorPorts(n)
	send := b.AddPorts(n, " send port")
	recv := b.AddPorts(n, " recv port")
	cluster := make([]int32, n)
	for i := range n {
		c, _, _ := mc.Locate(i)
		cluster[i] = int32(c)
	}
	var upOut Port // the first uplink port; lanes follow the same order
	var upLane int
	for c := range mc.Clusters {
		for k, dir := range []string{" uplink-out", " uplink-in"} {
			lane := b.AddLane(clusterName(mc, c) + dir)
			port := b.AddPort(lane, "", sim.PortConflict)
			if c == 0 && k == 0 {
				upOut, upLane = port, lane
			}
		}
	}
	b.AddProcessors(allProcessors(mc), models.MultiClusterKinds)
	actions := b.Actions()
	for j := range actions {
		a := &actions[j]
		if a.Kind == sim.Compute {
			b.BindCompute(j, Port(a.Node))
			continue
		}
		cf, ct := cluster[a.From], cluster[a.To]
		if cf == ct {
			b.BindTransfer(j, mc.Alpha+a.Amount*mc.Clusters[cf].Beta, send+Port(a.From), recv+Port(a.To))
			b.BindKinds(j, bitIntraSend, bitIntraRecv)
			continue
		}
		out, in := 2*cf, 2*ct+1 // uplink ports and lanes, relative to the first
		b.BindTransfer(j, mc.Alpha+a.Amount*mc.Beta, send+Port(a.From), recv+Port(a.To), upOut+Port(out), upOut+Port(in))
		b.BindKinds(j, bitInterSend, bitInterRecv)
		b.PassLink(j, upLane+int(out), 0)
		b.PassLink(j, upLane+int(in), 0)
	}
}

// clusterName is a cluster's name, or "C<j>".
func clusterName(mc *models.MultiCluster, c int) string {
	if name := mc.Clusters[c].Name; name != "" {
		return name
	}
	return fmt.Sprintf("C%d", c)
}

// allProcessors lists the processors of every cluster in global order.
func allProcessors(mc *models.MultiCluster) []models.Processor {
	var ps []models.Processor
	for _, c := range mc.Clusters {
		ps = append(ps, c.Processors...)
	}
	return ps
}

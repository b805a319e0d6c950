package replay

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// multiClusterModel replays on the two-level platform of paper 001.
// Processors are numbered across clusters in order and are single-port
// full duplex. A transfer inside cluster j takes Alpha + a·β_j; between
// clusters it takes Alpha + a·β and also holds the uplink-out of the
// sender's cluster and the uplink-in of the receiver's (one inter-cluster
// transfer each way at a time). Compute rates depend on the active kinds
// intra-send, intra-recv, inter-send and inter-recv.
type multiClusterModel struct{ p *models.Platform }

func (m multiClusterModel) checkAction(i int, a *sim.Action) error {
	n := m.p.MultiCluster.NumProcessors()
	if a.Kind == sim.Compute {
		return checkNode(i, "node", a.Node, n)
	}
	return checkTransferEnds(i, a, n)
}

// Multi-cluster kind bits, in the order of models.MultiClusterKinds.
const (
	bitIntraSend uint8 = iota
	bitIntraRecv
	bitInterSend
	bitInterRecv
)

func (m multiClusterModel) build(e *engine) {
	mc := m.p.MultiCluster
	n := int32(mc.NumProcessors())
	addNodeLanes(e, m.p, int(n))
	addProcessorPorts(e, int(n))
	addPorts(e, int(n), " send port")
	addPorts(e, int(n), " recv port")
	cluster := make([]int32, n)
	for i := range n {
		c, _, _ := mc.Locate(int(i))
		cluster[i] = int32(c)
	}
	upOut, upLane := int32(len(e.ports)), int32(len(e.trace.Lanes))
	for c := range mc.Clusters {
		for _, dir := range []string{" uplink-out", " uplink-in"} {
			lane := e.trace.AddLane(clusterName(mc, c) + dir)
			e.addPort(int32(lane), "", sim.PortConflict)
		}
	}
	e.addProcessors(allProcessors(mc), models.MultiClusterKinds)
	for j := range e.s.Actions {
		a := &e.s.Actions[j]
		if a.Kind == sim.Compute {
			e.bindCompute(j, int32(a.Node))
			continue
		}
		from, to := int32(a.From), int32(a.To)
		cf, ct := cluster[from], cluster[to]
		if cf == ct {
			e.bindTransfer(j, mc.Alpha+a.Amount*mc.Clusters[cf].Beta, n+from, 2*n+to)
			e.bindKinds(j, bitIntraSend, bitIntraRecv)
			continue
		}
		out, in := 2*cf, 2*ct+1 // uplink ports and lanes, relative to the first
		e.bindTransfer(j, mc.Alpha+a.Amount*mc.Beta, n+from, 2*n+to, upOut+out, upOut+in)
		e.bindKinds(j, bitInterSend, bitInterRecv)
		e.addLink(j, upLane+out, 0, -1)
		e.addLink(j, upLane+in, 0, -1)
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

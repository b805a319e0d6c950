package replay

import (
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// crossbarModel replays on a crossbar cluster (paper 000 §2.2): a transfer
// of a units takes Alpha + a·Beta and holds the sender's send port and the
// receiver's receive port, which are one port on a half-duplex platform; a
// computation holds its processor and runs at the rate its processor's
// active kinds (send, recv) allow.
type crossbarModel struct{ p *models.Platform }

func (m crossbarModel) checkAction(i int, a *sim.Action) error {
	n := len(m.p.Crossbar.Processors)
	if a.Kind == sim.Compute {
		return checkNode(i, "node", a.Node, n)
	}
	return checkTransferEnds(i, a, n)
}

// Crossbar kind bits, in the order of models.CrossbarKinds.
const (
	bitSend uint8 = 0
	bitRecv uint8 = 1
)

func (m crossbarModel) build(e *engine) {
	c := m.p.Crossbar
	n := int32(len(c.Processors))
	addNodeLanes(e, m.p, int(n))
	addProcessorPorts(e, int(n))
	sendPort, recvPort := n, n
	if c.Duplex == models.FullDuplex {
		recvPort = 2 * n
		addPorts(e, int(n), " send port")
		addPorts(e, int(n), " recv port")
	} else {
		addPorts(e, int(n), " port")
	}
	e.addProcessors(c.Processors, models.CrossbarKinds)
	for j := range e.s.Actions {
		a := &e.s.Actions[j]
		if a.Kind == sim.Compute {
			e.bindCompute(j, int32(a.Node))
			continue
		}
		e.bindTransfer(j, c.Alpha+a.Amount*c.Beta, sendPort+int32(a.From), recvPort+int32(a.To))
		e.bindKinds(j, bitSend, bitRecv)
	}
}

// addNodeLanes adds one trace lane per node, named by the platform.
func addNodeLanes(e *engine, p *models.Platform, n int) {
	for i := range n {
		e.trace.AddLane(p.NodeName(i))
	}
}

// addProcessorPorts adds the compute slot of n processors (ports 0..n−1),
// named by their node lanes.
func addProcessorPorts(e *engine, n int) {
	addPortsOf(e, n, " processor", sim.ProcessorConflict)
}

// addPorts adds a communication port per processor, named by its node
// lane and suffix.
func addPorts(e *engine, n int, suffix string) {
	addPortsOf(e, n, suffix, sim.PortConflict)
}

func addPortsOf(e *engine, n int, suffix string, conflict sim.ViolationKind) {
	e.ports = slices.Grow(e.ports, n)
	for i := range n {
		e.addPort(int32(i), suffix, conflict)
	}
}

package replay

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// crossbar replays on a crossbar cluster (paper 000 §2.2): a transfer of
// a units takes Alpha + a·Beta and holds the sender's send port and the
// receiver's receive port, which are one port on a half-duplex platform; a
// computation holds its processor and runs at the rate its processor's
// active kinds (send, recv) allow.
type crossbar struct{ p *models.Platform }

func (m crossbar) CheckAction(i int, a *sim.Action) error {
	return checkOnNodes(i, a, len(m.p.Crossbar.Processors))
}

// Crossbar kind bits, in the order of models.CrossbarKinds.
const (
	bitSend uint8 = 0
	bitRecv uint8 = 1
)

func (m crossbar) Build(b *Builder) {
	c := m.p.Crossbar
	n := len(c.Processors)
	b.AddNodeLanes(m.p, n)
	b.AddProcessorPorts(n)
	var sendPort, recvPort Port
	if c.Duplex == models.FullDuplex {
		sendPort = b.AddPorts(n, " send port")
		recvPort = b.AddPorts(n, " recv port")
	} else {
		sendPort = b.AddPorts(n, " port")
		recvPort = sendPort
	}
	b.AddProcessors(c.Processors, models.CrossbarKinds)
	actions := b.Actions()
	for j := range actions {
		a := &actions[j]
		if a.Kind == sim.Compute {
			b.BindCompute(j, Port(a.Node))
			continue
		}
		b.BindTransfer(j, c.Alpha+a.Amount*c.Beta, sendPort+Port(a.From), recvPort+Port(a.To))
		b.BindKinds(j, bitSend, bitRecv)
	}
}

package replay

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// delay replays on the delay platform of paper 002: unboundedly many
// identical processors (Node is a virtual processor id), a computation
// takes its Amount as time, one computation at a time per processor, and a
// computation that follows one on another processor waits ρ more for its
// data. There is no network to contend for, so there are no transfers.
type delay struct{ p *models.Platform }

func (m delay) CheckAction(i int, a *sim.Action) error {
	d := m.p.Delay
	if a.Kind == sim.Transfer {
		return actionErr(i, "kind", "the delay platform has no transfer actions: data moves with the delay ρ between computations on different processors")
	}
	if d.Processors > 0 {
		return checkNode(i, "node", a.Node, d.Processors)
	}
	if a.Node < 0 {
		return actionErr(i, "node", "virtual processor %d does not exist (ids are >= 0)", a.Node)
	}
	return nil
}

func (m delay) Build(b *Builder) {
	b.SetDataDelay(m.p.Delay.Rho)
	used := b.AddUsedNodeLanes(m.p.NodeName)
	for lane := range used {
		b.AddPort(lane, " processor", sim.ProcessorConflict)
	}
	actions := b.Actions()
	for j := range actions {
		b.BindCompute(j, Port(b.Lane(actions[j].Node))) // lanes and ports alike
	}
}

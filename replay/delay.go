package replay

import (
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// delayModel replays on the delay platform of paper 002: unboundedly many
// identical processors (Node is a virtual processor id), a computation
// takes its Amount as time, one computation at a time per processor, and a
// computation that follows one on another processor waits ρ more for its
// data. There is no network to contend for, so there are no transfers.
type delayModel struct{ p *models.Platform }

func (m delayModel) checkAction(i int, a *sim.Action) error {
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

func (m delayModel) build(e *engine) {
	e.rho, e.rhoApply = m.p.Delay.Rho, true
	used := e.laneIDs[:0] // a reused engine's memory
	for j := range e.s.Actions {
		used = append(used, e.s.Actions[j].Node)
	}
	slices.Sort(used)
	used = slices.Compact(used)
	e.laneIDs, e.lanesByID = used, true
	e.ports = slices.Grow(e.ports, len(used))
	e.trace.Lanes = slices.Grow(e.trace.Lanes, len(used))
	for _, id := range used {
		lane := e.trace.AddLane(m.p.NodeName(id))
		e.addPort(int32(lane), " processor", sim.ProcessorConflict)
	}
	for j := range e.s.Actions {
		e.bindCompute(j, e.lane(e.s.Actions[j].Node)) // lanes and ports alike
	}
}

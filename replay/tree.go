package replay

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// treeModel replays on the tree network of paper 004 §2. A transfer of D
// from u to v runs at b = min b_i over the links of its path and reserves
// b on link i during [s + Σ_{j≤i} d_j, s + Σ_{j≤i} d_j + D/b); it arrives
// at s + Σ d + D/b. A transfer may start only when every reservation fits
// under its link's capacity; the two directions of a half-duplex edge share
// one capacity (see Routes). Nodes take part in any number of transfers at
// once; relays only forward, so transfers run between participants, and
// there is no computation.
type treeModel struct{ p *models.Platform }

func (m treeModel) checkAction(i int, a *sim.Action) error {
	t := m.p.Tree
	if a.Kind == sim.Compute {
		return actionErr(i, "kind", "a tree platform has no compute actions: it models communication only (paper 004)")
	}
	if err := checkTransferEnds(i, a, len(t.Nodes)); err != nil {
		return err
	}
	for _, end := range []struct {
		field string
		node  int
	}{{"from", a.From}, {"to", a.To}} {
		if t.Nodes[end.node].Relay {
			return actionErr(i, end.field, "node %d (%q) is a relay: only participants send and receive", end.node, t.Nodes[end.node].Name)
		}
	}
	return nil
}

func (m treeModel) build(e *engine) {
	t := m.p.Tree
	routes := NewRoutes(t)
	addNodeLanes(e, m.p, len(t.Nodes))
	type pair struct{ from, to int }
	cache := map[pair]Route{}
	used := map[models.Link]bool{}
	for j := range e.s.Actions {
		a := &e.s.Actions[j]
		rt, ok := cache[pair{a.From, a.To}]
		if !ok {
			rt = routes.Route(a.From, a.To)
			cache[pair{a.From, a.To}] = rt
		}
		for _, l := range rt.Links {
			used[l] = true
		}
	}
	// Lanes for the links in use, by edge, forward first.
	linkLane := map[models.Link]int32{}
	for i := range t.Edges {
		for _, fwd := range []bool{true, false} {
			if l := (models.Link{Edge: i, Forward: fwd}); used[l] {
				linkLane[l] = int32(e.trace.AddLane(routes.LinkName(l)))
			}
		}
	}
	e.bw = make([]float64, len(e.s.Actions))
	for j := range e.s.Actions {
		a := &e.s.Actions[j]
		rt := cache[pair{a.From, a.To}]
		e.bindTransfer(j, a.Amount/rt.Bandwidth)
		e.bw[j] = rt.Bandwidth
		for i, l := range rt.Links {
			e.addLink(j, linkLane[l], rt.Offsets[i], rt.Channels[i])
		}
	}
	e.resv = routes.NewReservations()
}

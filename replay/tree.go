package replay

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// tree replays on the tree network of paper 004 §2. A transfer of D
// from u to v runs at b = min b_i over the links of its path and reserves
// b on link i during [s + Σ_{j≤i} d_j, s + Σ_{j≤i} d_j + D/b); it arrives
// at s + Σ d + D/b. A transfer may start only when every reservation fits
// under its link's capacity; the two directions of a half-duplex edge share
// one capacity (see Routes). Nodes take part in any number of transfers at
// once; relays only forward, so transfers run between participants, and
// there is no computation.
type tree struct{ p *models.Platform }

func (m tree) CheckAction(i int, a *sim.Action) error {
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

func (m tree) Build(b *Builder) {
	t := m.p.Tree
	routes := NewRoutes(t)
	b.AddNodeLanes(m.p, len(t.Nodes))
	type pair struct{ from, to int }
	cache := map[pair]Route{}
	used := map[models.Link]bool{}
	actions := b.Actions()
	for j := range actions {
		a := &actions[j]
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
				linkLane[l] = int32(b.AddLane(routes.LinkName(l)))
			}
		}
	}
	tt := &treeTransfers{fixedTransfers: &b.e.fixed, bw: make([]float64, len(actions)), resv: routes.NewReservations()}
	for j := range actions {
		a := &actions[j]
		rt := cache[pair{a.From, a.To}]
		b.BindTransfer(j, a.Amount/rt.Bandwidth)
		tt.bw[j] = rt.Bandwidth
		for i, l := range rt.Links {
			tt.addLink(j, linkLane[l], rt.Offsets[i], rt.Channels[i])
		}
	}
	b.setTransfers(tt)
}

// treeTransfers runs tree transfers: their course is fixed when they start
// (fixedTransfers, whose link numbers are those of the reservation
// calendar), and each books its bandwidth on its links over time.
type treeTransfers struct {
	*fixedTransfers
	bw    []float64         // the rate of each transfer
	resv  *sim.Reservations // bandwidth reserved
	chans []channelOrder    // ordered: schedule order per reservation link
}

// channelOrder keeps the schedule order of tree transfers on one
// reservation link in ordered replay.
type channelOrder struct {
	queue     []int32
	head      int
	lastStart float64
}

// prepareOrdered lists, per reservation link, the transfers that use it
// in schedule order.
func (tt *treeTransfers) prepareOrdered() {
	e := tt.e
	tt.chans = make([]channelOrder, tt.resv.NumLinks())
	for j := range e.acts {
		st := &e.acts[j]
		for _, ch := range tt.ch[st.lo:st.hi] {
			tt.chans[ch].queue = append(tt.chans[ch].queue, int32(j))
		}
	}
	for ch := range tt.chans {
		tt.chans[ch].lastStart = math.Inf(-1)
	}
}

// place places transfer j at the earliest time not before t its
// reservations fit, not before the transfers listed before it on its
// links started; it waits while one of them has not.
func (tt *treeTransfers) place(j int32, t float64) (float64, bool) {
	e := tt.e
	st := &e.acts[j]
	chs, offs := tt.ch[st.lo:st.hi], tt.off[st.lo:st.hi]
	for _, ch := range chs {
		c := &tt.chans[ch]
		if c.queue[c.head] != j {
			return 0, false
		}
		t = max(t, c.lastStart)
	}
	t = tt.resv.EarliestFit(t, chs, offs, st.busy, tt.bw[j])
	for _, ch := range chs {
		c := &tt.chans[ch]
		c.head++
		c.lastStart = t
		if c.head < len(c.queue) {
			e.kick(c.queue[c.head])
		}
	}
	return t, true
}

// start books transfer j's links from t — timed replay first reports
// every link the reservation would overload — and starts it.
func (tt *treeTransfers) start(j int32, t float64) {
	e := tt.e
	st := &e.acts[j]
	chs, offs, bw := tt.ch[st.lo:st.hi], tt.off[st.lo:st.hi], tt.bw[j]
	if e.mode == sim.Timed {
		for i, ch := range chs {
			if at, over := tt.resv.FirstOverload(ch, t+offs[i], st.busy, bw); over {
				e.violate(sim.LinkOverCapacity, j, e.rec.trace.Lanes[tt.lane[int(st.lo)+i]], at,
					fmt.Sprintf("%g reserved, %g more exceeds the capacity %g", tt.resv.Usage(ch, at), bw, tt.resv.Capacity(ch)))
			}
		}
	}
	tt.resv.Reserve(t, chs, offs, st.busy, bw)
	tt.fixedTransfers.start(j, t)
}

// blocker names the transfer listed before j on one of its links that
// never started, in ordered replay.
func (tt *treeTransfers) blocker(j int32) (resource, detail string, ok bool) {
	e := tt.e
	st := &e.acts[j]
	for l := st.lo; l < st.hi && tt.chans != nil; l++ {
		if c := &tt.chans[tt.ch[l]]; c.queue[c.head] != j {
			k, link := c.queue[c.head], e.rec.trace.Lanes[tt.lane[l]]
			return link, fmt.Sprintf("waits for transfer %d, listed before it on %s, which never starts (deadlock)", k, link), true
		}
	}
	return "", "", false
}

package replay

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/lower"
	"github.com/netsched/netsched/sim"
)

// flowTransfers runs transfers as flows on a shared network (issue 38):
// the platform lowered to links (package lower), whose bandwidth the
// transfers in progress share as the Sharing model says (package network).
// A transfer holds no port: the ports are links now. Its arrival is known
// only when the flows it shares links with are, so the model keeps one
// calendar event at the network's next activation or completion.
//
// It checks what the solver computed without trusting it: at every event,
// the allocation in force until the next one must pass network.Certify
// (no link above its capacity, every active flow with a saturated
// bottleneck where its share is the largest) with the routes, penalties
// and bounds the model gives, not the solver's; and each flow's bytes,
// integrated over those certified rates, must add up to its size when it
// ends. The replay returns the first failure as its error.
type flowTransfers struct {
	e       *engine
	net     *lower.Network
	sharing network.Sharing
	sim     *network.Sim

	route [][]int   // by action: the links of a transfer
	flow  []int32   // by action: its flow's ID, −1 before it starts
	act   []int32   // by flow ID: its action
	sent  []float64 // by flow ID: bytes sent at the certified rates
	rate  []float64 // by flow ID: its certified rate until the last event
	seg   []segment // by flow ID: its rate since when, for the trace
	lanes []int32   // by link: its trace lane, −1 if no transfer crosses it
	alloc network.Allocation
	spare network.Allocation // the memory of the allocation before alloc
	live  []int              // the flows not ended, in ID order
	since float64            // when alloc came in force
	ev    sim.Handle
	evSet bool
	fire  func()
	err   error

	// tamper, for tests, changes each allocation before it is checked.
	tamper func(network.Allocation)
}

// newFlowTransfers prepares the flows of e's transfers on n under sharing.
func newFlowTransfers(e *engine, n *lower.Network, sharing network.Sharing) (*flowTransfers, error) {
	s, err := network.NewSim(&n.Network, sharing)
	if err != nil {
		return nil, err
	}
	f := &flowTransfers{e: e, net: n, sharing: sharing, sim: s,
		route: make([][]int, len(e.acts)), flow: make([]int32, len(e.acts))}
	f.fire = f.onEvent
	for j := range f.flow {
		f.flow[j] = -1
	}
	return f, nil
}

// bind routes transfer j.
func (f *flowTransfers) bind(j int) {
	a := &f.e.s.Actions[j]
	f.route[j] = f.net.Route(a.From, a.To, nil)
}

// addLanes gives each link some transfer crosses a trace lane: the lane
// of its name if the platform made one (a tree's links, a cluster's
// uplinks), else a new lane, in link order ("P3 send").
func (f *flowTransfers) addLanes(b *Builder) {
	used := make([]bool, len(f.net.Links))
	for _, r := range f.route {
		for _, l := range r {
			used[l] = true
		}
	}
	existing := map[string]int32{} // a tree's links, a cluster's uplinks
	for i, name := range b.e.rec.trace.Lanes {
		existing[name] = int32(i)
	}
	f.lanes = make([]int32, len(f.net.Links))
	for l := range used {
		f.lanes[l] = -1
		if !used[l] {
			continue
		}
		name := f.net.LinkNames[l]
		if lane, ok := existing[name]; ok {
			f.lanes[l] = lane
		} else {
			f.lanes[l] = int32(b.AddLane(name))
		}
	}
}

func (f *flowTransfers) prepareOrdered() {}

// start adds transfer j's flow, starting at t, and moves the network's
// event to its next activation or completion.
func (f *flowTransfers) start(j int32, t float64) {
	a := &f.e.s.Actions[j]
	id, err := f.sim.Add(network.Flow{Src: a.From, Dst: a.To, Size: a.Amount, Start: t, Route: f.route[j]})
	if err != nil {
		f.fail(fmt.Errorf("transfer %d: %w", j, err))
		return
	}
	f.flow[j] = int32(id)
	f.act = append(f.act, j)
	f.live = append(f.live, id)
	f.sent = append(f.sent, 0)
	f.rate = append(f.rate, 0)
	f.seg = append(f.seg, segment{})
	f.wake()
}

// wake schedules the network's event at its next activation or
// completion.
func (f *flowTransfers) wake() {
	next := f.sim.Next()
	switch {
	case math.IsInf(next, 1) || f.err != nil:
		if f.evSet {
			f.e.cal.Cancel(f.ev)
			f.evSet = false
		}
	case f.evSet:
		f.ev = f.e.cal.Reschedule(f.ev, next)
	default:
		f.ev, f.evSet = f.e.cal.At(next, f.fire), true
	}
}

// onEvent moves the network to now: it counts the bytes the allocation
// in force sent since it came in force, advances the solver, checks the
// new allocation, ends the transfers whose flows ended and starts what
// waited for them.
func (f *flowTransfers) onEvent() {
	e := f.e
	f.evSet = false
	now := e.cal.Now()
	for _, sh := range f.alloc {
		f.sent[sh.ID] += sh.Rate * (now - f.since)
		f.rate[sh.ID] = sh.Rate
	}
	ended := f.sim.Advance(now)
	f.certify(now)
	for _, en := range ended {
		j := f.act[en.ID]
		f.checkBytes(j, en.ID, now)
		e.end(j)
	}
	e.drain()
	f.wake()
}

// certify takes the solver's new allocation with the model's own routes,
// penalties and bounds, and checks it (network.Certify).
func (f *flowTransfers) certify(now float64) {
	a := f.allocation(now)
	if f.tamper != nil {
		f.tamper(a)
	}
	if err := network.Certify(&f.net.Network, a); err != nil {
		f.fail(fmt.Errorf("t=%g: the flow solver's rates fail their check: %w", now, err))
	}
	f.segments(a, now)
	f.alloc, f.spare, f.since = a, f.alloc, now
}

// allocation is the allocation in force from now: every flow that has
// activated (at or before now: the solver has processed it) and not
// ended, in ID order, with the solver's rate and the replay's own route,
// penalty and bound. It is written in the memory of the allocation before
// last, and drops the flows that ended from the live ones.
func (f *flowTransfers) allocation(now float64) network.Allocation {
	a, live := f.spare[:0], f.live[:0]
	for _, id := range f.live {
		if _, ended := f.sim.End(id); ended {
			continue
		}
		live = append(live, id)
		if f.sim.Activation(id) > now {
			continue
		}
		j := f.act[id]
		lat := f.net.RouteLatency(f.route[j])
		a = append(a, network.Share{ID: id, Route: f.route[j], Rate: f.sim.Rate(id),
			Penalty: f.sharing.Penalty(lat), Bound: f.sharing.Bound(lat)})
	}
	f.live = live
	return a
}

// segment is a flow's rate since a time, and what it had sent then: the
// trace shows a transfer on its links as one interval per rate.
type segment struct {
	rate, from, sent float64
	on               bool
}

// segments records, for every flow whose rate the new allocation a
// changes (or ends), the interval at its old rate on each of its links,
// and starts the new one.
func (f *flowTransfers) segments(a network.Allocation, now float64) {
	if !f.e.rec.tracing {
		return
	}
	k := 0 // both allocations are in ID order
	for _, old := range f.alloc {
		for k < len(a) && a[k].ID < old.ID {
			k++
		}
		if k < len(a) && a[k].ID == old.ID && a[k].Rate == old.Rate {
			continue
		}
		f.closeSegment(old.ID, now)
	}
	for _, sh := range a {
		if sg := &f.seg[sh.ID]; !sg.on {
			*sg = segment{rate: sh.Rate, from: now, sent: f.sent[sh.ID], on: true}
		}
	}
}

// closeSegment records flow id's running segment on its links, up to
// now.
func (f *flowTransfers) closeSegment(id int, now float64) {
	sg := &f.seg[id]
	if !sg.on {
		return
	}
	e, j := f.e, f.act[id]
	a := &e.s.Actions[j]
	for _, l := range f.route[j] {
		if iv := e.rec.record(f.lanes[l], sim.KindLink, sg.from, now, a, j); iv != nil {
			iv.Amount = f.sent[id] - sg.sent
		}
	}
	sg.on = false
}

// checkBytes checks that flow id, of transfer j, which the solver ended
// now, sent its bytes at the certified rates: to 1e-9 relative, and to
// what its last rate sends in the solver's time tolerance (it ends flows
// within 1e-13 relative of one another together) and a time's rounding.
func (f *flowTransfers) checkBytes(j int32, id int, now float64) {
	size := f.e.s.Actions[j].Amount
	if d := math.Abs(f.sent[id] - size); d > 1e-9*max(1, size)+f.rate[id]*1e-12*max(1, now) {
		f.fail(fmt.Errorf("t=%g: transfer %d ended having sent %v of its %v at the certified rates", now, j, f.sent[id], size))
	}
}

// fail records the first failed check, which the replay returns.
func (f *flowTransfers) fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// end records transfer j, which arrived now: a send interval on its
// sender's lane from its start and a receive interval on its receiver's
// lane from its activation (its links' intervals, one per rate, are
// recorded as its rate changes).
func (f *flowTransfers) end(j int32) {
	e := f.e
	if !e.rec.tracing {
		return
	}
	a := &e.s.Actions[j]
	start, now := e.starts[j], e.cal.Now()
	act := f.sim.Activation(int(f.flow[j]))
	e.rec.record(int32(a.From), sim.KindSend, start, now, a, j)
	e.rec.record(int32(a.To), sim.KindRecv, act, now, a, j)
}

// endAt is when transfer j arrives: its flow's end, or +Inf while it runs.
func (f *flowTransfers) endAt(j int32) float64 {
	if end, ok := f.sim.End(int(f.flow[j])); ok {
		return end
	}
	return math.Inf(1)
}

func (f *flowTransfers) intervals(j int32) int { return 2 + len(f.route[j]) }

func (f *flowTransfers) blocker(int32) (string, string, bool) { return "", "", false }

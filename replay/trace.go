package replay

import "github.com/netsched/netsched/sim"

// The trace is recorded as the replay goes: a transfer leaves its
// intervals when it starts (its whole course is known then), a
// computation when it ends. The intervals are counted in advance and
// written in place, so recording allocates once per replay.

// countIntervals sizes the trace: one interval per computation; per
// transfer a send, a receive and one per link or uplink.
func (e *engine) countIntervals() int {
	n := 0
	for j := range e.acts {
		if st := &e.acts[j]; st.compute {
			n++
		} else {
			n += 2 + int(st.hi-st.lo)
		}
	}
	return n
}

// recordTransfer records transfer j started at t: a send interval on its
// sender's lane while the sender pushes the data, a receive interval on
// its receiver's lane while the data arrives, and an interval on each link
// or uplink it reserves or passes. (Transfers run on platforms whose lanes
// start with one per node, in order.)
func (e *engine) recordTransfer(j int32, t float64) {
	if !e.tracing {
		return
	}
	st := &e.acts[j]
	a := &e.s.Actions[j]
	lat := e.latency(j)
	e.record(int32(a.From), sim.KindSend, t, t+st.busy, a, j)
	e.record(int32(a.To), sim.KindRecv, t+lat, t+lat+st.busy, a, j)
	for k := st.lo; k < st.hi; k++ {
		e.record(e.linkLane[k], sim.KindLink, t+e.linkOff[k], t+e.linkOff[k]+st.busy, a, j)
	}
}

// recordCompute writes one running segment of computation j, during which
// it did amount units of work.
func (e *engine) recordCompute(j int32, start, end, amount float64) {
	if !e.tracing {
		return
	}
	a := &e.s.Actions[j]
	e.record(e.lane(a.Node), sim.KindCompute, start, end, a, j)
	e.ivs[len(e.ivs)-1].Amount = amount
}

// record writes the next interval of the trace, in place.
func (e *engine) record(lane int32, kind sim.IntervalKind, start, end float64, a *sim.Action, j int32) {
	if !e.tracing {
		return
	}
	n := len(e.ivs)
	if n == cap(e.ivs) {
		e.ivs = append(e.ivs, sim.Interval{})
	} else {
		e.ivs = e.ivs[:n+1]
	}
	iv := &e.ivs[n]
	iv.Lane, iv.Kind, iv.Start, iv.End = int(lane), kind, start, end
	iv.Amount, iv.Label, iv.Round, iv.Action = a.Amount, a.Label, a.Round, int(j)
}

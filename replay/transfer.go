package replay

import "github.com/netsched/netsched/sim"

// A transferModel runs the transfers of a replay once they start: when
// each arrives, what it books on the way and what the trace shows of it.
// The engine core decides when a transfer starts (at its planned start, or
// when its order, its data and its ports allow); the platform's model
// decides how it runs. A platform that installs none gets fixedTransfers.
type transferModel interface {
	// prepareOrdered readies ordered replay.
	prepareOrdered()
	// start starts transfer j at t and schedules its arrival with
	// engine.schedule (phaseEnd).
	start(j int32, t float64)
	// end ends transfer j, which arrived now.
	end(j int32)
	// endAt is when transfer j, which has started, arrives or is
	// expected to.
	endAt(j int32) float64
	// intervals is the number of trace intervals transfer j leaves.
	intervals(j int32) int
	// blocker names what of the model keeps transfer j from starting.
	blocker(j int32) (resource, detail string, ok bool)
}

// A placer is a transfer model that decides, in ordered replay, when a
// ready transfer starts (the tree's, which books bandwidth ahead).
type placer interface {
	// place returns the start of ready transfer j not before t, or false
	// while it must wait for something of the model's (on a tree, a
	// transfer listed before it on a link).
	place(j int32, t float64) (float64, bool)
}

// fixedTransfers runs transfers whose course is known when they start: a
// transfer keeps its sender busy for its actState.busy and arrives that
// long after its start plus its latency, the offset of the last link it
// passes. Links (a tree's, a cluster's uplinks) are trace lanes it shows
// the transfer on, at an offset from its start; a tree's booking adds
// their reservation link number (−1 for a link only passed).
type fixedTransfers struct {
	e    *engine
	lane []int32   // trace lane of each link of each transfer, by actState.lo:hi
	off  []float64 // offset from the transfer's start
	ch   []int     // reservation link number, or −1
}

// reuse empties f for the replay of e, keeping its memory.
func (f *fixedTransfers) reuse(e *engine) {
	f.e, f.lane, f.off, f.ch = e, f.lane[:0], f.off[:0], f.ch[:0]
}

// bind makes transfer j's links start after those bound so far.
func (f *fixedTransfers) bind(st *actState) {
	st.lo, st.hi = int32(len(f.lane)), int32(len(f.lane))
}

// addLink adds a link (trace lane, offset from the start, reservation link
// or −1) to transfer j, which must be the one bound last.
func (f *fixedTransfers) addLink(j int, lane int32, offset float64, ch int) {
	f.lane = append(f.lane, lane)
	f.off = append(f.off, offset)
	f.ch = append(f.ch, ch)
	f.e.acts[j].hi++
}

// latency is the time from the start of transfer j to the start of its
// arrival: the offset of its last link (Σ d on a tree, 0 elsewhere).
func (f *fixedTransfers) latency(j int32) float64 {
	if st := &f.e.acts[j]; st.hi > st.lo {
		return f.off[st.hi-1]
	}
	return 0
}

func (f *fixedTransfers) prepareOrdered() {}

// start records transfer j started at t — a send interval on its sender's
// lane while the sender pushes the data, a receive interval on its
// receiver's lane while the data arrives, an interval on each link it
// passes — and schedules its arrival. (Transfers run on platforms whose
// lanes start with one per node, in order.)
func (f *fixedTransfers) start(j int32, t float64) {
	e := f.e
	st := &e.acts[j]
	lat := f.latency(j)
	if e.rec.tracing {
		a := &e.s.Actions[j]
		e.rec.record(int32(a.From), sim.KindSend, t, t+st.busy, a, j)
		e.rec.record(int32(a.To), sim.KindRecv, t+lat, t+lat+st.busy, a, j)
		for k := st.lo; k < st.hi; k++ {
			e.rec.record(f.lane[k], sim.KindLink, t+f.off[k], t+f.off[k]+st.busy, a, j)
		}
	}
	e.schedule(j, t+lat+st.busy, phaseEnd)
}

func (f *fixedTransfers) end(int32) {}

func (f *fixedTransfers) endAt(j int32) float64 {
	return f.e.starts[j] + f.latency(j) + f.e.acts[j].busy
}

// intervals counts a send, a receive and one interval per link.
func (f *fixedTransfers) intervals(j int32) int {
	st := &f.e.acts[j]
	return 2 + int(st.hi-st.lo)
}

func (f *fixedTransfers) blocker(int32) (string, string, bool) { return "", "", false }

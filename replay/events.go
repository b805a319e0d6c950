package replay

import (
	"cmp"
	"math"
	"slices"

	"github.com/netsched/netsched/sim"
)

// ticket lends a calendar callback to the action whose event it runs, so
// that a replay allocates one closure per event pending at once rather
// than one per action.
type ticket struct {
	fn  func()
	h   sim.Handle
	act int32
}

// schedule sets the pending event of action j: at time t, doing phase. A
// pending event keeps its ticket and moves.
func (e *engine) schedule(j int32, t float64, phase uint8) {
	st := &e.acts[j]
	st.phase = phase
	if st.ev != 0 {
		tk := &e.tickets[st.ev-1]
		tk.h = e.cal.Reschedule(tk.h, t)
		return
	}
	var k int32
	if n := len(e.freeTickets); n > 0 {
		k = e.freeTickets[n-1]
		e.freeTickets = e.freeTickets[:n-1]
	} else {
		k = int32(len(e.tickets))
		if int(k) < cap(e.tickets) {
			e.tickets = e.tickets[:k+1] // a reused engine's ticket, callback and all
		} else {
			e.tickets = append(e.tickets, ticket{})
		}
	}
	tk := &e.tickets[k]
	if tk.fn == nil {
		tk.fn = func() { e.onTicket(k) }
	}
	tk.act, st.ev = j, k+1
	tk.h = e.cal.At(t, tk.fn)
}

// cancel drops the pending event of action j, if any.
func (e *engine) cancel(j int32) {
	st := &e.acts[j]
	if st.ev != 0 {
		e.cal.Cancel(e.tickets[st.ev-1].h)
		e.freeTickets = append(e.freeTickets, st.ev-1)
		st.ev = 0
	}
}

// onTicket runs the event that ticket k was lent for, and takes it back.
func (e *engine) onTicket(k int32) {
	j := e.tickets[k].act
	e.freeTickets = append(e.freeTickets, k)
	e.acts[j].ev = 0
	e.fire(j)
}

// endAt is when action j, which has started, ends or is expected to end
// (+Inf while a computation is suspended).
func (e *engine) endAt(j int32) float64 {
	switch st := &e.acts[j]; {
	case st.state == done:
		return e.ends[j]
	case st.compute:
		return e.comp.endAt(j)
	default:
		return e.xfer.endAt(j)
	}
}

// fire runs the pending event of action j.
func (e *engine) fire(j int32) {
	st := &e.acts[j]
	switch st.phase {
	case phaseReady:
		st.state = ready
		e.kick(j)
	case phaseEnd:
		e.end(j)
	}
	e.drain()
}

// plannedStart is an action and its planned start, for timed replay.
// Starts are finite and >= 0, so the bits of t order like t.
type plannedStart struct {
	t float64
	j int32
}

// timedStarts starts the actions of a timed replay at their planned
// starts: one pending event stands for all the starts to come.
type timedStarts struct {
	e       *engine
	byStart []plannedStart // the actions by planned start, then index
	next    int            // the next of them to start
	starter func()         // t.startPlanned, kept by a reused engine
}

// reuse empties ts for the replay of e, keeping its memory.
func (ts *timedStarts) reuse(e *engine) {
	ts.e, ts.byStart, ts.next = e, ts.byStart[:0], 0
}

// prepare lists the actions by planned start (ties in schedule order) and
// schedules the first start.
func (ts *timedStarts) prepare() {
	e := ts.e
	ts.byStart = resize(ts.byStart, len(e.acts))
	for j := range ts.byStart {
		ts.byStart[j] = plannedStart{t: *e.s.Actions[j].Start + 0, j: int32(j)} // + 0: no −0
	}
	byTime := func(a, b plannedStart) int {
		if c := cmp.Compare(math.Float64bits(a.t), math.Float64bits(b.t)); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	}
	if !slices.IsSortedFunc(ts.byStart, byTime) {
		slices.SortFunc(ts.byStart, byTime)
	}
	if ts.starter == nil {
		ts.starter = ts.startPlanned
	}
	if len(ts.byStart) > 0 {
		e.cal.At(ts.byStart[0].t, ts.starter)
	}
}

// startPlanned starts every action planned to start now, then schedules
// itself for the next planned start.
func (ts *timedStarts) startPlanned() {
	e := ts.e
	now := e.cal.Now()
	for ; ts.next < len(ts.byStart); ts.next++ {
		next := ts.byStart[ts.next]
		if next.t > now {
			e.cal.At(next.t, ts.starter)
			return
		}
		e.start(next.j, now)
	}
}

// start starts action j at time t (now, except for a tree transfer placed
// ahead in ordered replay).
func (e *engine) start(j int32, t float64) {
	st := &e.acts[j]
	st.state = running
	e.starts[j] = t
	for _, r := range e.ports.of(st) {
		e.acquire(r, j, t)
	}
	if st.compute {
		e.comp.start(j)
		return
	}
	e.comp.transfer(j, 1)
	e.xfer.start(j, t)
}

// end ends action j now: it releases its ports and processors' kinds,
// records its computation, and in ordered replay wakes what waits for it.
func (e *engine) end(j int32) {
	now := e.cal.Now()
	st := &e.acts[j]
	st.state = done
	e.ends[j] = now
	e.done++
	e.makespan = max(e.makespan, now)
	if st.compute {
		e.comp.end(j)
	} else {
		e.comp.transfer(j, -1)
		e.xfer.end(j)
	}
	for _, r := range e.ports.of(st) {
		p := &e.ports.ports[r]
		p.release(j)
		if e.mode == sim.Ordered {
			p.head++
			e.advance(p)
		}
	}
	if e.mode == sim.Ordered {
		e.wakeSuccessors(j, now)
	}
}

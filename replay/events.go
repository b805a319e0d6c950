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
	case st.compute && e.rated:
		return e.comp[j].endAt
	default:
		return e.starts[j] + e.latency(j) + st.busy
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

// prepareTimed lists the actions by planned start (ties in schedule order)
// and schedules the first start.
func (e *engine) prepareTimed() {
	e.byStart = resize(e.byStart, len(e.acts))
	for j := range e.byStart {
		e.byStart[j] = plannedStart{t: *e.s.Actions[j].Start + 0, j: int32(j)} // + 0: no −0
	}
	byTime := func(a, b plannedStart) int {
		if c := cmp.Compare(math.Float64bits(a.t), math.Float64bits(b.t)); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	}
	if !slices.IsSortedFunc(e.byStart, byTime) {
		slices.SortFunc(e.byStart, byTime)
	}
	if e.starter == nil {
		e.starter = e.startPlanned // one closure for every planned start, kept by a reused engine
	}
	if len(e.byStart) > 0 {
		e.cal.At(e.byStart[0].t, e.starter)
	}
}

// startPlanned starts, in timed replay, every action planned to start now,
// then schedules itself for the next planned start: one pending event
// stands for all the starts to come.
func (e *engine) startPlanned() {
	now := e.cal.Now()
	for ; e.nextStart < len(e.byStart); e.nextStart++ {
		next := e.byStart[e.nextStart]
		if next.t > now {
			e.cal.At(next.t, e.starter)
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
	for _, r := range e.portsOf(j) {
		e.acquire(r, j, t)
	}
	if st.compute {
		if e.rated {
			e.startCompute(j)
			return
		}
		e.schedule(j, t+st.busy, phaseEnd)
		return
	}
	if e.book != nil {
		e.book.reserve(j, t)
	}
	e.recordTransfer(j, t)
	if len(e.comp) > 0 { // rates matter only to computations
		a := &e.s.Actions[j]
		e.setKind(a.From, st.sendBit, 1)
		e.setKind(a.To, st.recvBit, 1)
	}
	e.schedule(j, t+e.latency(j)+st.busy, phaseEnd)
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
		a := &e.s.Actions[j]
		if !e.rated {
			e.record(e.lane(a.Node), sim.KindCompute, e.starts[j], now, a, j)
		} else if e.stopCompute(j); e.comp[j].seg >= 0 {
			e.recordCompute(j, e.comp[j].seg, now, e.comp[j].segWork)
		}
	} else if len(e.comp) > 0 {
		a := &e.s.Actions[j]
		e.setKind(a.From, st.sendBit, -1)
		e.setKind(a.To, st.recvBit, -1)
	}
	for _, r := range e.portsOf(j) {
		p := &e.ports[r]
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

package replay

import (
	"github.com/netsched/netsched/sim"
)

// prepareOrdered builds the successor lists, the port queues and, on a
// tree, the per-link schedule order, then makes ready every action that
// follows nothing.
func (e *engine) prepareOrdered() {
	e.buildSuccessors()
	e.buildQueues()
	if e.book != nil {
		e.book.prepareOrdered()
	}
	for j := range e.acts {
		if st := &e.acts[j]; e.wait == nil || e.wait[j].pending == 0 {
			st.state = ready
			if st.nres == 0 {
				e.kick(int32(j)) // a tree transfer: its links decide
			}
		}
	}
	for r := range e.ports {
		e.advance(&e.ports[r])
	}
	e.drain()
}

// buildSuccessors counts each action's pending predecessors and inverts
// the After lists (an action listed twice in an After list is a successor
// twice, and pending twice).
func (e *engine) buildSuccessors() {
	edges := 0
	for j := range e.s.Actions {
		edges += len(e.s.Actions[j].After)
	}
	if edges == 0 {
		return
	}
	n := len(e.acts)
	e.wait = make([]waitState, n)
	for j := range e.s.Actions {
		e.wait[j].pending = int32(len(e.s.Actions[j].After))
	}
	e.succStart = make([]int32, n+1)
	for j := range e.s.Actions {
		for _, i := range e.s.Actions[j].After {
			e.succStart[i+1]++
		}
	}
	for i := 1; i <= n; i++ {
		e.succStart[i] += e.succStart[i-1]
	}
	e.succ = make([]int32, edges)
	fill := make([]int32, n)
	copy(fill, e.succStart[:n])
	for j := range e.s.Actions {
		for _, i := range e.s.Actions[j].After {
			e.succ[fill[i]] = int32(j)
			fill[i]++
		}
	}
}

// wakeSuccessors counts the end of action i, now, for every action that
// follows it.
func (e *engine) wakeSuccessors(i int32, now float64) {
	if e.wait == nil {
		return
	}
	for _, k := range e.succ[e.succStart[i]:e.succStart[i+1]] {
		w := &e.wait[k]
		w.readyAt = max(w.readyAt, now+e.lag(i, k))
		if w.pending--; w.pending == 0 {
			e.becomeReady(k, now)
		}
	}
}

// lag is the time successor k waits after predecessor i ended: ρ between
// computations on different processors of the delay platform, else 0.
func (e *engine) lag(i, k int32) float64 {
	if e.rhoApply && e.s.Actions[i].Node != e.s.Actions[k].Node {
		return e.rho
	}
	return 0
}

// becomeReady makes action k ready at its readyAt: now, or through an
// event when data is still on its way.
func (e *engine) becomeReady(k int32, now float64) {
	if at := e.wait[k].readyAt; at > now {
		e.schedule(k, at, phaseReady)
		return
	}
	e.acts[k].state = ready
	e.kick(k)
}

// advance hands port p, now free, to the next action in its queue.
func (e *engine) advance(p *port) {
	if k := p.next(); k >= 0 {
		e.acts[k].heads++
		e.kick(k)
	}
}

// kick queues action k for a start attempt by drain.
func (e *engine) kick(k int32) {
	if e.mode == sim.Ordered {
		e.cands = append(e.cands, k)
	}
}

// drain tries to start every queued action, in the order they were queued
// (a start may queue more: the next transfers on a tree link).
func (e *engine) drain() {
	for i := 0; i < len(e.cands); i++ {
		e.tryStart(e.cands[i])
	}
	e.cands = e.cands[:0]
}

// tryStart starts action j if it is ready and heads the queue of every
// port it needs (the ports are then free: a port's queue advances when
// its holder ends). A transfer that books its links is placed by the
// booker (on a tree, at the earliest time its reservations fit).
func (e *engine) tryStart(j int32) {
	st := &e.acts[j]
	if st.state != ready || st.heads != st.nres {
		return
	}
	t := e.cal.Now()
	if e.book != nil {
		var ok bool
		if t, ok = e.book.place(j, t); !ok {
			return
		}
	}
	e.start(j, t)
}

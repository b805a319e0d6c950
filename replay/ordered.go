package replay

import (
	"github.com/netsched/netsched/sim"
)

// prepareOrdered builds the successor lists, the port queues and what the
// transfer model keeps of the order (on a tree, the per-link schedule
// order), then makes ready every action that follows nothing.
func (e *engine) prepareOrdered() {
	e.order.build(e.s.Actions)
	e.ports.buildQueues(e.acts)
	e.xfer.prepareOrdered()
	if e.notBefore {
		e.order.notBefore(e.s.Actions)
	}
	for j := range e.acts {
		if st := &e.acts[j]; e.order.wait == nil || e.order.wait[j].pending == 0 {
			if e.notBefore && e.order.wait[j].readyAt > 0 {
				e.schedule(int32(j), e.order.wait[j].readyAt, phaseReady)
				continue
			}
			st.state = ready
			if st.nres == 0 {
				e.kick(int32(j)) // a tree transfer: its links decide
			}
		}
	}
	for r := range e.ports.ports {
		e.advance(&e.ports.ports[r])
	}
	e.drain()
}

// ordering is what ordered replay keeps of the After lists: each action's
// successors, and what each waits for.
type ordering struct {
	succStart []int32 // successors of action i: succ[succStart[i]:succStart[i+1]]
	succ      []int32
	wait      []waitState // nil without After lists
	cands     []int32     // actions to try to start
}

// build counts each action's pending predecessors and inverts the After
// lists (an action listed twice in an After list is a successor twice,
// and pending twice).
func (o *ordering) build(actions []sim.Action) {
	edges := 0
	for j := range actions {
		edges += len(actions[j].After)
	}
	if edges == 0 {
		return
	}
	n := len(actions)
	o.wait = make([]waitState, n)
	for j := range actions {
		o.wait[j].pending = int32(len(actions[j].After))
	}
	o.succStart = make([]int32, n+1)
	for j := range actions {
		for _, i := range actions[j].After {
			o.succStart[i+1]++
		}
	}
	for i := 1; i <= n; i++ {
		o.succStart[i] += o.succStart[i-1]
	}
	o.succ = make([]int32, edges)
	fill := make([]int32, n)
	copy(fill, o.succStart[:n])
	for j := range actions {
		for _, i := range actions[j].After {
			o.succ[fill[i]] = int32(j)
			fill[i]++
		}
	}
}

// notBefore makes every action wait for its planned start.
func (o *ordering) notBefore(actions []sim.Action) {
	if o.wait == nil {
		o.wait = make([]waitState, len(actions))
	}
	for j := range actions {
		o.wait[j].readyAt = *actions[j].Start
	}
}

// wakeSuccessors counts the end of action i, now, for every action that
// follows it.
func (e *engine) wakeSuccessors(i int32, now float64) {
	o := &e.order
	if o.succStart == nil { // no After lists
		return
	}
	for _, k := range o.succ[o.succStart[i]:o.succStart[i+1]] {
		w := &o.wait[k]
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
	if at := e.order.wait[k].readyAt; at > now {
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
		e.order.cands = append(e.order.cands, k)
	}
}

// drain tries to start every queued action, in the order they were queued
// (a start may queue more: the next transfers on a tree link).
func (e *engine) drain() {
	for i := 0; i < len(e.order.cands); i++ {
		e.tryStart(e.order.cands[i])
	}
	e.order.cands = e.order.cands[:0]
}

// tryStart starts action j if it is ready and heads the queue of every
// port it needs (the ports are then free: a port's queue advances when
// its holder ends). A transfer model that is a placer places a transfer (on
// a tree, at the earliest time its reservations fit).
func (e *engine) tryStart(j int32) {
	st := &e.acts[j]
	if st.state != ready || st.heads != st.nres {
		return
	}
	t := e.cal.Now()
	if e.placer != nil && !st.compute {
		var ok bool
		if t, ok = e.placer.place(j, t); !ok {
			return
		}
	}
	e.start(j, t)
}

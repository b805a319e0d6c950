package network

import "math"

// filler computes the max-min fair levels of the connected component of
// links around some seed links by progressive filling (Bertsekas and
// Gallager, Data Networks, §6.5.2), on the entries' sums rather than on
// the flows: the link whose level (capacity left over its unfrozen
// weight) is least saturates first, freezing the flows that cross it at
// that level, and so on. A flow's anchor is its bottleneck: when a link
// saturates while some of its unfrozen flows are anchored at another
// link, those flows move to it, which is the only work done per flow.
// Bounds are virtual links of one flow each. Links outside the component
// keep their levels, which is what makes an event cheap when the network
// falls apart into independent parts.
type filler struct {
	epoch    uint32
	inComp   []uint32 // epoch at which a slot joined the component
	done     []uint32 // epoch at which a slot saturated
	seeds    []int32
	comp     []int32
	capLeft  []float64 // per slot: capacity not taken by frozen flows
	unW      []float64 // per slot: Σ weights of its unfrozen flows
	wFull    []float64 // per slot: unW when last summed in full
	unN      []int32   // per slot: its unfrozen flows
	heap     []levelAt // slots by a lower bound of their level
	unfrozen int32     // flows of the component not frozen yet
	// collect's measure of the component: events since it measured, its
	// size then, and how many slots had flows
	sinceBFS, lastComp, lastBusy int
	weighted                     bool // whether some flow's penalty is not 1
}

// levelAt is a slot and a lower bound of its level.
type levelAt struct {
	level float64
	slot  int32
}

func (p *filler) grow(n int) {
	for len(p.inComp) < n {
		p.inComp = append(p.inComp, 0)
		p.done = append(p.done, 0)
		p.capLeft = append(p.capLeft, 0)
		p.unW = append(p.unW, 0)
		p.wFull = append(p.wFull, 0)
		p.unN = append(p.unN, 0)
	}
}

// run recomputes the levels of the component of the seeds and the next
// ends of its groups.
func (p *filler) run(s *Sim, seeds []int32) {
	p.collect(s, seeds)
	p.heap = p.heap[:0]
	p.unfrozen = 0
	for _, l := range p.comp {
		p.capLeft[l] = s.capacity[l]
		w, n := s.ent.rowWeight(l), s.ent.rowN[l]
		p.unfrozen += s.ent.anchored[l]
		p.unW[l], p.wFull[l], p.unN[l] = w, w, n
		if n > 0 {
			p.heap = append(p.heap, levelAt{p.capLeft[l] / w, l})
		}
	}
	heapInit(p.heap)
	stale := 0 // stale levels met at the top since the heap was last built
	for len(p.heap) > 0 && p.unfrozen > 0 {
		top := p.heap[0]
		l := top.slot
		if p.done[l] == p.epoch || p.unN[l] == 0 {
			if stale++; 8*stale > len(p.heap) {
				p.rebuild()
				stale = 0
				continue
			}
			p.heap = heapPop(p.heap)
			continue
		}
		x := max(0, p.capLeft[l]) / p.unW[l]
		if x > top.level {
			// levels only rise as flows freeze: top.level was a lower bound
			if stale++; 8*stale > len(p.heap) {
				p.rebuild()
				stale = 0
				continue
			}
			p.heap[0].level = x
			heapDown(p.heap, 0)
			continue
		}
		p.heap = heapPop(p.heap)
		p.saturate(s, l, x)
	}
	for _, l := range p.comp {
		g := &s.groups[l]
		if p.done[l] != p.epoch {
			if math.IsInf(g.level, 1) && len(g.members) == 0 && !s.ending.has(l) {
				continue // no bottleneck before or now: nothing changed
			}
			g.advance(s.now)
			g.level = math.Inf(1)
		}
		p.reschedule(s, l)
	}
}

// rebuild gives every slot of the heap its current level and orders the
// heap again, dropping the slots with no unfrozen flow left: when many
// levels went stale (a saturation raised the levels of many links), one
// pass costs less than sifting them down one by one as they come up.
func (p *filler) rebuild() {
	h := p.heap[:0]
	for _, x := range p.heap {
		l := x.slot
		if p.done[l] == p.epoch || p.unN[l] == 0 {
			continue
		}
		h = append(h, levelAt{max(0, p.capLeft[l]) / p.unW[l], l})
	}
	p.heap = h
	heapInit(h)
}

// collect finds the slots connected to the seeds through the entries, or
// takes the seeds and every slot that has flows when the last component it
// measured was most of them: a superset of the component gives the same
// levels, and costs less than finding it. It measures again every 32
// events.
func (p *filler) collect(s *Sim, seeds []int32) {
	p.epoch++
	e := p.epoch
	p.comp = p.comp[:0]
	visit := func(l int32) {
		if p.inComp[l] != e {
			p.inComp[l] = e
			p.comp = append(p.comp, l)
		}
	}
	for _, l := range seeds {
		visit(l)
	}
	if p.sinceBFS++; p.sinceBFS < 32 && 2*p.lastComp >= p.lastBusy {
		for l := range s.lflows {
			if len(s.lflows[l]) > 0 {
				visit(int32(l))
			}
		}
		return
	}
	for i := 0; i < len(p.comp); i++ {
		l := p.comp[i]
		for _, j := range s.ent.rows[l] {
			visit(s.ent.list[j].m)
		}
		for _, j := range s.ent.cols[l] {
			visit(s.ent.list[j].k)
		}
	}
	p.sinceBFS, p.lastComp, p.lastBusy = 0, len(p.comp), s.busy
}

// saturate freezes the unfrozen flows of slot l at level x: first it
// anchors at l those anchored at a link not saturated yet, then takes
// l's column off the links the flows cross.
func (p *filler) saturate(s *Sim, l int32, x float64) {
	g := &s.groups[l]
	g.advance(s.now)
	for _, i := range s.ent.rows[l] {
		e := &s.ent.list[i]
		if e.m != l && p.done[e.m] != p.epoch {
			p.reanchor(s, l)
			break
		}
	}
	p.done[l] = p.epoch
	g.level = x
	for _, i := range s.ent.cols[l] {
		e := &s.ent.list[i]
		k, w := e.k, e.weight()
		if k == l {
			p.unfrozen -= e.n
		}
		p.unN[k] -= e.n
		p.capLeft[k] -= x * w
		p.unW[k] -= w
		if p.weighted && p.unN[k] > 0 && p.unW[k] < p.wFull[k]/16 {
			p.resum(s, k)
		}
	}
}

// reanchor moves to l the flows crossing l that are anchored at a link
// not saturated yet.
func (p *filler) reanchor(s *Sim, l int32) {
	for _, f := range s.lflows[l] {
		if m := s.anchor[f]; m != l && p.done[m] != p.epoch {
			s.groups[m].advance(s.now)
			s.move(f, l)
		}
	}
}

// resum sums slot k's unfrozen weight again from its entries. Taking the
// weights of frozen flows away one by one leaves a rounding error relative
// to the sum before, which grows relative to what is left as the sum
// shrinks; summing again when it has shrunk 16-fold keeps the level exact
// to a few ulps. (With penalties of 1, as under MaxMin, the sums are
// whole numbers and every subtraction is exact.)
func (p *filler) resum(s *Sim, k int32) {
	w := 0.0
	for _, i := range s.ent.rows[k] {
		if e := &s.ent.list[i]; p.done[e.m] != p.epoch {
			w += e.weight()
		}
	}
	p.unW[k], p.wFull[k] = w, w
}

// reschedule sets the next end of slot l's group in the ending heap.
func (p *filler) reschedule(s *Sim, l int32) {
	g := &s.groups[l]
	next := math.Inf(1)
	if len(g.members) > 0 {
		next = s.now
		if work := s.target[g.members[0]] - g.s; work > 0 {
			next += work / g.level
		}
	}
	s.nextEnd[l] = next
	h := &s.ending
	switch {
	case h.has(l) && math.IsInf(next, 1):
		h.remove(l)
	case h.has(l):
		h.fix(l)
	case !math.IsInf(next, 1):
		h.push(l)
	}
}

func levelLess(a, b levelAt) bool {
	return a.level < b.level || a.level == b.level && a.slot < b.slot
}

// The heap of levels is 4-ary: shallower than a binary heap, with the
// children of a node side by side in memory.

func heapInit(h []levelAt) {
	if len(h) < 2 {
		return
	}
	for j := (len(h) - 2) / 4; j >= 0; j-- {
		heapDown(h, j)
	}
}

func heapPop(h []levelAt) []levelAt {
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	if last > 0 {
		heapDown(h, 0)
	}
	return h
}

func heapDown(h []levelAt, j int) {
	n := len(h)
	x := h[j]
	for {
		c := 4*j + 1
		if c >= n {
			break
		}
		best := c
		for k := c + 1; k < min(c+4, n); k++ {
			if levelLess(h[k], h[best]) {
				best = k
			}
		}
		if !levelLess(h[best], x) {
			break
		}
		h[j] = h[best]
		j = best
	}
	h[j] = x
}

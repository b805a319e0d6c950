package network

import "math"

// filler recomputes the max-min allocation of the connected component of
// links and active flows around some links, by progressive filling
// (Bertsekas and Gallager, Data Networks, §6.5.2): the level of every
// unfrozen flow rises alike, weighted by 1/penalty, until a link saturates
// or a flow reaches its bound, which freezes the flows concerned. Flows
// outside the component keep their rates, which is what makes an event
// cheap when the network falls apart into independent parts.
type filler struct {
	s *Sim

	epoch     uint32
	linkSeen  []uint32 // epoch at which a link joined the component
	flowSeen  []uint32 // epoch at which a flow joined the component
	frozen    []uint32 // epoch at which a flow was frozen
	dirtySeen []uint32 // batch at which a link was marked dirty
	batch     uint32

	seeds     []int32
	links     []int32 // the component's links
	flows     []int32 // the component's active flows
	dirty     []int32
	capLeft   []float64 // per link: capacity not taken by frozen flows
	wsum      []float64 // per link: Σ 1/penalty of its unfrozen flows
	wfull     []float64 // per link: wsum when last summed in full
	weighted  bool      // whether some flow's penalty is not 1
	unfrozen  []int32   // per link: how many of its flows are unfrozen
	level     []float64 // per link: capLeft/wsum, the level at which it saturates
	boundAt   []float64 // per flow: bound×penalty, the level at which it reaches its bound
	linkHeap  keyHeap
	boundHeap keyHeap
}

func (p *filler) init(s *Sim) {
	p.s = s
	n := len(s.net.Links)
	p.linkSeen = make([]uint32, n)
	p.dirtySeen = make([]uint32, n)
	p.capLeft = make([]float64, n)
	p.wsum = make([]float64, n)
	p.wfull = make([]float64, n)
	p.unfrozen = make([]int32, n)
	p.level = make([]float64, n)
	p.linkHeap.key = &p.level
	p.linkHeap.grow(n)
	p.boundHeap.key = &p.boundAt
}

func (p *filler) grow(n int) {
	for len(p.flowSeen) < n {
		p.flowSeen = append(p.flowSeen, 0)
		p.frozen = append(p.frozen, 0)
		p.boundAt = append(p.boundAt, math.Inf(1))
	}
	p.boundHeap.grow(n)
}

// recompute gives new rates and projected ends to the component of the
// seed links.
func (p *filler) recompute(seeds []int32) {
	s := p.s
	p.collect(seeds)
	now := s.now
	for _, f := range p.flows {
		s.rem[f] = max(0, s.rem[f]-s.rate[f]*(now-s.upd[f]))
		s.upd[f] = now
	}
	p.solve()
	for _, f := range p.flows {
		switch {
		case s.rem[f] == 0:
			s.endAt[f] = now
		default:
			s.endAt[f] = now + s.rem[f]/s.rate[f] // +Inf for a rate of 0
		}
	}
	p.reschedule()
}

// collect finds the links and active flows connected to the seeds.
func (p *filler) collect(seeds []int32) {
	s := p.s
	p.epoch++
	e := p.epoch
	p.links, p.flows = p.links[:0], p.flows[:0]
	for _, l := range seeds {
		if p.linkSeen[l] != e {
			p.linkSeen[l] = e
			p.links = append(p.links, l)
		}
	}
	for i := 0; i < len(p.links); i++ {
		for _, f := range s.lflows[p.links[i]] {
			if p.flowSeen[f] == e {
				continue
			}
			p.flowSeen[f] = e
			p.flows = append(p.flows, f)
			for _, k := range s.route(f) {
				if p.linkSeen[k] != e {
					p.linkSeen[k] = e
					p.links = append(p.links, k)
				}
			}
		}
	}
}

// solve runs progressive filling on the component.
func (p *filler) solve() {
	s := p.s
	for _, l := range p.links {
		p.capLeft[l] = s.net.Links[l].Bandwidth
		p.wsum[l] = 0
		p.unfrozen[l] = 0
	}
	p.boundHeap.clear()
	for _, f := range p.flows {
		w := 1 / s.pen[f]
		for _, k := range s.route(f) {
			p.wsum[k] += w
			p.unfrozen[k]++
		}
		if !math.IsInf(s.bound[f], 1) {
			p.boundAt[f] = s.bound[f] * s.pen[f]
			p.boundHeap.add(f)
		}
	}
	p.boundHeap.init()
	p.linkHeap.clear()
	for _, l := range p.links {
		p.wfull[l] = p.wsum[l]
		if p.unfrozen[l] > 0 {
			p.level[l] = p.capLeft[l] / p.wsum[l]
			p.linkHeap.add(l)
		}
	}
	p.linkHeap.init()
	for p.linkHeap.len() > 0 || p.boundHeap.len() > 0 {
		p.batch++
		p.dirty = p.dirty[:0]
		if p.boundHeap.len() > 0 && (p.linkHeap.len() == 0 || p.boundAt[p.boundHeap.top()] < p.level[p.linkHeap.top()]) {
			f := p.boundHeap.top()
			p.freeze(f, s.bound[f])
		} else {
			l := p.linkHeap.top()
			p.linkHeap.remove(l)
			x := p.level[l]
			for _, f := range s.lflows[l] {
				if p.frozen[f] != p.epoch {
					p.freeze(f, x/s.pen[f])
				}
			}
		}
		p.updateLevels()
	}
}

// freeze fixes f's rate and takes it off its links' unfrozen flows.
func (p *filler) freeze(f int32, rate float64) {
	s := p.s
	s.rate[f] = rate
	p.frozen[f] = p.epoch
	if p.boundHeap.has(f) {
		p.boundHeap.remove(f)
	}
	w := 1 / s.pen[f]
	for _, k := range s.route(f) {
		p.capLeft[k] -= rate
		p.wsum[k] -= w
		p.unfrozen[k]--
		if p.dirtySeen[k] != p.batch {
			p.dirtySeen[k] = p.batch
			p.dirty = append(p.dirty, k)
		}
	}
}

// updateLevels restores the link heap after a freezing batch.
func (p *filler) updateLevels() {
	for _, k := range p.dirty {
		if !p.linkHeap.has(k) {
			continue
		}
		if p.unfrozen[k] == 0 {
			p.linkHeap.remove(k)
			continue
		}
		if p.weighted && p.wsum[k] < p.wfull[k]/16 {
			p.resum(k)
		}
		p.level[k] = max(0, p.capLeft[k]) / p.wsum[k]
		p.linkHeap.fix(k)
	}
}

// resum sums link k's weights again from its unfrozen flows. Subtracting
// the weights of frozen flows one by one leaves a rounding error relative
// to the sum before, which grows relative to what is left as the sum
// shrinks; summing again when it has shrunk 16-fold keeps the level exact
// to a few ulps. (With penalties of 1, as under MaxMin, the sums are
// whole numbers and every subtraction is exact.)
func (p *filler) resum(k int32) {
	s := p.s
	w := 0.0
	for _, f := range s.lflows[k] {
		if p.frozen[f] != p.epoch {
			w += 1 / s.pen[f]
		}
	}
	p.wsum[k], p.wfull[k] = w, w
}

// reschedule puts the component's flows at their new projected ends in
// the ending heap: one by one when few changed, by reordering the whole
// heap when many did.
func (p *filler) reschedule() {
	h := &p.s.ending
	if len(p.flows)*8 < h.len() {
		for _, f := range p.flows {
			if h.has(f) {
				h.fix(f)
			} else {
				h.push(f)
			}
		}
		return
	}
	for _, f := range p.flows {
		if !h.has(f) {
			h.add(f)
		}
	}
	h.init()
}

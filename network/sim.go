package network

import (
	"fmt"
	"math"
	"slices"
)

// Ended is a flow's completion: the flow Add returned ID for ended at
// Time.
type Ended struct {
	ID   int
	Time float64
}

// Sim is a flow-level simulation of a Network under a Sharing model,
// driven by an outside calendar. Its clock starts at 0.
//
// A calendar that has events of its own (a schedule's replay) runs it so:
//
//	for {
//		t := min(sim.Next(), myNext)       // sim.Next: the next activation or completion
//		if t == +Inf { break }
//		for _, e := range sim.Advance(t) { // every flow that ended at or before t
//			... react to e.ID ending at e.Time (== t), maybe sim.Add(...) at t
//		}
//		... handle my events at t, maybe sim.Add(Flow{Start: t, ...})
//	}
//
// Add takes a flow starting now or later and returns its ID (0, 1, 2,
// ... in the order of the calls); Advance(t) processes every activation
// and completion up to t in time order and moves the clock to t. Between
// two events every rate is constant: Allocation gives the active flows'
// rates (with their penalties and bounds), LinkLoads the links' loads, so
// that the caller can Certify them without trusting the solver.
//
// Completions closer than 1e-13 relative to one another happen together,
// at the earlier time: the float rounding of remaining bytes does not
// split a tie into two events.
type Sim struct {
	net     *Network
	sharing Sharing
	now     float64

	// per flow, by ID
	routeOff []int32   // flow i's route is routes[routeOff[i]:routeOff[i+1]]: its links, then its bound's virtual link if any
	routes   []int32   // the routes' link slots
	slots    []int32   // parallel to routes: the flow's index in that slot's list while active
	hasBound []bool    // whether the flow's route ends with a virtual link for its bound
	given    [][]int   // the route as given, for Allocation
	start    []float64 // Flow.Start
	size     []float64
	act      []float64 // activation: start plus route latency
	end      []float64 // end time, NaN until ended
	state    []flowState
	pen      []float64 // sharing penalty
	weight   []float64 // 1/penalty
	bound    []float64 // rate bound, +Inf for none
	anchor   []int32   // the link slot whose group the flow is in, while active
	target   []float64 // the group progress at which the flow ends
	hpos     []int32   // the flow's index in its group's member heap

	// per link slot: the network's links, then virtual links, one per
	// active flow with a finite bound, of the bound's capacity
	capacity []float64
	lflows   [][]int32 // the active flows crossing each slot
	groups   []group
	nextEnd  []float64 // the first end among each group's members
	freeVirt []int32   // virtual slots not in use
	ent      entries

	pending keyHeap // pending flows by act
	ending  keyHeap // groups by nextEnd
	active  int
	busy    int // slots with active flows

	fill filler // the solver's scratch space
}

type flowState uint8

const (
	flowPending flowState = iota
	flowActive
	flowDone
)

// tieTol is the relative distance within which completions are one event.
const tieTol = 1e-13

// NewSim returns a simulation of n under sharing at time 0, or an error
// when n is not valid.
func NewSim(n *Network, sharing Sharing) (*Sim, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	s := &Sim{net: n, sharing: sharing, routeOff: []int32{0}}
	s.pending.key = &s.act
	s.ending.key = &s.nextEnd
	for _, l := range n.Links {
		s.addSlot(l.Bandwidth)
	}
	return s, nil
}

// addSlot adds a link slot of capacity c and returns it.
func (s *Sim) addSlot(c float64) int32 {
	i := int32(len(s.capacity))
	s.capacity = append(s.capacity, c)
	s.lflows = append(s.lflows, nil)
	s.groups = append(s.groups, group{level: math.Inf(1)})
	s.nextEnd = append(s.nextEnd, math.Inf(1))
	s.ending.grow(len(s.capacity))
	s.ent.grow(len(s.capacity))
	s.fill.grow(len(s.capacity))
	return i
}

// Now is the simulation's clock.
func (s *Sim) Now() float64 { return s.now }

// Len is the number of flows added.
func (s *Sim) Len() int { return len(s.start) }

// Add adds f, which starts at f.Start ≥ Now and activates at f.Start plus
// its route's latency, and returns its ID. It is an error if f is not
// valid on the network (Network.ValidateFlow) or starts before Now.
func (s *Sim) Add(f Flow) (int, error) {
	if err := s.net.ValidateFlow(f); err != nil {
		return 0, fmt.Errorf("flow%w", err)
	}
	if f.Start < s.now {
		return 0, fmt.Errorf("flow starts at %v, before the simulation's clock %v", f.Start, s.now)
	}
	id := len(s.start)
	lat := s.net.RouteLatency(f.Route)
	for _, l := range f.Route {
		s.routes = append(s.routes, int32(l))
		s.slots = append(s.slots, -1)
	}
	bound := s.sharing.Bound(lat)
	s.hasBound = append(s.hasBound, !math.IsInf(bound, 1))
	if s.hasBound[id] {
		s.routes = append(s.routes, -1) // its virtual link, given at activation
		s.slots = append(s.slots, -1)
	}
	s.routeOff = append(s.routeOff, int32(len(s.routes)))
	s.given = append(s.given, slices.Clone(f.Route))
	s.start = append(s.start, f.Start)
	s.size = append(s.size, f.Size)
	s.act = append(s.act, f.Start+lat)
	s.end = append(s.end, math.NaN())
	s.state = append(s.state, flowPending)
	pen := s.sharing.Penalty(lat)
	s.pen = append(s.pen, pen)
	s.weight = append(s.weight, 1/pen)
	s.bound = append(s.bound, bound)
	s.anchor = append(s.anchor, -1)
	s.target = append(s.target, 0)
	s.hpos = append(s.hpos, -1)
	s.fill.weighted = s.fill.weighted || pen != 1
	s.pending.grow(id + 1)
	s.pending.push(int32(id))
	return id, nil
}

// Next is the time of the next activation or completion, +Inf when no
// flow is pending or active.
func (s *Sim) Next() float64 {
	t := math.Inf(1)
	if s.pending.len() > 0 {
		t = s.act[s.pending.top()]
	}
	if s.ending.len() > 0 {
		t = min(t, s.nextEnd[s.ending.top()])
	}
	return t
}

// Advance processes every activation and completion at or before t, in
// time order, and returns the flows that ended, in the order they ended
// (ties by ID). The clock moves to t, or to the last event when t is
// +Inf. A t before Now, or NaN, does nothing.
func (s *Sim) Advance(t float64) []Ended {
	if math.IsNaN(t) {
		return nil
	}
	var ended []Ended
	for {
		te := s.Next()
		if te > t || math.IsInf(te, 1) {
			break
		}
		ended = s.step(te, ended)
	}
	if t > s.now && !math.IsInf(t, 1) {
		s.now = t
	}
	return ended
}

// step processes the events at te: activations, then completions within
// the tie tolerance, then recomputes the rates of what they touched.
func (s *Sim) step(te float64, ended []Ended) []Ended {
	s.now = te
	seeds := s.fill.seeds[:0]
	for s.pending.len() > 0 && s.act[s.pending.top()] <= te {
		f := s.pending.top()
		s.pending.remove(f)
		if s.size[f] == 0 {
			s.state[f] = flowDone
			s.end[f] = te
			ended = append(ended, Ended{ID: int(f), Time: te})
			continue
		}
		s.activate(f)
		seeds = append(seeds, s.route(f)...)
	}
	first := len(ended)
	limit := te + math.Abs(te)*tieTol
	for s.ending.len() > 0 && s.nextEnd[s.ending.top()] <= limit {
		m := s.ending.top()
		s.ending.remove(m)
		s.nextEnd[m] = math.Inf(1)
		g := &s.groups[m]
		g.advance(te)
		seeds = append(seeds, m)
		for due := true; len(g.members) > 0; due = false {
			// the first member is due (its group's next end said so); the
			// others end with it if they end within the tie tolerance
			f := g.members[0]
			if !due && te+(s.target[f]-g.s)/g.level > limit {
				break
			}
			seeds = append(seeds, s.route(f)...)
			s.complete(f)
			ended = append(ended, Ended{ID: int(f), Time: te})
		}
	}
	sortEnded(ended[first:])
	s.fill.seeds = seeds
	if len(seeds) > 0 {
		s.fill.run(s, seeds)
	}
	return ended
}

// sortEnded orders completions of one instant by ID.
func sortEnded(e []Ended) {
	for i := 1; i < len(e); i++ {
		for j := i; j > 0 && e[j].ID < e[j-1].ID; j-- {
			e[j], e[j-1] = e[j-1], e[j]
		}
	}
}

func (s *Sim) route(f int32) []int32 { return s.routes[s.routeOff[f]:s.routeOff[f+1]] }

func (s *Sim) members() memberHeap { return memberHeap{target: s.target, pos: s.hpos} }

// activate puts f on its links, anchored at a guess of its bottleneck
// (the solver moves it if the guess is wrong).
func (s *Sim) activate(f int32) {
	s.state[f] = flowActive
	s.active++
	if s.hasBound[f] {
		v := s.virtualSlot(s.bound[f])
		s.routes[s.routeOff[f+1]-1] = v
	}
	off := s.routeOff[f]
	best, bestLevel := int32(-1), math.Inf(1)
	for k, l := range s.route(f) {
		s.slots[off+int32(k)] = int32(len(s.lflows[l]))
		s.lflows[l] = append(s.lflows[l], f)
		if len(s.lflows[l]) == 1 {
			s.busy++
		}
		level := s.groups[l].level
		if math.IsInf(level, 1) {
			level = s.capacity[l] / float64(len(s.lflows[l])) * s.pen[f]
		}
		if best < 0 || level < bestLevel {
			best, bestLevel = l, level
		}
	}
	s.join(f, best, s.size[f]*s.pen[f])
}

// virtualSlot returns a free virtual link slot of capacity c.
func (s *Sim) virtualSlot(c float64) int32 {
	if n := len(s.freeVirt); n > 0 {
		v := s.freeVirt[n-1]
		s.freeVirt = s.freeVirt[:n-1]
		s.capacity[v] = c
		return v
	}
	return s.addSlot(c)
}

// join anchors f at m with work (its remaining bytes times its penalty)
// left to do.
func (s *Sim) join(f, m int32, work float64) {
	g := &s.groups[m]
	g.advance(s.now)
	s.anchor[f] = m
	s.target[f] = g.s + work
	g.members = s.members().push(g.members, f)
	for _, k := range s.route(f) {
		s.ent.add(k, m, s.weight[f])
	}
}

// leave takes f out of its group and returns its work left.
func (s *Sim) leave(f int32) float64 {
	m := s.anchor[f]
	g := &s.groups[m]
	g.advance(s.now)
	work := s.target[f] - g.s
	if s.hpos[f] >= 0 {
		g.members = s.members().remove(g.members, f)
	}
	for _, k := range s.route(f) {
		s.ent.sub(k, m, s.weight[f])
	}
	s.anchor[f] = -1
	return work
}

// move re-anchors f at m.
func (s *Sim) move(f, m int32) { s.join(f, m, s.leave(f)) }

// complete takes f off its links.
func (s *Sim) complete(f int32) {
	s.leave(f)
	s.state[f] = flowDone
	s.active--
	s.end[f] = s.now
	off := s.routeOff[f]
	for k, l := range s.route(f) {
		list := s.lflows[l]
		i := s.slots[off+int32(k)]
		last := list[len(list)-1]
		list[i] = last
		s.setSlot(last, l, i)
		s.lflows[l] = list[:len(list)-1]
		if len(list) == 1 {
			s.busy--
		}
		s.slots[off+int32(k)] = -1
	}
	if s.hasBound[f] {
		s.freeVirt = append(s.freeVirt, s.routes[s.routeOff[f+1]-1])
	}
}

// setSlot records that flow f sits at index i of slot l's list.
func (s *Sim) setSlot(f, l, i int32) {
	off := s.routeOff[f]
	for k, m := range s.route(f) {
		if m == l {
			s.slots[off+int32(k)] = i
			return
		}
	}
}

// Activation is flow id's activation time: its start plus its route's
// latency.
func (s *Sim) Activation(id int) float64 { return s.act[id] }

// End is flow id's end time and whether it has ended.
func (s *Sim) End(id int) (float64, bool) { return s.end[id], s.state[id] == flowDone }

// Rate is flow id's current rate in bytes per second, 0 unless active.
func (s *Sim) Rate(id int) float64 {
	if s.state[id] != flowActive {
		return 0
	}
	return s.groups[s.anchor[id]].level / s.pen[id]
}

// Remaining is flow id's bytes still to send at Now.
func (s *Sim) Remaining(id int) float64 {
	switch s.state[id] {
	case flowPending:
		return s.size[id]
	case flowDone:
		return 0
	}
	g := &s.groups[s.anchor[id]]
	progress := g.s + g.level*(s.now-g.sAt)
	return max(0, (s.target[id]-progress)/s.pen[id])
}

// Active is the number of active flows.
func (s *Sim) Active() int { return s.active }

// Allocation is the current allocation: every active flow with its route,
// rate, penalty and bound, in ID order. It costs time in the active flows
// and links, not in the flows ended. The routes are the Sim's own: do not
// change them.
func (s *Sim) Allocation() Allocation {
	a := make(Allocation, 0, s.active)
	for m := range s.groups {
		for _, f := range s.groups[m].members {
			a = append(a, Share{ID: int(f), Route: s.given[f], Rate: s.Rate(int(f)), Penalty: s.pen[f], Bound: s.bound[f]})
		}
	}
	slices.SortFunc(a, func(x, y Share) int { return x.ID - y.ID })
	return a
}

// LinkLoads is the current load of every link: the sum of the rates of
// the active flows that cross it.
func (s *Sim) LinkLoads() []float64 {
	load := make([]float64, len(s.net.Links))
	for l := range load {
		for _, f := range s.lflows[l] {
			load[l] += s.Rate(int(f))
		}
	}
	return load
}

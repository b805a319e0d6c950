package network

import (
	"fmt"
	"math"
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
	routeOff []int32   // flow i's route is routes[routeOff[i]:routeOff[i+1]]
	routes   []int32   // the routes' link indices
	slots    []int32   // parallel to routes: the flow's index in that link's list while active
	start    []float64 // Flow.Start
	size     []float64
	act      []float64 // activation: start plus route latency
	end      []float64 // end time, NaN until ended
	state    []flowState
	rem      []float64 // bytes remaining at time upd
	upd      []float64
	rate     []float64
	pen      []float64 // sharing penalty
	bound    []float64 // rate bound, +Inf for none
	endAt    []float64 // projected end: upd + rem/rate

	lflows [][]int32 // per link, the active flows crossing it

	pending keyHeap // pending flows by act
	ending  keyHeap // active flows by endAt
	active  int

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
	s := &Sim{net: n, sharing: sharing, routeOff: []int32{0}, lflows: make([][]int32, len(n.Links))}
	s.pending.key = &s.act
	s.ending.key = &s.endAt
	s.fill.init(s)
	return s, nil
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
	s.routeOff = append(s.routeOff, int32(len(s.routes)))
	s.start = append(s.start, f.Start)
	s.size = append(s.size, f.Size)
	s.act = append(s.act, f.Start+lat)
	s.end = append(s.end, math.NaN())
	s.state = append(s.state, flowPending)
	s.rem = append(s.rem, f.Size)
	s.upd = append(s.upd, 0)
	s.rate = append(s.rate, 0)
	s.pen = append(s.pen, s.sharing.Penalty(lat))
	s.fill.weighted = s.fill.weighted || s.pen[id] != 1
	s.bound = append(s.bound, s.sharing.Bound(lat))
	s.endAt = append(s.endAt, math.Inf(1))
	s.pending.grow(id + 1)
	s.ending.grow(id + 1)
	s.fill.grow(id + 1)
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
		t = min(t, s.endAt[s.ending.top()])
	}
	return t
}

// Advance processes every activation and completion at or before t, in
// time order, and returns the flows that ended, in the order they ended
// (ties by ID). The clock moves to t, or to the last event when t is
// +Inf. A t before Now does nothing.
func (s *Sim) Advance(t float64) []Ended {
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
	for s.ending.len() > 0 && s.endAt[s.ending.top()] <= limit {
		f := s.ending.top()
		s.ending.remove(f)
		s.complete(f)
		ended = append(ended, Ended{ID: int(f), Time: te})
		seeds = append(seeds, s.route(f)...)
	}
	sortEnded(ended[first:])
	s.fill.seeds = seeds
	if len(seeds) > 0 {
		s.fill.recompute(seeds)
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

// activate puts f on its links.
func (s *Sim) activate(f int32) {
	s.state[f] = flowActive
	s.active++
	s.rem[f] = s.size[f]
	s.upd[f] = s.now
	s.rate[f] = 0
	off := s.routeOff[f]
	for k, l := range s.route(f) {
		s.slots[off+int32(k)] = int32(len(s.lflows[l]))
		s.lflows[l] = append(s.lflows[l], f)
	}
}

// complete takes f off its links.
func (s *Sim) complete(f int32) {
	s.state[f] = flowDone
	s.active--
	s.end[f] = s.now
	s.rem[f] = 0
	s.rate[f] = 0
	off := s.routeOff[f]
	for k, l := range s.route(f) {
		list := s.lflows[l]
		i := s.slots[off+int32(k)]
		last := list[len(list)-1]
		list[i] = last
		s.setSlot(last, l, i)
		s.lflows[l] = list[:len(list)-1]
		s.slots[off+int32(k)] = -1
	}
}

// setSlot records that flow f sits at index i of link l's list.
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
func (s *Sim) Rate(id int) float64 { return s.rate[id] }

// Remaining is flow id's bytes still to send at Now.
func (s *Sim) Remaining(id int) float64 {
	if s.state[id] != flowActive {
		return s.rem[id]
	}
	return max(0, s.rem[id]-s.rate[id]*(s.now-s.upd[id]))
}

// Active is the number of active flows.
func (s *Sim) Active() int { return s.active }

// Allocation is the current allocation: every active flow with its route,
// rate, penalty and bound, in ID order.
func (s *Sim) Allocation() Allocation {
	var a Allocation
	for f, st := range s.state {
		if st != flowActive {
			continue
		}
		route := make([]int, 0, s.routeOff[f+1]-s.routeOff[f])
		for _, l := range s.route(int32(f)) {
			route = append(route, int(l))
		}
		a = append(a, Share{ID: f, Route: route, Rate: s.rate[f], Penalty: s.pen[f], Bound: s.bound[f]})
	}
	return a
}

// LinkLoads is the current load of every link: the sum of the rates of
// the active flows that cross it.
func (s *Sim) LinkLoads() []float64 {
	load := make([]float64, len(s.lflows))
	for l, list := range s.lflows {
		for _, f := range list {
			load[l] += s.rate[f]
		}
	}
	return load
}

package replay

import (
	"fmt"
	"slices"

	"github.com/netsched/netsched/sim"
)

// port is a resource that serves one action at a time: one side of a
// full-duplex communication port or a whole half-duplex port (paper 000
// §2.2), one direction of a cluster's uplink (paper 001), or the compute
// slot of a processor (one computation at a time).
//
// Ordered replay serves the actions that use a port in schedule order:
// queue lists them and head points at the one served now or next. Timed
// replay lets actions overlap and reports it: holder is the action that
// holds the port (−1: none) and more lists further holders.
type port struct {
	queue    []int32 // actions that use the port, in schedule order
	head     int32
	holder   int32
	more     []int32
	lane     int32             // the trace lane that names it
	suffix   string            // after the lane's name: " send port", " processor", "" (an uplink)
	conflict sim.ViolationKind // reported when two actions hold it at once
}

// next is the action the port serves next in ordered replay, or −1.
func (p *port) next() int32 {
	if int(p.head) < len(p.queue) {
		return p.queue[p.head]
	}
	return -1
}

// free reports whether no action holds the port.
func (p *port) free() bool { return p.holder < 0 }

// hold adds action j to the holders.
func (p *port) hold(j int32) {
	if p.holder < 0 {
		p.holder = j
		return
	}
	p.more = append(p.more, j)
}

// release drops action j from the holders.
func (p *port) release(j int32) {
	if p.holder == j {
		p.holder = -1
		if len(p.more) > 0 {
			p.holder = p.more[0]
			p.more = append(p.more[:0], p.more[1:]...)
		}
		return
	}
	if k := slices.Index(p.more, j); k >= 0 {
		p.more = slices.Delete(p.more, k, k+1)
	}
}

// portSet is the ports of a replay and the ports each action holds while
// it runs (an action's are byAct[portLo : portLo+nres] of its actState).
type portSet struct {
	ports []port
	byAct []int32
}

// reuse empties ps for a replay of n actions, keeping its memory.
func (ps *portSet) reuse(n int) {
	ps.ports, ps.byAct = ps.ports[:0], slices.Grow(ps.byAct[:0], 2*n)
}

// add adds a port named by trace lane and suffix ("P3" + " send port")
// and returns its index. The name is built only when a violation needs it
// (name), since a sweep replays many schedules that have none.
func (ps *portSet) add(lane int32, suffix string, conflict sim.ViolationKind) int32 {
	ps.ports = append(ps.ports, port{holder: -1, lane: lane, suffix: suffix, conflict: conflict})
	return int32(len(ps.ports) - 1)
}

// name names port r after the trace's lanes: "P3 send port", "C0
// uplink-out", "P3 processor".
func (ps *portSet) name(r int32, lanes []string) string {
	p := &ps.ports[r]
	return lanes[p.lane] + p.suffix
}

// bind gives the action of state st the ports it holds while it runs.
func (ps *portSet) bind(st *actState, ports []Port) {
	st.portLo, st.nres = int32(len(ps.byAct)), uint8(len(ports))
	for _, r := range ports {
		ps.byAct = append(ps.byAct, int32(r))
	}
}

// of lists the ports the action of state st holds while it runs.
func (ps *portSet) of(st *actState) []int32 {
	return ps.byAct[st.portLo : st.portLo+int32(st.nres)]
}

// buildQueues fills each port's queue with the actions that use it, in
// schedule order, sharing one backing array.
func (ps *portSet) buildQueues(acts []actState) {
	counts := make([]int32, len(ps.ports)+1)
	for _, r := range ps.byAct {
		counts[r+1]++
	}
	for r := 1; r < len(counts); r++ {
		counts[r] += counts[r-1]
	}
	all := make([]int32, len(ps.byAct))
	fill := counts[:len(ps.ports)]
	for j := range acts {
		for _, r := range ps.of(&acts[j]) {
			all[fill[r]] = int32(j)
			fill[r]++
		}
	}
	lo := int32(0)
	for r := range ps.ports {
		hi := fill[r]
		ps.ports[r].queue = all[lo:hi:hi]
		lo = hi
	}
}

// acquire gives port r to action j starting at t; in timed replay it first
// reports an overlap with an action that still holds the port at t (one
// that ends within the time tolerance of t no longer counts).
func (e *engine) acquire(r, j int32, t float64) {
	p := &e.ports.ports[r]
	if e.mode == sim.Timed && !p.free() {
		if k, end, ok := e.stillHeld(p, t); ok {
			e.violate(p.conflict, j, e.ports.name(r, e.rec.trace.Lanes), t, fmt.Sprintf("held by action %d until t=%g", k, end))
		}
	}
	p.hold(j)
}

// stillHeld returns a holder of p that ends after t, and when.
func (e *engine) stillHeld(p *port, t float64) (k int32, end float64, ok bool) {
	if end := e.endAt(p.holder); end > t+timeTol(t) {
		return p.holder, end, true
	}
	for _, k := range p.more {
		if end := e.endAt(k); end > t+timeTol(t) {
			return k, end, true
		}
	}
	return 0, 0, false
}

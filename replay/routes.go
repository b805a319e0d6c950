package replay

import (
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Routes answers path queries on a tree platform and numbers its links for
// a Reservations calendar (paper 004 §2).
//
// Every direction of a full-duplex edge is a link of its own, with the
// bandwidth of that direction as capacity. Both directions of a half-duplex
// edge are one link whose capacity is the edge's A→B bandwidth (paper 004
// §2.1 keeps "one network state" for such an edge); a direction whose own
// bandwidth is larger runs at that capacity.
type Routes struct {
	tree     *models.Tree
	parent   []int         // parent of each node with the tree rooted at node 0; −1 at the root
	up, down []models.Link // link from a node to its parent, and from the parent to it
	depth    []int
	channel  [][2]int // per edge: link number of the forward and the reverse direction
	capacity []float64
}

// Route is the path of a transfer: the links in order from sender to
// receiver, their numbers in the Reservations calendar, the offsets
// Σ_{j≤i} d_j at which each link's reservation starts, the rate
// b = min b_i and the total latency Σ d_i. A transfer of D units started at
// s arrives at s + Latency + D/Bandwidth.
type Route struct {
	Links     []models.Link
	Channels  []int
	Offsets   []float64
	Bandwidth float64
	Latency   float64
}

// Duration is the time from the start of a transfer of amount units to its
// arrival: Σ d_i + amount / min b_i (0 on an empty route).
func (rt *Route) Duration(amount float64) float64 {
	if len(rt.Links) == 0 {
		return 0
	}
	return rt.Latency + amount/rt.Bandwidth
}

// NewRoutes prepares path queries on a validated tree.
func NewRoutes(t *models.Tree) *Routes {
	n := len(t.Nodes)
	r := &Routes{
		tree: t, parent: make([]int, n), up: make([]models.Link, n), down: make([]models.Link, n),
		depth: make([]int, n), channel: make([][2]int, len(t.Edges)),
	}
	for i, e := range t.Edges {
		fwd := len(r.capacity)
		if e.Duplex == models.HalfDuplex {
			r.channel[i] = [2]int{fwd, fwd}
			r.capacity = append(r.capacity, e.Bandwidth)
			continue
		}
		r.channel[i] = [2]int{fwd, fwd + 1}
		r.capacity = append(r.capacity, e.Bandwidth, t.Params(models.Link{Edge: i, Forward: false}).Bandwidth)
	}
	adj := t.Adjacency()
	seen := make([]bool, n)
	r.parent[0], seen[0] = -1, true
	queue := []int{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, h := range adj[u] {
			if seen[h.To] {
				continue
			}
			seen[h.To] = true
			r.parent[h.To], r.depth[h.To] = u, r.depth[u]+1
			r.down[h.To] = h.Link
			r.up[h.To] = models.Link{Edge: h.Link.Edge, Forward: !h.Link.Forward}
			queue = append(queue, h.To)
		}
	}
	return r
}

// Capacities lists the capacity of every link number, for NewReservations.
func (r *Routes) Capacities() []float64 { return r.capacity }

// NewReservations returns an empty reservation calendar for the tree.
func (r *Routes) NewReservations() *sim.Reservations { return sim.NewReservations(r.capacity) }

// Channel is the link number of one direction of an edge.
func (r *Routes) Channel(l models.Link) int {
	if l.Forward {
		return r.channel[l.Edge][0]
	}
	return r.channel[l.Edge][1]
}

// Bandwidth is the rate one direction of an edge carries: its bandwidth,
// capped by the shared capacity on a half-duplex edge.
func (r *Routes) Bandwidth(l models.Link) float64 {
	return min(r.tree.Params(l).Bandwidth, r.capacity[r.Channel(l)])
}

// LinkName names one direction of an edge "a→b".
func (r *Routes) LinkName(l models.Link) string {
	e := &r.tree.Edges[l.Edge]
	if l.Forward {
		return e.A + "→" + e.B
	}
	return e.B + "→" + e.A
}

// Path returns the links from node from to node to, in order (nil if
// from == to).
func (r *Routes) Path(from, to int) []models.Link {
	var head, tail []models.Link // from's climb, and to's climb reversed later
	for from != to {
		if r.depth[from] >= r.depth[to] {
			head = append(head, r.up[from])
			from = r.parent[from]
		} else {
			tail = append(tail, r.down[to])
			to = r.parent[to]
		}
	}
	for i := len(tail) - 1; i >= 0; i-- {
		head = append(head, tail[i])
	}
	return head
}

// Route returns the route of a transfer from node from to node to.
func (r *Routes) Route(from, to int) Route {
	var rt Route
	r.RouteInto(from, to, &rt)
	return rt
}

// RouteInto builds the route from node from to node to into rt, reusing the
// storage of its slices, and returns rt: Route without allocating once rt's
// slices are long enough.
func (r *Routes) RouteInto(from, to int, rt *Route) *Route {
	climb := 0 // links from from up to the common ancestor
	n := 0
	for a, b := from, to; a != b; n++ {
		if r.depth[a] >= r.depth[b] {
			a = r.parent[a]
			climb++
		} else {
			b = r.parent[b]
		}
	}
	rt.Links = slices.Grow(rt.Links[:0], n)[:n]
	for i, a := 0, from; i < climb; i++ {
		rt.Links[i], a = r.up[a], r.parent[a]
	}
	for i, b := n-1, to; i >= climb; i-- {
		rt.Links[i], b = r.down[b], r.parent[b]
	}
	rt.Channels = slices.Grow(rt.Channels[:0], n)[:n]
	rt.Offsets = slices.Grow(rt.Offsets[:0], n)[:n]
	rt.Bandwidth, rt.Latency = 0, 0
	for i, l := range rt.Links {
		rt.Latency += r.tree.Params(l).Latency
		rt.Channels[i], rt.Offsets[i] = r.Channel(l), rt.Latency
		if b := r.Bandwidth(l); i == 0 || b < rt.Bandwidth {
			rt.Bandwidth = b
		}
	}
	return rt
}

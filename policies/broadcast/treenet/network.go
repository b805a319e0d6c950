// Package treenet is the tree network of paper 004 §2 as the broadcast
// policies see it: participants and their MPI ranks, the contention-free
// time and bandwidth of every transfer between participants, the routes and
// reservation channels of replay.Routes, and a Calendar on which transfers
// are placed at their earliest fit (and undone, for a search) exactly as
// replay checks them. PlaceSends times a communication pattern on it in
// time order (§2.1), the placement every broadcast policy shares.
//
// It holds no policy: the MPI baselines (package mpi), the heuristics
// (package heuristic) and the optimal search (package broadcast) build on it.
package treenet

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// Network is a validated broadcast instance and what every policy
// precomputes from it: the participants in node order (their MPI ranks),
// the contention-free time of every transfer between participants, and the
// reservation links (channels) of replay.Routes. Routes are built when
// first asked for (see Route); a Network is not safe for concurrent use.
type Network struct {
	Tree   *models.Tree
	Routes *replay.Routes
	Size   float64 // the message, D
	N      int     // tree nodes, participants and relays
	Parts  []int   // participants in node order: rank → node
	Rank   []int   // node → rank, −1 for a relay
	Roots  []int   // initial holders (nodes)
	Adj    [][]models.Hop

	Cost   [][]float64       // cost[u][v]: Σd + D/b, the transfer time with no contention (nil rows for relays)
	Rate   [][]float64       // rate[u][v]: b, the bandwidth of the route (nil rows for relays)
	routed [][]*replay.Route // the routes built so far (see route), by sender; nil rows for relays
	kept   int               // the bytes the routes in routed take

	Channels int       // reservation links
	Capacity []float64 // per channel
}

// NewNetwork checks an instance for a broadcast policy (validating it
// unless in.Valid): a tree platform
// (a graph that is not a tree, a bandwidth ≤ 0 or a bad latency is a
// *models.FieldError from validation), a broadcast problem whose roots are
// distinct participants, and a live context.
func NewNetwork(ctx context.Context, in policies.Instance) (*Network, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil { // a no-op for the registry's planners
		return nil, err
	}
	if in.Platform.Tree == nil {
		return nil, fmt.Errorf("broadcast runs on a tree platform, not %q", in.Platform.Kind())
	}
	if in.Problem.Broadcast == nil || in.Problem.Family() != models.FamilyBroadcast {
		return nil, fmt.Errorf("broadcast schedules broadcast problems, not %q", in.Problem.Family())
	}
	t, b := in.Platform.Tree, in.Problem.Broadcast
	nw := &Network{Tree: t, Routes: replay.NewRoutes(t), Size: b.Size, N: len(t.Nodes), Adj: t.Adjacency()}
	nw.Rank = make([]int, nw.N)
	for v, node := range t.Nodes {
		nw.Rank[v] = -1
		if !node.Relay {
			nw.Rank[v] = len(nw.Parts)
			nw.Parts = append(nw.Parts, v)
		}
	}
	seen := map[int]int{}
	for i, r := range b.Roots {
		v, _ := t.NodeIndex(r)
		if j, dup := seen[v]; dup {
			return nil, &models.FieldError{Path: fmt.Sprintf("problem.broadcast.roots[%d]", i),
				Msg: fmt.Sprintf("%q is also roots[%d]", r, j)}
		}
		seen[v] = i
		nw.Roots = append(nw.Roots, v)
	}
	nw.Capacity = nw.Routes.Capacities()
	nw.Channels = len(nw.Capacity)
	nw.routed = make([][]*replay.Route, nw.N)
	nw.Cost, nw.Rate = make([][]float64, nw.N), make([][]float64, nw.N)
	var w RouteWalk
	for _, u := range nw.Parts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		nw.Cost[u], nw.Rate[u] = make([]float64, nw.N), make([]float64, nw.N)
		w.From(nw, u, func(v int, rt *replay.Route) {
			nw.Cost[u][v], nw.Rate[u][v] = rt.Duration(nw.Size), rt.Bandwidth
		})
	}
	return nw, nil
}

// maxKeptRoutes is the memory the routes kept by route may take. The routes
// between all participants take memory in the square of the participants
// times the tree's depth: about 3 GB on a random tree of 2,048; within
// this bound the trees of paper 004 and of issue 21's benchmark keep all.
const maxKeptRoutes = 256 << 20

// Route returns the route of a transfer between two participants (see
// routeInto); it allocates the routes it does not keep.
func (nw *Network) Route(u, v int) *replay.Route {
	if row := nw.routed[u]; row != nil && row[v] != nil {
		return row[v]
	}
	return nw.RouteInto(u, v, new(replay.Route))
}

// RouteInto returns the route of a transfer between two participants: the
// one kept, or one built into buf. It keeps the routes it builds while they
// take less than maxKeptRoutes. The route returned must not be changed; buf
// is valid until buf is used again.
func (nw *Network) RouteInto(u, v int, buf *replay.Route) *replay.Route {
	row := nw.routed[u]
	if row == nil {
		row = make([]*replay.Route, nw.N)
		nw.routed[u] = row
	}
	if rt := row[v]; rt != nil {
		return rt
	}
	nw.Routes.RouteInto(u, v, buf)
	if nw.kept < maxKeptRoutes {
		rt := &replay.Route{Links: slices.Clone(buf.Links), Channels: slices.Clone(buf.Channels),
			Offsets: slices.Clone(buf.Offsets), Bandwidth: buf.Bandwidth, Latency: buf.Latency}
		row[v] = rt
		nw.kept += 96 + 32*len(rt.Links) // the struct, the three slices, their headers
		return rt
	}
	return buf
}

// EachRoute calls f with the route of every ordered pair of distinct
// participants; the route is valid during the call only.
func (nw *Network) EachRoute(f func(u, v int, rt *replay.Route)) {
	var w RouteWalk
	for _, u := range nw.Parts {
		w.From(nw, u, func(v int, rt *replay.Route) { f(u, v, rt) })
	}
}

// RouteWalk builds the routes from one participant to every other in one
// walk of the tree, each route extending its parent's, with the same
// figures as replay.Routes.Route (latencies summed in path order).
type RouteWalk struct {
	rt  replay.Route
	bws []float64 // bws[i]: the least bandwidth of the first i+1 links
}

// From calls f with the route from u to every other participant, valid
// during the call only.
func (w *RouteWalk) From(nw *Network, u int, f func(v int, rt *replay.Route)) {
	var walk func(x, prev int)
	walk = func(x, prev int) {
		k := len(w.rt.Links)
		if x != u && nw.Rank[x] >= 0 {
			w.rt.Bandwidth, w.rt.Latency = w.bws[k-1], w.rt.Offsets[k-1]
			f(x, &w.rt)
		}
		for _, h := range nw.Adj[x] {
			if h.To == prev {
				continue
			}
			lat, bw := nw.Latency(h.Link), nw.Routes.Bandwidth(h.Link)
			if k > 0 {
				lat += w.rt.Offsets[k-1]
				bw = min(bw, w.bws[k-1])
			}
			w.rt.Links = append(w.rt.Links, h.Link)
			w.rt.Channels = append(w.rt.Channels, nw.Routes.Channel(h.Link))
			w.rt.Offsets = append(w.rt.Offsets, lat)
			w.bws = append(w.bws, bw)
			walk(h.To, x)
			w.rt.Links, w.rt.Channels = w.rt.Links[:k], w.rt.Channels[:k]
			w.rt.Offsets, w.bws = w.rt.Offsets[:k], w.bws[:k]
		}
	}
	walk(u, -1)
}

// Name is a node's name.
func (nw *Network) Name(v int) string { return nw.Tree.Nodes[v].Name }

// Latency of one direction of an edge.
func (nw *Network) Latency(l models.Link) float64 { return nw.Tree.Params(l).Latency }

// RootRank is the rank of the single root an MPI baseline broadcasts from.
func (nw *Network) RootRank(policy string) (int, error) {
	if len(nw.Roots) != 1 {
		return 0, fmt.Errorf("%s: broadcasts from one root (an MPI_Bcast root), got %d", policy, len(nw.Roots))
	}
	return nw.Rank[nw.Roots[0]], nil
}

// Placement is one transfer placed on the reservation calendar.
type Placement struct {
	From, To      int // nodes
	Start, Arrive float64
	Amount        float64
	Offset        float64 // the part [offset, offset+amount) of the message carried
	After         []int   // indices of the placements it follows
}

// Calendar places transfers on a sim.Reservations, the way replay checks
// them (the search in time order, a greedy with backfill also into gaps
// before the last start), and undoes them in reverse order (for the
// search).
type Calendar struct {
	Net   *Network
	Resv  *sim.Reservations
	Moves []Placement
	buf   replay.Route // see Network.RouteInto
}

// NewCalendar is an empty calendar on the network's reservation channels.
func NewCalendar(nw *Network) *Calendar {
	return &Calendar{Net: nw, Resv: nw.Routes.NewReservations()}
}

// RouteOf is the route of a transfer between two participants
// (Network.RouteInto), valid until the calendar is used again.
func (c *Calendar) RouteOf(u, v int) *replay.Route {
	return c.Net.RouteInto(u, v, &c.buf)
}

// Earliest is the earliest start ≥ t0 at which a transfer of amount from u
// to v fits.
func (c *Calendar) Earliest(u, v int, t0, amount float64) float64 {
	rt := c.Net.RouteInto(u, v, &c.buf)
	return c.Resv.EarliestFit(t0, rt.Channels, rt.Offsets, amount/rt.Bandwidth, rt.Bandwidth)
}

// Place reserves a transfer of amount from u to v starting at start and
// returns its arrival.
func (c *Calendar) Place(u, v int, start, amount float64, after []int) float64 {
	rt := c.Net.RouteInto(u, v, &c.buf)
	dur := amount / rt.Bandwidth
	c.Resv.Reserve(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
	arrive := start + rt.Latency + dur
	c.Moves = append(c.Moves, Placement{From: u, To: v, Start: start, Arrive: arrive, Amount: amount, After: after})
	return arrive
}

// InStartOrder lists the placements by start, keeping the order of those
// that start together, as a schedule is read and the search takes a
// sequence. A placement starts after the one it follows arrives, so it
// still comes after it.
func (c *Calendar) InStartOrder() {
	order := make([]int, len(c.Moves))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(c.Moves[a].Start, c.Moves[b].Start) })
	pos := make([]int, len(order))
	for p, i := range order {
		pos[i] = p
	}
	moves := make([]Placement, len(order))
	for p, i := range order {
		moves[p] = c.Moves[i]
		moves[p].After = nil
		for _, a := range c.Moves[i].After {
			moves[p].After = append(moves[p].After, pos[a])
		}
	}
	c.Moves = moves
}

// Undo removes the last placement.
func (c *Calendar) Undo() {
	m := c.Moves[len(c.Moves)-1]
	c.Moves = c.Moves[:len(c.Moves)-1]
	rt := c.Net.RouteInto(m.From, m.To, &c.buf)
	c.Resv.Release(m.Start, rt.Channels, rt.Offsets, m.Amount/rt.Bandwidth, rt.Bandwidth)
}

// Schedule turns the placements into a sim.Schedule whose claim is the
// last arrival.
func (c *Calendar) Schedule(policy string) *sim.Schedule {
	s := &sim.Schedule{Policy: policy, Actions: make([]sim.Action, 0, len(c.Moves))}
	for _, m := range c.Moves {
		s.Add(sim.Action{
			Kind: sim.Transfer, From: m.From, To: m.To, Amount: m.Amount, Offset: m.Offset,
			Start: sim.Time(m.Start), After: m.After,
			Label: c.Net.Name(m.From) + "→" + c.Net.Name(m.To),
		})
		s.Claimed = math.Max(s.Claimed, m.Arrive)
	}
	return s
}

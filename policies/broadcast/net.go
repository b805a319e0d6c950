package broadcast

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// network is a validated broadcast instance and what every policy
// precomputes from it: the participants in node order (their MPI ranks),
// the contention-free time of every transfer between participants, and the
// reservation links (channels) of replay.Routes. Routes are built when
// first asked for (see route); a network is not safe for concurrent use.
type network struct {
	tree   *models.Tree
	routes *replay.Routes
	size   float64 // the message, D
	n      int     // tree nodes, participants and relays
	parts  []int   // participants in node order: rank → node
	rank   []int   // node → rank, −1 for a relay
	roots  []int   // initial holders (nodes)
	adj    [][]models.Hop

	cost   [][]float64       // cost[u][v]: Σd + D/b, the transfer time with no contention (nil rows for relays)
	rate   [][]float64       // rate[u][v]: b, the bandwidth of the route (nil rows for relays)
	routed [][]*replay.Route // the routes built so far (see route), by sender; nil rows for relays
	kept   int               // the bytes the routes in routed take

	channels int       // reservation links
	capacity []float64 // per channel
}

// newNetwork checks an instance for a broadcast policy (validating it
// unless in.Valid): a tree platform
// (a graph that is not a tree, a bandwidth ≤ 0 or a bad latency is a
// *models.FieldError from validation), a broadcast problem whose roots are
// distinct participants, and a live context.
func newNetwork(ctx context.Context, in policies.Instance) (*network, error) {
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
	nw := &network{tree: t, routes: replay.NewRoutes(t), size: b.Size, n: len(t.Nodes), adj: t.Adjacency()}
	nw.rank = make([]int, nw.n)
	for v, node := range t.Nodes {
		nw.rank[v] = -1
		if !node.Relay {
			nw.rank[v] = len(nw.parts)
			nw.parts = append(nw.parts, v)
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
		nw.roots = append(nw.roots, v)
	}
	nw.capacity = nw.routes.Capacities()
	nw.channels = len(nw.capacity)
	nw.routed = make([][]*replay.Route, nw.n)
	nw.cost, nw.rate = make([][]float64, nw.n), make([][]float64, nw.n)
	var w routeWalk
	for _, u := range nw.parts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		nw.cost[u], nw.rate[u] = make([]float64, nw.n), make([]float64, nw.n)
		w.from(nw, u, func(v int, rt *replay.Route) {
			nw.cost[u][v], nw.rate[u][v] = rt.Duration(nw.size), rt.Bandwidth
		})
	}
	return nw, nil
}

// maxKeptRoutes is the memory the routes kept by route may take. The routes
// between all participants take memory in the square of the participants
// times the tree's depth: about 3 GB on a random tree of 2,048; within
// this bound the trees of paper 004 and of issue 21's benchmark keep all.
const maxKeptRoutes = 256 << 20

// route returns the route of a transfer between two participants (see
// routeInto); it allocates the routes it does not keep.
func (nw *network) route(u, v int) *replay.Route {
	if row := nw.routed[u]; row != nil && row[v] != nil {
		return row[v]
	}
	return nw.routeInto(u, v, new(replay.Route))
}

// routeInto returns the route of a transfer between two participants: the
// one kept, or one built into buf. It keeps the routes it builds while they
// take less than maxKeptRoutes. The route returned must not be changed; buf
// is valid until buf is used again.
func (nw *network) routeInto(u, v int, buf *replay.Route) *replay.Route {
	row := nw.routed[u]
	if row == nil {
		row = make([]*replay.Route, nw.n)
		nw.routed[u] = row
	}
	if rt := row[v]; rt != nil {
		return rt
	}
	nw.routes.RouteInto(u, v, buf)
	if nw.kept < maxKeptRoutes {
		rt := &replay.Route{Links: slices.Clone(buf.Links), Channels: slices.Clone(buf.Channels),
			Offsets: slices.Clone(buf.Offsets), Bandwidth: buf.Bandwidth, Latency: buf.Latency}
		row[v] = rt
		nw.kept += 96 + 32*len(rt.Links) // the struct, the three slices, their headers
		return rt
	}
	return buf
}

// eachRoute calls f with the route of every ordered pair of distinct
// participants; the route is valid during the call only.
func (nw *network) eachRoute(f func(u, v int, rt *replay.Route)) {
	var w routeWalk
	for _, u := range nw.parts {
		w.from(nw, u, func(v int, rt *replay.Route) { f(u, v, rt) })
	}
}

// routeWalk builds the routes from one participant to every other in one
// walk of the tree, each route extending its parent's, with the same
// figures as replay.Routes.Route (latencies summed in path order).
type routeWalk struct {
	rt  replay.Route
	bws []float64 // bws[i]: the least bandwidth of the first i+1 links
}

// from calls f with the route from u to every other participant, valid
// during the call only.
func (w *routeWalk) from(nw *network, u int, f func(v int, rt *replay.Route)) {
	var walk func(x, prev int)
	walk = func(x, prev int) {
		k := len(w.rt.Links)
		if x != u && nw.rank[x] >= 0 {
			w.rt.Bandwidth, w.rt.Latency = w.bws[k-1], w.rt.Offsets[k-1]
			f(x, &w.rt)
		}
		for _, h := range nw.adj[x] {
			if h.To == prev {
				continue
			}
			lat, bw := nw.latency(h.Link), nw.routes.Bandwidth(h.Link)
			if k > 0 {
				lat += w.rt.Offsets[k-1]
				bw = min(bw, w.bws[k-1])
			}
			w.rt.Links = append(w.rt.Links, h.Link)
			w.rt.Channels = append(w.rt.Channels, nw.routes.Channel(h.Link))
			w.rt.Offsets = append(w.rt.Offsets, lat)
			w.bws = append(w.bws, bw)
			walk(h.To, x)
			w.rt.Links, w.rt.Channels = w.rt.Links[:k], w.rt.Channels[:k]
			w.rt.Offsets, w.bws = w.rt.Offsets[:k], w.bws[:k]
		}
	}
	walk(u, -1)
}

// name is a node's name.
func (nw *network) name(v int) string { return nw.tree.Nodes[v].Name }

// latency of one direction of an edge.
func (nw *network) latency(l models.Link) float64 { return nw.tree.Params(l).Latency }

// rootRank is the rank of the single root an MPI baseline broadcasts from.
func (nw *network) rootRank(policy string) (int, error) {
	if len(nw.roots) != 1 {
		return 0, fmt.Errorf("%s: broadcasts from one root (an MPI_Bcast root), got %d", policy, len(nw.roots))
	}
	return nw.rank[nw.roots[0]], nil
}

// placement is one transfer placed on the reservation calendar.
type placement struct {
	from, to      int // nodes
	start, arrive float64
	amount        float64
	offset        float64 // the part [offset, offset+amount) of the message carried
	after         []int   // indices of the placements it follows
}

// calendar places transfers on a sim.Reservations, the way replay checks
// them (the search in time order, a greedy with backfill also into gaps
// before the last start), and undoes them in reverse order (for the
// search).
type calendar struct {
	nw    *network
	resv  *sim.Reservations
	moves []placement
	buf   replay.Route // see network.routeInto
}

func newCalendar(nw *network) *calendar {
	return &calendar{nw: nw, resv: nw.routes.NewReservations()}
}

// earliest is the earliest start ≥ t0 at which a transfer of amount from u
// to v fits.
func (c *calendar) earliest(u, v int, t0, amount float64) float64 {
	rt := c.nw.routeInto(u, v, &c.buf)
	return c.resv.EarliestFit(t0, rt.Channels, rt.Offsets, amount/rt.Bandwidth, rt.Bandwidth)
}

// place reserves a transfer of amount from u to v starting at start and
// returns its arrival.
func (c *calendar) place(u, v int, start, amount float64, after []int) float64 {
	rt := c.nw.routeInto(u, v, &c.buf)
	dur := amount / rt.Bandwidth
	c.resv.Reserve(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
	arrive := start + rt.Latency + dur
	c.moves = append(c.moves, placement{from: u, to: v, start: start, arrive: arrive, amount: amount, after: after})
	return arrive
}

// inStartOrder lists the placements by start, keeping the order of those
// that start together, as a schedule is read and the search takes a
// sequence. A placement starts after the one it follows arrives, so it
// still comes after it.
func (c *calendar) inStartOrder() {
	order := make([]int, len(c.moves))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpAsc(c.moves[a].start, c.moves[b].start) })
	pos := make([]int, len(order))
	for p, i := range order {
		pos[i] = p
	}
	moves := make([]placement, len(order))
	for p, i := range order {
		moves[p] = c.moves[i]
		moves[p].after = nil
		for _, a := range c.moves[i].after {
			moves[p].after = append(moves[p].after, pos[a])
		}
	}
	c.moves = moves
}

// undo removes the last placement.
func (c *calendar) undo() {
	m := c.moves[len(c.moves)-1]
	c.moves = c.moves[:len(c.moves)-1]
	rt := c.nw.routeInto(m.from, m.to, &c.buf)
	c.resv.Release(m.start, rt.Channels, rt.Offsets, m.amount/rt.Bandwidth, rt.Bandwidth)
}

// schedule turns the placements into a sim.Schedule whose claim is the
// last arrival.
func (c *calendar) schedule(policy string) *sim.Schedule {
	s := &sim.Schedule{Policy: policy, Actions: make([]sim.Action, 0, len(c.moves))}
	for _, m := range c.moves {
		s.Add(sim.Action{
			Kind: sim.Transfer, From: m.from, To: m.to, Amount: m.amount, Offset: m.offset,
			Start: sim.Time(m.start), After: m.after,
			Label: c.nw.name(m.from) + "→" + c.nw.name(m.to),
		})
		s.Claimed = math.Max(s.Claimed, m.arrive)
	}
	return s
}

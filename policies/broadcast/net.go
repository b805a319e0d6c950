package broadcast

import (
	"context"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// network is a validated broadcast instance and what every policy
// precomputes from it: the participants in node order (their MPI ranks),
// the route of every transfer between participants, and the reservation
// links (channels) of replay.Routes.
type network struct {
	tree   *models.Tree
	routes *replay.Routes
	size   float64 // the message, D
	n      int     // tree nodes, participants and relays
	parts  []int   // participants in node order: rank → node
	rank   []int   // node → rank, −1 for a relay
	roots  []int   // initial holders (nodes)
	adj    [][]models.Hop

	route [][]replay.Route // route[u][v] between participants (nil rows for relays)
	cost  [][]float64      // cost[u][v]: Σd + D/b, the transfer time with no contention

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
	nw.route = make([][]replay.Route, nw.n)
	nw.cost = make([][]float64, nw.n)
	for _, u := range nw.parts {
		nw.route[u] = make([]replay.Route, nw.n)
		nw.cost[u] = make([]float64, nw.n)
		for _, v := range nw.parts {
			if u != v {
				nw.route[u][v] = nw.routes.Route(u, v)
				nw.cost[u][v] = nw.route[u][v].Duration(nw.size)
			}
		}
	}
	return nw, nil
}

// eachRoute calls f with the route of every ordered pair of distinct
// participants.
func (nw *network) eachRoute(f func(u, v int, rt *replay.Route)) {
	for _, u := range nw.parts {
		for _, v := range nw.parts {
			if u != v {
				f(u, v, &nw.route[u][v])
			}
		}
	}
}

// name is a node's name.
func (nw *network) name(v int) string { return nw.tree.Nodes[v].Name }

// latency of one direction of an edge.
func (nw *network) latency(l models.Link) float64 { return nw.tree.Params(l).Latency }

// rootRank is the rank of the single root an MPI baseline broadcasts from.
func (nw *network) rootRank(policy string) (int, error) {
	if len(nw.roots) != 1 {
		return 0, fmt.Errorf("%s broadcasts from one root (an MPI_Bcast root), got %d", policy, len(nw.roots))
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

// calendar places transfers in time order on a sim.Reservations, the way
// replay checks them, and undoes them in reverse order (for the search).
type calendar struct {
	nw    *network
	resv  *sim.Reservations
	moves []placement
}

func newCalendar(nw *network) *calendar {
	return &calendar{nw: nw, resv: nw.routes.NewReservations()}
}

// earliest is the earliest start ≥ t0 at which a transfer of amount from u
// to v fits.
func (c *calendar) earliest(u, v int, t0, amount float64) float64 {
	rt := &c.nw.route[u][v]
	return c.resv.EarliestFit(t0, rt.Channels, rt.Offsets, amount/rt.Bandwidth, rt.Bandwidth)
}

// place reserves a transfer of amount from u to v starting at start and
// returns its arrival.
func (c *calendar) place(u, v int, start, amount float64, after []int) float64 {
	rt := &c.nw.route[u][v]
	dur := amount / rt.Bandwidth
	c.resv.Reserve(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
	arrive := start + rt.Latency + dur
	c.moves = append(c.moves, placement{from: u, to: v, start: start, arrive: arrive, amount: amount, after: after})
	return arrive
}

// undo removes the last placement.
func (c *calendar) undo() {
	m := c.moves[len(c.moves)-1]
	c.moves = c.moves[:len(c.moves)-1]
	rt := &c.nw.route[m.from][m.to]
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

package broadcast

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// heuristicPolicy is a greedy that adds one whole-message transfer at a
// time, in time order, each at the earliest time it fits after the last
// start (the placement of the optimal policy's search, so its schedules lie
// in that search space).
type heuristicPolicy struct {
	name string
	plan func(ctx context.Context, g *greedy) error
}

// Plan runs the greedy.
func (hp heuristicPolicy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	nw, err := newNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hp.name, err)
	}
	g := newGreedy(nw)
	if err := hp.plan(ctx, g); err != nil {
		return nil, fmt.Errorf("%s: %w", hp.name, err)
	}
	return g.c.schedule(hp.name), nil
}

// greedy is the state of a greedy heuristic: the calendar, who holds the
// message since when, and the start of the last transfer.
type greedy struct {
	nw        *network
	c         *calendar
	ready     []float64 // arrival of the message, +Inf if not held
	delivered []int     // placement that delivered to a node, −1 for roots
	tLast     float64
	missing   int
}

func newGreedy(nw *network) *greedy {
	g := &greedy{nw: nw, c: newCalendar(nw), ready: make([]float64, nw.n), delivered: make([]int, nw.n)}
	for v := range g.ready {
		g.ready[v], g.delivered[v] = math.Inf(1), -1
	}
	for _, r := range nw.roots {
		g.ready[r] = 0
	}
	g.missing = len(nw.parts) - len(nw.roots)
	return g
}

func (g *greedy) holds(v int) bool { return !math.IsInf(g.ready[v], 1) }

// option is a candidate transfer: its start and arrival.
type option struct {
	from, to      int
	start, arrive float64
}

// try computes the earliest start and arrival of u→v now.
func (g *greedy) try(u, v int) option {
	start := g.c.earliest(u, v, math.Max(g.tLast, g.ready[u]), g.nw.size)
	return option{from: u, to: v, start: start, arrive: start + g.nw.cost[u][v]}
}

// better orders options by arrival, then start, then sender and receiver
// rank.
func (g *greedy) better(a, b option) bool {
	if a.arrive != b.arrive {
		return a.arrive < b.arrive
	}
	if a.start != b.start {
		return a.start < b.start
	}
	if a.from != b.from {
		return g.nw.rank[a.from] < g.nw.rank[b.from]
	}
	return g.nw.rank[a.to] < g.nw.rank[b.to]
}

// take places an option.
func (g *greedy) take(o option) {
	var after []int
	if d := g.delivered[o.from]; d >= 0 {
		after = []int{d}
	}
	g.delivered[o.to] = len(g.c.moves)
	g.ready[o.to] = g.c.place(o.from, o.to, o.start, g.nw.size, after)
	g.tLast = o.start
	g.missing--
}

// planECEF is earliest completing edge first: among all transfers from a
// holder to a non-holder, start the one that arrives first. Arrivals only
// grow as transfers are added, so candidates wait in a heap and are
// recomputed when they reach its top.
func planECEF(ctx context.Context, g *greedy) error {
	q := heapq.New(g.better) // best first
	push := func(u int) {
		for _, v := range g.nw.parts {
			if !g.holds(v) {
				q.Push(g.try(u, v))
			}
		}
	}
	for _, r := range g.nw.roots {
		push(r)
	}
	for g.missing > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		top := q.Pop()
		if g.holds(top.to) {
			continue
		}
		o := g.try(top.from, top.to)
		if q.Len() > 0 && g.better(q.Items[0], o) {
			q.Push(o)
			continue
		}
		g.take(o)
		push(o.to)
	}
	return nil
}

// planFlat is the cheapest schedule of the search space to build, the
// optimal search's last resort when its deadline comes before ecef's
// schedule: every non-holder in rank order gets the message from the
// root (initial holder) that delivers it first, so it places one transfer
// per participant and tries each root once for it.
func planFlat(g *greedy) {
	for _, v := range g.nw.parts {
		if g.holds(v) {
			continue
		}
		best := option{arrive: math.Inf(1)}
		for _, r := range g.nw.roots {
			if o := g.try(r, v); g.better(o, best) {
				best = o
			}
		}
		g.take(best)
	}
}

// planFNF is fastest node first (Banikazemi et al.'s heuristic for
// heterogeneous nodes, on the tree): receivers are served fastest first,
// the speed of a node being the bandwidth of its fastest outgoing link (the
// rate at which it could forward), ties to the lower rank; each receiver
// gets the message from the holder that delivers it first.
func planFNF(ctx context.Context, g *greedy) error {
	order := slices.Clone(g.nw.parts)
	speed := make([]float64, g.nw.n)
	for _, v := range order {
		for _, h := range g.nw.adj[v] {
			speed[v] = math.Max(speed[v], g.nw.routes.Bandwidth(h.Link))
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(speed[a], speed[b]) })
	for _, v := range order {
		if g.holds(v) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		best := option{arrive: math.Inf(1)}
		for _, u := range g.nw.parts {
			if g.holds(u) {
				if o := g.try(u, v); g.better(o, best) {
					best = o
				}
			}
		}
		g.take(best)
	}
	return nil
}

// cmpDesc orders larger first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

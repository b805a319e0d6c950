package broadcast

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// heuristicPolicy is a greedy that adds one whole-message transfer at a
// time, each at the earliest time it fits the reservations made, once its
// sender holds the message (see greedy.backfill).
type heuristicPolicy struct {
	name string
	plan func(ctx context.Context, g *greedy) error
}

// Plan runs the greedy.
func (hp heuristicPolicy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	nw, err := treenet.NewNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", hp.name, err)
	}
	g := newGreedy(nw)
	g.backfill = true
	if err := hp.plan(ctx, g); err != nil {
		return nil, fmt.Errorf("%s: %w", hp.name, err)
	}
	g.c.InStartOrder()
	return g.c.Schedule(hp.name), nil
}

// greedy is the state of a greedy heuristic: the calendar, who holds the
// message since when, and the start of the last transfer.
//
// By default a transfer starts at the earliest time it fits after the last
// start, the placement of the optimal policy's search, so the schedule
// lies in its space. With backfill it starts at the earliest time it fits
// the reservations made, into a gap before the last start where there is
// one, as the published heuristics place their transfers (each once its
// sender is ready): on random trees with relays of 64 to 512 participants
// that makes fnf's and ecef's schedules 1.1 to 2.3 times as fast, fnf's on
// the SMP and paper 004 trees of 32 to 128 participants 1.4 to 5.7 times;
// on none of 33 trees of seven kinds was it slower (results/benchmarks.md).
type greedy struct {
	nw        *treenet.Network
	c         *treenet.Calendar
	ready     []float64 // arrival of the message, +Inf if not held
	delivered []int     // placement that delivered to a node, −1 for roots
	held      []int     // the holders, in the order they got the message
	frees     []option  // bestSender's scratch: the free options
	tLast     float64   // the last start; stays 0 with backfill
	missing   int
	backfill  bool
}

func newGreedy(nw *treenet.Network) *greedy {
	g := &greedy{nw: nw, c: treenet.NewCalendar(nw), ready: make([]float64, nw.N), delivered: make([]int, nw.N)}
	for v := range g.ready {
		g.ready[v], g.delivered[v] = math.Inf(1), -1
	}
	for _, r := range nw.Roots {
		g.ready[r] = 0
	}
	g.held = slices.Clone(nw.Roots)
	g.missing = len(nw.Parts) - len(nw.Roots)
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
	start := g.c.Earliest(u, v, math.Max(g.tLast, g.ready[u]), g.nw.Size)
	return option{from: u, to: v, start: start, arrive: start + g.nw.Cost[u][v]}
}

// free is u→v as if no reservation were made: no option of u→v, now or
// later, comes before it in better's order, as fitting only delays the
// start, and the arrival with it.
func (g *greedy) free(u, v int) option {
	start := max(g.tLast, g.ready[u])
	return option{from: u, to: v, start: start, arrive: start + g.nw.Cost[u][v]}
}

// bestSender is the best option (see better) that informs v from a
// holder, and next, before which no option from another holder comes.
// Only the holders whose free option is not after the best one found so
// far are fitted, the freest first: the others cannot beat it.
func (g *greedy) bestSender(v int) (best, next option) {
	g.frees = g.frees[:0]
	first := option{arrive: math.Inf(1)}
	for _, u := range g.held {
		f := g.free(u, v)
		g.frees = append(g.frees, f)
		if g.better(f, first) {
			first = f
		}
	}
	best, next = g.try(first.from, v), option{arrive: math.Inf(1)}
	for _, f := range g.frees {
		if f.from == first.from {
			continue
		}
		if !g.better(best, f) {
			f = g.try(f.from, v)
		}
		if g.better(f, best) {
			best, next = f, best
		} else if g.better(f, next) {
			next = f
		}
	}
	return best, next
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
		return g.nw.Rank[a.from] < g.nw.Rank[b.from]
	}
	return g.nw.Rank[a.to] < g.nw.Rank[b.to]
}

// take places an option.
func (g *greedy) take(o option) {
	var after []int
	if d := g.delivered[o.from]; d >= 0 {
		after = []int{d}
	}
	g.delivered[o.to] = len(g.c.Moves)
	g.ready[o.to] = g.c.Place(o.from, o.to, o.start, g.nw.Size, after)
	g.held = append(g.held, o.to)
	if !g.backfill {
		g.tLast = o.start
	}
	g.missing--
}

// planECEF is earliest completing edge first: among all transfers from a
// holder to a non-holder, start the one that arrives first (ties as better
// orders them).
//
// Options only get later as transfers are added (more reservations, a
// later last start), so each non-holder v waits in a heap under a key no
// option informing it comes before: its best option when last fitted
// (bestSender), with a floor before which no option of another holder
// comes (its next option then, or a new holder's free option), or a new
// holder's free option where that comes first. A key fitted since the
// last transfer that comes first in the heap is the best option of all.
// A key fitted earlier is fitted again, and is v's best option if it does
// not come after v's floor; otherwise, and for a free key, all of v's
// holders are (bestSender). The calendar takes an overlap within its
// tolerance as none, so a later fit can start earlier by that much; ecef
// then picks one of two transfers that arrive within the tolerance of each
// other, which a fit of every pair at every step may order the other way
// (TestGreediesAgreeWithFullScans: 10 of 58,526 transfers in time order,
// 30 with backfill).
func planECEF(ctx context.Context, g *greedy) error {
	type entry struct {
		o      option
		fitted int // transfers placed when o was fitted, −1 if o is free
		ver    int // key version of o.to, older entries are dropped
	}
	q := heapq.New(func(a, b entry) bool { return g.better(a.o, b.o) })
	key, floor, ver := make([]option, g.nw.N), make([]option, g.nw.N), make([]int, g.nw.N)
	placed := 0
	lower := func(v int, o option, fitted int) {
		key[v] = o
		ver[v]++
		q.Push(entry{o, fitted, ver[v]})
	}
	fit := func(v int) {
		o, next := g.bestSender(v)
		floor[v] = next
		lower(v, o, placed)
	}
	for _, v := range g.nw.Parts {
		if !g.holds(v) {
			fit(v)
		}
	}
	for g.missing > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := q.Pop()
		v := e.o.to
		switch {
		case g.holds(v) || e.ver != ver[v]:
		case e.fitted == placed:
			g.take(e.o)
			placed++
			for _, w := range g.nw.Parts {
				if g.holds(w) {
					continue
				}
				switch f := g.free(v, w); {
				case g.better(f, key[w]):
					lower(w, f, -1)
				case g.better(f, floor[w]):
					floor[w] = f
				}
			}
		case e.fitted < 0:
			fit(v)
		default:
			if o := g.try(e.o.from, v); !g.better(floor[v], o) {
				lower(v, o, placed)
			} else {
				fit(v)
			}
		}
	}
	return nil
}

// planFlat is the cheapest schedule of the search space to build, the
// optimal search's last resort when its deadline comes before ecef's
// schedule: every non-holder in rank order gets the message from the
// root (initial holder) that delivers it first, so it places one transfer
// per participant and tries each root once for it.
func planFlat(g *greedy) {
	for _, v := range g.nw.Parts {
		if g.holds(v) {
			continue
		}
		best := option{arrive: math.Inf(1)}
		for _, r := range g.nw.Roots {
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
	order := slices.Clone(g.nw.Parts)
	speed := make([]float64, g.nw.N)
	for _, v := range order {
		for _, h := range g.nw.Adj[v] {
			speed[v] = math.Max(speed[v], g.nw.Routes.Bandwidth(h.Link))
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
		best, _ := g.bestSender(v)
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

package heuristic

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// Greedy is the state of a greedy heuristic: the calendar, who holds the
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
type Greedy struct {
	nw        *treenet.Network
	c         *treenet.Calendar
	ready     []float64 // arrival of the message, +Inf if not held
	delivered []int     // placement that delivered to a node, −1 for roots
	held      []int     // the holders, in the order they got the message
	frees     []Option  // bestSender's scratch: the free options
	tLast     float64   // the last start; stays 0 with backfill
	missing   int
	Backfill  bool
}

// New is a greedy on nw with no transfer placed: only the roots hold the
// message, and it places in time order (set Backfill to backfill).
func New(nw *treenet.Network) *Greedy {
	g := &Greedy{nw: nw, c: treenet.NewCalendar(nw), ready: make([]float64, nw.N), delivered: make([]int, nw.N)}
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

// Holds reports whether v holds the message.
func (g *Greedy) Holds(v int) bool { return !math.IsInf(g.ready[v], 1) }

// Calendar is the calendar the greedy places its transfers on.
func (g *Greedy) Calendar() *treenet.Calendar { return g.c }

// Delivered is the index in the calendar of the placement that delivered
// the message to v, −1 for a root or a node not informed yet.
func (g *Greedy) Delivered(v int) int { return g.delivered[v] }

// Option is a candidate transfer: its start and arrival.
type Option struct {
	From, To      int
	Start, Arrive float64
}

// Try computes the earliest start and arrival of u→v now.
func (g *Greedy) Try(u, v int) Option {
	start := g.c.Earliest(u, v, math.Max(g.tLast, g.ready[u]), g.nw.Size)
	return Option{From: u, To: v, Start: start, Arrive: start + g.nw.Cost[u][v]}
}

// free is u→v as if no reservation were made: no option of u→v, now or
// later, comes before it in better's order, as fitting only delays the
// start, and the arrival with it.
func (g *Greedy) free(u, v int) Option {
	start := max(g.tLast, g.ready[u])
	return Option{From: u, To: v, Start: start, Arrive: start + g.nw.Cost[u][v]}
}

// bestSender is the best option (see better) that informs v from a
// holder, and next, before which no option from another holder comes.
// Only the holders whose free option is not after the best one found so
// far are fitted, the freest first: the others cannot beat it.
func (g *Greedy) bestSender(v int) (best, next Option) {
	g.frees = g.frees[:0]
	first := Option{Arrive: math.Inf(1)}
	for _, u := range g.held {
		f := g.free(u, v)
		g.frees = append(g.frees, f)
		if g.better(f, first) {
			first = f
		}
	}
	best, next = g.Try(first.From, v), Option{Arrive: math.Inf(1)}
	for _, f := range g.frees {
		if f.From == first.From {
			continue
		}
		if !g.better(best, f) {
			f = g.Try(f.From, v)
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
func (g *Greedy) better(a, b Option) bool {
	if a.Arrive != b.Arrive {
		return a.Arrive < b.Arrive
	}
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	if a.From != b.From {
		return g.nw.Rank[a.From] < g.nw.Rank[b.From]
	}
	return g.nw.Rank[a.To] < g.nw.Rank[b.To]
}

// Take places an option.
func (g *Greedy) Take(o Option) {
	var after []int
	if d := g.delivered[o.From]; d >= 0 {
		after = []int{d}
	}
	g.delivered[o.To] = len(g.c.Moves)
	g.ready[o.To] = g.c.Place(o.From, o.To, o.Start, g.nw.Size, after)
	g.held = append(g.held, o.To)
	if !g.Backfill {
		g.tLast = o.Start
	}
	g.missing--
}

// ECEF is earliest completing edge first: among all transfers from a
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
func ECEF(ctx context.Context, g *Greedy) error {
	type entry struct {
		o      Option
		fitted int // transfers placed when o was fitted, −1 if o is free
		ver    int // key version of o.to, older entries are dropped
	}
	q := heapq.New(func(a, b entry) bool { return g.better(a.o, b.o) })
	key, floor, ver := make([]Option, g.nw.N), make([]Option, g.nw.N), make([]int, g.nw.N)
	placed := 0
	lower := func(v int, o Option, fitted int) {
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
		if !g.Holds(v) {
			fit(v)
		}
	}
	for g.missing > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := q.Pop()
		v := e.o.To
		switch {
		case g.Holds(v) || e.ver != ver[v]:
		case e.fitted == placed:
			g.Take(e.o)
			placed++
			for _, w := range g.nw.Parts {
				if g.Holds(w) {
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
			if o := g.Try(e.o.From, v); !g.better(floor[v], o) {
				lower(v, o, placed)
			} else {
				fit(v)
			}
		}
	}
	return nil
}

// Flat is the cheapest schedule of the search space to build, the
// optimal search's last resort when its deadline comes before ecef's
// schedule: every non-holder in rank order gets the message from the
// root (initial holder) that delivers it first, so it places one transfer
// per participant and tries each root once for it.
func Flat(g *Greedy) {
	for _, v := range g.nw.Parts {
		if g.Holds(v) {
			continue
		}
		best := Option{Arrive: math.Inf(1)}
		for _, r := range g.nw.Roots {
			if o := g.Try(r, v); g.better(o, best) {
				best = o
			}
		}
		g.Take(best)
	}
}

// FNF is fastest node first (Banikazemi et al.'s heuristic for
// heterogeneous nodes, on the tree): receivers are served fastest first,
// the speed of a node being the bandwidth of its fastest outgoing link (the
// rate at which it could forward), ties to the lower rank; each receiver
// gets the message from the holder that delivers it first.
func FNF(ctx context.Context, g *Greedy) error {
	order := slices.Clone(g.nw.Parts)
	speed := make([]float64, g.nw.N)
	for _, v := range order {
		for _, h := range g.nw.Adj[v] {
			speed[v] = math.Max(speed[v], g.nw.Routes.Bandwidth(h.Link))
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(speed[b], speed[a]) })
	for _, v := range order {
		if g.Holds(v) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		best, _ := g.bestSender(v)
		g.Take(best)
	}
	return nil
}

// Reset takes every transfer off g's calendar, back to the initial holders.
func (g *Greedy) Reset() {
	for len(g.c.Moves) > 0 {
		g.c.Undo()
	}
	for v := range g.ready {
		g.ready[v], g.delivered[v] = math.Inf(1), -1
	}
	for _, r := range g.nw.Roots {
		g.ready[r] = 0
	}
	g.tLast, g.missing = 0, len(g.nw.Parts)-len(g.nw.Roots)
}

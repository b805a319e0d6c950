package prover

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// The prover's neighbourhood search (a large neighbourhood search, Shaw
// 1998) looks for a schedule one grid step faster than the best known in
// neighbourhoods of it: the time-indexed model restricted (by
// timeindexed.Model.Restrict) so that most participants keep what they do
// in the best. A neighbourhood of at most half the whole model's start
// variables (lnsShare) mostly answers within a second, where the whole
// model next to the optimum takes tens of seconds to find a schedule on
// random trees of 32 participants; larger ones took as long as the whole
// model, and are not asked. Each call also has a conflict limit. The
// neighbourhoods, in turn:
//
//   - lnsRandom: n participants drawn at random may take any sender, the
//     others keep theirs (at any time);
//   - lnsTail: the participants reached before a drawn one of the n
//     reached last keep their sender and start, the others are free;
//   - lnsWindow: every participant may take any sender, with an arrival
//     within max(2, n/4) slots of its arrival in the best;
//   - lnsNear: the n participants whose arrivals are nearest a drawn one's
//     may take any sender, the others keep theirs.
//
// n starts at lnsFirst; it grows by three after an answer "none" (the
// neighbourhood was too small), falls by two after a call stopped at a
// limit (too large) and by four after a schedule. A phase ends after
// lnsStall calls in a row without a schedule. Its schedules are schedules
// of the whole model, so they are feasible like the prover's others; it
// proves nothing, so that a neighbourhood needs no more than to be a
// subset of the model. The draws come from a seeded generator and the
// limit counts conflicts, not seconds, so that a run without a budget
// gives the same result every time.
const (
	lnsConflicts = "20000" // cadical's conflict limit per call (-c)
	lnsStall     = 12
	lnsShare     = 0.5 // the largest neighbourhood, as a share of the whole model's start variables
	lnsFirst     = 8
)

// The kinds of neighbourhood, tried in this order.
const (
	lnsRandom = iota
	lnsTail
	lnsWindow
	lnsNear
	lnsKinds
)

// incumbent is a schedule of whole-message transfers as the neighbourhoods
// read it: per receiver, its sender and arrival.
type incumbent struct {
	makespan float64
	sender   map[int]int
	arrive   map[int]float64
	recv     []int // the receivers, in node order
}

// incumbentOf reads a schedule in which every receiver gets the whole
// message in one transfer; it reports false for any other.
func incumbentOf(moves []treenet.Placement, size, eps float64) (*incumbent, bool) {
	inc := &incumbent{makespan: treenet.Makespan(moves), sender: map[int]int{}, arrive: map[int]float64{}}
	for _, m := range moves {
		if _, twice := inc.sender[m.To]; twice || m.Offset != 0 || m.Amount < size-eps {
			return nil, false
		}
		inc.sender[m.To], inc.arrive[m.To] = m.From, m.Arrive
		inc.recv = append(inc.recv, m.To)
	}
	slices.Sort(inc.recv)
	return inc, len(moves) > 0
}

// schedule is the incumbent as a schedule of timed transfers (for
// timeindexed.CNF.Prefer).
func (inc *incumbent) schedule(nw *treenet.Network) *sim.Schedule {
	s := &sim.Schedule{}
	for _, v := range inc.recv {
		u := inc.sender[v]
		start := inc.arrive[v] - nw.Cost[u][v]
		s.Actions = append(s.Actions, sim.Action{Kind: sim.Transfer, From: u, To: v, Amount: nw.Size, Start: &start})
	}
	return s
}

// restriction is a neighbourhood as timeindexed.Model.Restrict takes it.
type restriction func(u, v int) (lo, hi float64, ok bool)

// neighbourhood is the restriction of one call: of the given kind,
// freeing about n participants, drawn by rng; step is the grid's δ.
func (inc *incumbent) neighbourhood(nw *treenet.Network, kind, n int, step float64, rng *rand.Rand) restriction {
	inf := math.Inf(1)
	c := inc.recv[rng.IntN(len(inc.recv))]
	if kind == lnsWindow {
		w := float64(max(2, n/4)) * step
		return func(u, v int) (float64, float64, bool) {
			start := inc.arrive[v] - nw.Cost[u][v]
			return start - w, start + w, true
		}
	}
	if kind == lnsTail {
		order := slices.Clone(inc.recv)
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(inc.arrive[b], inc.arrive[a]) })
		c = order[rng.IntN(min(n, len(order)))]
		return func(u, v int) (float64, float64, bool) {
			switch {
			case inc.arrive[v] >= inc.arrive[c]:
				return -inf, inf, true
			case inc.sender[v] != u:
				return 0, 0, false
			}
			start := inc.arrive[v] - nw.Cost[u][v]
			return start, start, true
		}
	}
	order := slices.Clone(inc.recv)
	if kind == lnsRandom {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	} else {
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Compare(math.Abs(inc.arrive[a]-inc.arrive[c]), math.Abs(inc.arrive[b]-inc.arrive[c]))
		})
	}
	free := map[int]bool{}
	for _, v := range order[:min(n, len(order))] {
		free[v] = true
	}
	return func(u, v int) (float64, float64, bool) { return -inf, inf, free[v] || inc.sender[v] == u }
}

// improve runs a phase of neighbourhood calls, each at one slot below hi
// (which falls with every schedule found, by the prover or the search),
// from the best schedule known, until lnsStall calls in a row find none or
// hi reaches lo. It sends every schedule it finds.
func (p *Prover) improve(ctx context.Context, lo int, hi *int, k float64) error {
	n, misses := lnsFirst, 0
	for misses < lnsStall {
		*hi = min(*hi, p.slots(k))
		inc := p.incumbent()
		if *hi-1 < lo || inc == nil {
			return nil
		}
		begin := time.Now()
		nb := inc.neighbourhood(p.nw, p.calls%lnsKinds, n, 1/k, p.rng)
		p.calls++
		ev, err := p.decide(ctx, *hi-1, k, nb, "-c", lnsConflicts)
		switch {
		case err != nil:
			return err
		case ev.Moves == nil && ev.Limited:
			misses++
			n = max(lnsFirst, n-2)
			continue
		case ev.Moves == nil:
			misses++
			n = min(n+3, len(inc.recv))
			continue
		}
		misses, n = 0, max(lnsFirst, n-4)
		ev.Horizon, ev.Took, ev.Local = float64(*hi-1)/k, time.Since(begin), true
		*hi = floorSlots(ev.Makespan, k)
		p.own = ev.Moves
		if err := p.send(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

// incumbent is the best schedule known to the prover, its own or the
// search's, as the neighbourhoods read it; nil when it has none they can
// read.
func (p *Prover) incumbent() *incumbent {
	var best *incumbent
	shared := p.best.Load()
	if shared == nil {
		shared = &[]treenet.Placement{}
	}
	for _, moves := range [][]treenet.Placement{p.own, *shared} {
		if inc, ok := incumbentOf(moves, p.nw.Size, 1e-9*p.nw.Size); ok && (best == nil || inc.makespan < best.makespan) {
			best = inc
		}
	}
	return best
}

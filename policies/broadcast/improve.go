package broadcast

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/netsched/netsched/policies/broadcast/heuristic"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// starter finds the search's first schedules: fnf's and ecef's (ecef),
// the dives and a probe, and the local search (firstSchedules, improve).
type starter struct{ s *search }

// pair is a transfer of a sequence, to be placed at the earliest time it
// fits no earlier than the start of the one before (the search's space).
type pair struct{ from, to int }

// sequenceValue is how good a decoded sequence is: its makespan, then its
// second-latest arrival, then the sum of its arrivals (these guide the
// local search across the plateaus of equal makespan: earlier arrivals
// leave more room to the rest).
type sequenceValue struct{ makespan, second, sum float64 }

func (a sequenceValue) less(b sequenceValue) bool {
	switch {
	case a.makespan != b.makespan:
		return a.makespan < b.makespan
	case a.second != b.second:
		return a.second < b.second
	}
	return a.sum < b.sum
}

// improveEvals is how many sequences the local search decodes per
// transfer of the schedule: a fixed number, so that a search without a
// time budget gives the same schedule on every run.
const improveEvals = 3000

// maxRestarts is how many restarts in a row may find no better makespan
// before the local search gives up when it has no time budget, having
// spent about 550 decodings per transfer in vain: enough to find the
// optimum of the SMP tree of 40 participants (its root bound, so that it
// is proven at once), little next to what the branch and bound needs
// where the dives miss the best schedule but the search finds it soon
// (that tree at 48: 1.4 s, 0.1 s without the local search; with 3
// restarts the tree of 40 stays unproven after 20 s).
const maxRestarts = 10

// lahc is the length of the late acceptance history, per transfer: a
// neighbour is also taken when it is no worse than the entry of the
// history it meets (a cyclic list of past values of the current sequence,
// each lowered when the current one is better), which lets the search
// leave a local optimum uphill for a while (Burke and Bykov's late
// acceptance hill climbing). On random trees with relays of 24
// participants it found a better schedule than plain hill climbing on 6
// of 10, a worse one on 2.
const lahc = 20

// improve is an iterated local search on the best known schedule, before
// the branch and bound: a better incumbent prunes more, and where the
// bound is tight it is the optimum. A schedule is a sequence of transfers
// (sender, receiver), decoded by placing, each time, the first transfer
// not placed yet whose sender holds the message, at the earliest time it
// fits after the start of the one placed before, as the search places its
// moves: every sequence decodes to a schedule of the search space, or to
// none when the senders wait on each other. A neighbour moves one
// transfer elsewhere in the sequence, swaps two, or gives a transfer
// another sender, half of the time a transfer of the critical chain (the
// last arrival and the transfers that brought the message to its
// sender); it replaces the current sequence when it is no worse
// (sequenceValue) than it or than the late acceptance history (lahc).
// After a long run without a better makespan the search starts again from
// the best sequence with a few random changes. Its random choices come
// from a fixed seed. It stops when the best meets the root bound; with a
// time budget, after a third of it (on random trees with relays of 32
// participants, 10 s of it find schedules a fifth to a third shorter than
// the first 10 restarts); without, after improveEvals decodings per
// transfer (at most maxPlacements placements in all, and no more
// decodings than a node budget's nodes) or maxRestarts restarts in a row
// without a better makespan, so that it ends the same on every machine.
func (st *starter) improve() (done bool) {
	s := st.s
	m := max(1, len(s.bestMoves))
	evals := min(improveEvals*m, maxPlacements/m)
	if s.opt.MaxNodes > 0 {
		evals = int(min(int64(evals), s.opt.MaxNodes)) // a node budget bounds it too
	}
	return st.improveFor(evals)
}

// maxPlacements caps the transfers the local search places without a time
// budget (decodings times transfers), about 7 s on this project's machine:
// on large trees improveEvals decodings per transfer would take hours.
const maxPlacements = 10_000_000

// improveFor runs improve's local search for at most evals decodings.
// With a time budget it runs timedChains of them by turns, until a third of
// the budget has gone (a sixth after its start at least) and the best
// schedule has not become better in the latter half of its run so far (on a random tree of 64
// participants with relays, a 30 s budget then ends at 4.85 instead of
// 6.75; where it stalls it stops at the third as before). It also probes
// (see probe): first after probeAfter, then each time it has run as long
// again, each probe for a quarter of the time the local search has run,
// the plain branch and bound and deepen by turns (see race). A search
// whose first schedules were poor but whose bound is tight is so proven
// soon after the local search finds the optimum, not only after its third
// of the budget, and the lower bound deepen proves rises meanwhile. It
// reports whether a probe finished the search.
func (st *starter) improveFor(evals int) (done bool) {
	s := st.s
	if len(s.bestMoves) < 2 {
		return false
	}
	chains := []*localSearch{newLocalSearch(s, 0, s.bestMoves)}
	var until time.Time // a third of a time budget, or later while it still finds better schedules
	start := time.Now()
	gained, best := start, s.best // when the best schedule last became better
	next, deep := start.Add(probeAfter), false
	if s.opt.MaxTime > 0 {
		until, evals = s.begin.Add(s.opt.MaxTime/3), math.MaxInt
		if least := start.Add(s.opt.MaxTime / 6); least.After(until) {
			until = least // a sixth of the budget at least, when the first schedules took long
		}
		for k := 1; k < timedChains; k++ {
			from := s.bestMoves
			if k-1 < len(s.starts) {
				from = s.starts[k-1]
			}
			chains = append(chains, newLocalSearch(s, uint64(k), from))
		}
	}
	for n := range evals {
		if s.solved() || s.budget() {
			return false
		}
		if s.best < best {
			gained, best = time.Now(), s.best
		}
		if n%64 == 0 && !until.IsZero() {
			now := time.Now()
			if now.After(until) && now.Sub(gained) > now.Sub(start)/2 {
				return false
			}
			if now.After(next) {
				if s.probe(0, now.Add(now.Sub(start)/4), deep) {
					return true
				}
				next, deep = time.Now().Add(time.Since(start)), !deep
			}
		}
		ls := chains[n%len(chains)]
		ls.step(ls.steps)
		if ls.steps++; ls.stale > 50*len(ls.best) {
			if ls.restarts++; ls.restarts > maxRestarts && until.IsZero() {
				return false
			}
			ls.restart()
		}
	}
	return false
}

// localSearch is the state of improve: the best and the current
// sequences, the late acceptance history, the greedy that decodes
// sequences and the random source.
type localSearch struct {
	s               *search
	g               *heuristic.Greedy
	rng             *rand.Rand
	best, cur, cand []pair
	bestVal, curVal sequenceValue
	hist            []sequenceValue
	crit            []int  // the critical chain of cur (see critical)
	stale, restarts int    // decodings since a better makespan; restarts since
	steps           int    // decodings so far
	done            []bool // per position of the sequence: placed
	pos             []int  // per placement: its position in the sequence
}

// newLocalSearch starts from the schedule of the given moves, its random
// choices drawn from the given stream.
func newLocalSearch(s *search, stream uint64, moves []treenet.Placement) *localSearch {
	ls := &localSearch{s: s, g: heuristic.New(s.nw), rng: rand.New(rand.NewPCG(uint64(len(moves)), 0x696d70726f7665+stream))}
	ls.best = make([]pair, len(moves))
	for i, m := range moves {
		ls.best[i] = pair{m.From, m.To}
	}
	ls.bestVal, _ = ls.decode(ls.best)
	ls.cur, ls.curVal, ls.cand = slices.Clone(ls.best), ls.bestVal, make([]pair, len(ls.best))
	ls.crit = ls.critical(nil)
	ls.hist = make([]sequenceValue, lahc*len(ls.best))
	for i := range ls.hist {
		ls.hist[i] = ls.curVal
	}
	return ls
}

// step decodes a neighbour of the current sequence, the n-th, and takes it
// when it is no worse than the current one or the history's entry; a
// better makespan than the best (always taken, the best being no better
// than the current) becomes the search's best.
func (ls *localSearch) step(n int) {
	s := ls.s
	copy(ls.cand, ls.cur)
	ls.neighbour(ls.cand, ls.crit)
	val, ok := ls.decode(ls.cand)
	h := &ls.hist[n%len(ls.hist)]
	if !ok || ls.curVal.less(val) && h.less(val) {
		ls.stale++
	} else {
		ls.cur, ls.cand, ls.curVal = ls.cand, ls.cur, val
		ls.crit = ls.critical(ls.crit)
	}
	if ls.curVal.less(*h) {
		*h = ls.curVal
	}
	if ok && val.makespan < ls.bestVal.makespan-s.eps {
		ls.bestVal, ls.stale, ls.restarts = val, 0, 0
		copy(ls.best, ls.cur)
		if val.makespan < s.best-s.eps { // a probe may have found a better one
			s.best, s.bestMoves = val.makespan, slices.Clone(ls.g.Calendar().Moves)
		}
	}
}

// restart makes the best sequence, shaken by three random changes, the
// current one (the best itself when the shaken one does not decode).
func (ls *localSearch) restart() {
	copy(ls.cur, ls.best)
	for range 3 {
		ls.neighbour(ls.cur, nil)
	}
	var ok bool
	if ls.curVal, ok = ls.decode(ls.cur); !ok {
		copy(ls.cur, ls.best)
		ls.curVal, _ = ls.decode(ls.cur)
	}
	ls.crit, ls.stale = ls.critical(ls.crit), 0
}

// critical lists, into buf, the positions in the sequence of the
// transfers of the critical chain of the sequence last decoded: the one
// that arrives last and, going back, the one that delivered to its
// sender, and so on.
func (ls *localSearch) critical(buf []int) []int {
	moves := ls.g.Calendar().Moves
	buf = buf[:0]
	last := 0
	for i, m := range moves {
		if m.Arrive > moves[last].Arrive {
			last = i
		}
	}
	for i := last; i >= 0; i = ls.g.Delivered(moves[i].From) {
		buf = append(buf, ls.pos[i])
	}
	return buf
}

// neighbour changes a sequence in place: it moves a transfer to another
// place, swaps two, or gives one a sender drawn among the participants
// that hold the message before its turn (the sequence's receivers before
// it and the roots). Half of the time the transfer is one of crit.
func (ls *localSearch) neighbour(seq []pair, crit []int) {
	rng, roots := ls.rng, ls.s.nw.Roots
	i, j := rng.IntN(len(seq)), rng.IntN(len(seq))
	if len(crit) > 0 && rng.IntN(2) == 0 {
		i = crit[rng.IntN(len(crit))]
	}
	switch rng.IntN(3) {
	case 0:
		p := seq[i]
		if i < j {
			copy(seq[i:j], seq[i+1:j+1])
		} else {
			copy(seq[j+1:i+1], seq[j:i])
		}
		seq[j] = p
	case 1:
		seq[i], seq[j] = seq[j], seq[i]
	default:
		k := rng.IntN(i + len(roots))
		if k < len(roots) {
			seq[i].from = roots[k]
		} else {
			seq[i].from = seq[k-len(roots)].to
		}
	}
}

// decode places a sequence on the greedy, reset first, and returns its
// value: it places, each time, the first transfer of the sequence not
// placed yet whose sender holds the message (a transfer waits for its
// sender's copy); ok is false when none does while some are left.
func (ls *localSearch) decode(seq []pair) (sequenceValue, bool) {
	g := ls.g
	g.Reset()
	ls.done = append(ls.done[:0], make([]bool, len(seq))...)
	ls.pos = ls.pos[:0]
	var val sequenceValue
	first := 0
	for range seq {
		for first < len(seq) && ls.done[first] {
			first++
		}
		i := first
		for i < len(seq) && (ls.done[i] || !g.Holds(seq[i].from)) {
			i++
		}
		if i == len(seq) {
			return sequenceValue{math.Inf(1), math.Inf(1), math.Inf(1)}, false
		}
		ls.done[i] = true
		ls.pos = append(ls.pos, i)
		o := g.Try(seq[i].from, seq[i].to)
		g.Take(o)
		switch {
		case o.Arrive > val.makespan:
			val.makespan, val.second = o.Arrive, val.makespan
		case o.Arrive > val.second:
			val.second = o.Arrive
		}
		val.sum += o.Arrive
	}
	return val, true
}

// timedChains is how many local searches run by turns with a time budget,
// each with its own random stream, the first from the best schedule and
// the others from the schedules the later dives end at (see dive): where
// one chain ends depends much on its start and its random choices
// (random-32/3: 2.85, 2.85 and 3.55 from one start), and the best of
// several short chains tends to beat one long one.
const timedChains = 3

// probeAfter is how long the local search runs before its first probe
// (see improveFor).
const probeAfter = 250 * time.Millisecond

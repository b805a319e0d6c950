// Package rounds is the skeleton shared by the divisible-load policies
// that expand one optimal steady-state round into R rounds (paper 000
// §3.1.2, paper 001 §2.3): the load is cut into R equal chunks, and the
// schedule is a sequence of slots, each holding the transfers and
// computations of some chunks.
//
// A policy says what each slot holds (its kind) and how one slot of each
// kind is placed; the skeleton lays the slots end to end (Layout), chooses
// R (BestRounds), and emits the actions slot by slot in order of planned
// start (Emitter, Emit). Packages policies/mmdl and policies/multicluster
// build their expansions on it.
package rounds

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/netsched/netsched/sim"
)

// Layout is the timing of R rounds cut into slots: the kind of every
// slot, one placement per kind (relative to its slot's start), and when
// every slot starts. Slots follow each other with no gap.
type Layout[K comparable, S any] struct {
	R        int
	Kinds    []K       // slot k's kind
	Slots    map[K]S   // the placement of each kind of slot
	Starts   []float64 // slot k's start
	Makespan float64   // when the last slot ends
}

// NewLayout lays out n slots of R rounds: kind(k) is slot k's kind,
// place(kind) places a slot of that kind (once per kind), and length says
// how long a placed slot lasts.
func NewLayout[K comparable, S any](R, n int, kind func(k int) K, place func(K) (S, error), length func(S) float64) (*Layout[K, S], error) {
	l := &Layout[K, S]{R: R, Kinds: make([]K, n), Slots: map[K]S{}, Starts: make([]float64, n)}
	for k := range n {
		l.Kinds[k] = kind(k)
		if _, ok := l.Slots[l.Kinds[k]]; ok {
			continue
		}
		s, err := place(l.Kinds[k])
		if err != nil {
			return nil, err
		}
		l.Slots[l.Kinds[k]] = s
	}
	t := 0.0
	for k := range n {
		l.Starts[k] = t
		t += length(l.Slots[l.Kinds[k]])
	}
	l.Makespan = t
	return l, nil
}

// Slot is the placement of slot k.
func (l *Layout[K, S]) Slot(k int) S { return l.Slots[l.Kinds[k]] }

// Choice is what BestRounds needs of an expansion.
type Choice struct {
	T          float64 // the round time
	AlphaRound float64 // start-up overhead per slot (the papers' per-round α)
	Delay      int     // slots a chunk takes beyond one: makespan ≈ T + Delay·T/R + R·AlphaRound
	Comms      bool    // the round has transfers
	MaxRounds  int     // the cap on R
}

// BestRounds is R = √(Delay·T/α) (paper 000 §3.1.2, paper 001 §2.3, α =
// AlphaRound) rounded to whichever neighbour gives the shorter schedule by
// makespan (the lower one on a tie), within [1, MaxRounds]. Without
// start-up cost more rounds are always better, so it is MaxRounds; without
// transfers it is 1.
func BestRounds(c Choice, makespan func(R int) (float64, error)) (int, error) {
	switch {
	case !c.Comms:
		return 1, nil
	case c.AlphaRound == 0:
		return c.MaxRounds, nil
	}
	r := math.Sqrt(float64(c.Delay) * c.T / c.AlphaRound)
	lo := min(max(1, int(math.Floor(r))), c.MaxRounds)
	hi := min(max(1, int(math.Ceil(r))), c.MaxRounds)
	spanLo, err := makespan(lo)
	if err != nil || lo == hi {
		return lo, err
	}
	spanHi, err := makespan(hi)
	if err != nil || spanLo <= spanHi {
		return lo, err
	}
	return hi, nil
}

// PaperMakespan is the papers' T + T/R + Rα.
func PaperMakespan(T, alpha float64, R int) float64 {
	return T + T/float64(R) + float64(R)*alpha
}

// Emit emits the slots of l into s, slot(k, start) for each in order,
// stopping when ctx is done, and sets the claim to the makespan: every
// time is exact, so the claim is too.
func Emit[K comparable, S any](ctx context.Context, l *Layout[K, S], s *sim.Schedule, slot func(k int, start float64)) error {
	for k, t := range l.Starts {
		if err := ctx.Err(); err != nil {
			return err
		}
		slot(k, t)
	}
	s.Claimed = l.Makespan
	return nil
}

// Emitter appends one slot's actions to a schedule sorted by planned
// start, ties in the order they were added. Every After of a slot's
// actions points into earlier slots, so they can be sorted before they
// are appended; ordered replay then keeps that order on each resource.
// Its buffers are kept from slot to slot.
type Emitter struct {
	S     *sim.Schedule
	pend  []pending
	order []int32
}

// pending is an action of the slot being built and its tag.
type pending struct {
	a   sim.Action
	tag int
}

// Add adds an action with a tag to the slot; Start must be set.
func (e *Emitter) Add(a sim.Action, tag int) { e.pend = append(e.pend, pending{a, tag}) }

// Flush appends the slot's actions to the schedule and calls placed with
// the tag and index of every action whose tag is ≥ 0.
func (e *Emitter) Flush(placed func(tag, index int)) {
	// Sort positions, not the actions themselves: an action is a large
	// struct of pointers, costly to move while the collector runs.
	out, order := e.pend, e.order[:0]
	for i := range out {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(x, y int32) int { // stable: ties keep emission order
		return cmp.Or(cmp.Compare(*out[x].a.Start, *out[y].a.Start), cmp.Compare(x, y))
	})
	for _, i := range order {
		idx := e.S.Add(out[i].a)
		if out[i].tag >= 0 {
			placed(out[i].tag, idx)
		}
	}
	clear(out) // drop the slot's pointers: the schedule holds copies
	e.pend, e.order = out[:0], order
}

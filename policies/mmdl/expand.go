package mmdl

import (
	"cmp"
	"context"
	"slices"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/policies/rounds"
	"github.com/netsched/netsched/sim"
)

// Expansion is the multi-round schedule of §3.1.2 built from one optimal
// round: the load is cut into R equal chunks; chunk c is distributed in
// slot c−1, computed in slot c and, when results are collected, its
// results go back in slot c+1. The first slot therefore only
// communicates and the last only computes (or only collects).
//
// Within a slot every processor computes from the slot's start, at the
// rate its active communications allow (§3.4: computation packed into the
// time without communication, or overlapped at the overlap rate); the
// distribution and collection phases are scheduled by ScheduleMessages in
// the chosen Order, one after the other on half-duplex ports (collection
// first, §4.1) and side by side on full-duplex ports (§4.3). A slot lasts
// until its last transfer and its last computation have ended, so every
// time in the schedule is exact on the crossbar, start-up latency α of
// every message included.
type Expansion struct {
	Model    *Model
	Round    Round
	Messages []Message // one round's messages, from IntervalMatching
	Order    Order
	work     []float64 // per processor, load computed per round: x_i − sent + received
	incoming [][]int   // per processor, the messages it receives
}

// NewExpansion matches masters and workers of the round and prepares its
// expansion in the given order.
func NewExpansion(m *Model, r Round, order Order) *Expansion {
	e := &Expansion{Model: m, Round: r, Order: order, Messages: IntervalMatching(r.Y)}
	e.work = make([]float64, len(m.Procs))
	e.incoming = make([][]int, len(m.Procs))
	for i := range m.Procs {
		e.work[i] = m.Procs[i].X
	}
	total := 0.0
	for k, msg := range e.Messages {
		e.work[msg.Master] -= msg.Amount
		e.work[msg.Worker] += msg.Amount
		e.incoming[msg.Worker] = append(e.incoming[msg.Worker], k)
		total += msg.Amount
	}
	// A master that sends all it has keeps rounding dust, which is no work
	// to schedule: a computation of 1e-15 units would end in whichever
	// ulp-wide gap between two of its transfers the replay sees first.
	for i := range e.work {
		if e.work[i] <= matchTol*total {
			e.work[i] = 0
		}
	}
	return e
}

// MaxMessages is the largest number of messages one processor handles in
// one phase of a round.
func (e *Expansion) MaxMessages() int {
	count := make([]int, len(e.Model.Procs))
	most := 0
	for _, msg := range e.Messages {
		count[msg.Master]++
		count[msg.Worker]++
		most = max(most, count[msg.Master], count[msg.Worker])
	}
	return most
}

// AlphaRound is the start-up overhead per slot in the sense of the paper's
// per-round α (§3.1.2): a processor's port is busy α longer for each of its
// messages, so a slot grows by at most α times the largest number of
// messages a port handles in it (twice that with half-duplex result
// collection, whose two phases follow each other).
func (e *Expansion) AlphaRound() float64 {
	phases := 1.0
	if e.Model.Collect && !e.Model.Full {
		phases = 2
	}
	return phases * float64(e.MaxMessages()) * e.Model.Alpha
}

// PaperMakespan is the paper's claim T + T/R + Rα with α = AlphaRound.
func (e *Expansion) PaperMakespan(R int) float64 {
	return rounds.PaperMakespan(e.Round.T, e.AlphaRound(), R)
}

// BestRounds is R = √(T/α) (§3.1.2, α = AlphaRound) rounded to whichever
// neighbour gives the shorter schedule, within [1, maxRounds]
// (rounds.BestRounds). Without start-up cost more rounds are always
// better, so it is maxRounds; without communication it is 1.
func (e *Expansion) BestRounds(maxRounds int) (int, error) {
	c := rounds.Choice{T: e.Round.T, AlphaRound: e.AlphaRound(), Delay: 1, Comms: len(e.Messages) > 0, MaxRounds: maxRounds}
	return rounds.BestRounds(c, func(R int) (float64, error) {
		l, err := e.layout(R)
		if err != nil {
			return 0, err
		}
		return l.Makespan, nil
	})
}

// slotKind says what happens in a slot.
type slotKind uint8

const (
	hasDist    slotKind = 1 << iota // distribution of the next chunk
	hasCompute                      // computation of this chunk
	hasColl                         // collection of the previous chunk's results
)

// kindOf is what slot k of R has.
func (e *Expansion) kindOf(k, R int) slotKind {
	var kind slotKind
	if k+1 <= R {
		kind |= hasDist
	}
	if 1 <= k && k <= R {
		kind |= hasCompute
	}
	if e.Model.Collect && 2 <= k && k <= R+1 {
		kind |= hasColl
	}
	return kind
}

// numSlots is the number of slots for R rounds.
func (e *Expansion) numSlots(R int) int {
	if e.Model.Collect {
		return R + 2
	}
	return R + 1
}

// phase is one scheduled communication phase of a slot.
type phase struct {
	comms []Comm
	start []float64
	span  float64
}

// layout is the timing of every kind of slot for R rounds.
type layout struct {
	*rounds.Layout[slotKind, *slotLayout]
	e          *Expansion
	dist, coll phase
}

// slotLayout places the phases and computations of one kind of slot,
// relative to its start.
type slotLayout struct {
	length           float64
	distOff, collOff float64
	computeEnd       []float64 // per processor with work
}

func (e *Expansion) layout(R int) (*layout, error) {
	m := e.Model
	l := &layout{e: e}
	for _, msg := range e.Messages {
		a := msg.Amount / float64(R)
		l.dist.comms = append(l.dist.comms, Comm{From: msg.Master, To: msg.Worker, Dur: m.Alpha + a*m.Beta})
		if m.Collect {
			l.coll.comms = append(l.coll.comms, Comm{From: msg.Worker, To: msg.Master, Dur: m.Alpha + m.Rho*a*m.Beta})
		}
	}
	for _, ph := range []*phase{&l.dist, &l.coll} {
		var err error
		if ph.start, ph.span, err = ScheduleMessages(ph.comms, len(m.Procs), e.Order); err != nil {
			return nil, err
		}
	}
	kind := func(k int) slotKind { return e.kindOf(k, R) }
	place := func(kind slotKind) (*slotLayout, error) { return l.place(kind, R), nil }
	length := func(s *slotLayout) float64 { return s.length }
	var err error
	l.Layout, err = rounds.NewLayout(R, e.numSlots(R), kind, place, length)
	return l, err
}

// place lays out one kind of slot.
func (l *layout) place(kind slotKind, R int) *slotLayout {
	m := l.e.Model
	s := &slotLayout{}
	ivs := make([][]Busy, len(m.Procs))
	add := func(ph *phase, off float64) {
		for k, c := range ph.comms {
			st := off + ph.start[k]
			ivs[c.From] = append(ivs[c.From], Busy{Start: st, End: st + c.Dur, Mask: maskSend})
			ivs[c.To] = append(ivs[c.To], Busy{Start: st, End: st + c.Dur, Mask: maskRecv})
		}
		s.length = max(s.length, off+ph.span)
	}
	if kind&hasColl != 0 {
		add(&l.coll, 0)
	}
	if kind&hasDist != 0 {
		if kind&hasColl != 0 && !m.Full {
			s.distOff = l.coll.span
		}
		add(&l.dist, s.distOff)
	}
	if kind&hasCompute != 0 {
		s.computeEnd = make([]float64, len(m.Procs))
		for i := range m.Procs {
			if w := l.e.work[i] / float64(R); w > 0 {
				s.computeEnd[i] = FinishWork(w, ivs[i], m.Procs[i].Rate[:])
				s.length = max(s.length, s.computeEnd[i])
			}
		}
	}
	return s
}

// Busy is a time during which a processor communicates: Mask has bit k set
// for the k-th communication kind of its platform (send, recv on a
// crossbar; intra-send, intra-recv, inter-send, inter-recv on a
// multi-cluster, models.MultiClusterKinds), as the rates of FinishWork are
// indexed.
type Busy struct {
	Start, End float64
	Mask       int
}

// maxKinds is the most communication kinds FinishWork tells apart.
const maxKinds = 8

// FinishWork is when w units of work started at time 0 end on a processor
// that communicates during busy and computes at rates[mask of the kinds
// active]: the rate changes whenever a communication starts or ends
// (DESIGN.md, "Overlap-dependent compute rates"), as in the replay. rates
// has one entry per mask (1 << kinds of them); rates[0] must be > 0.
func FinishWork(w float64, busy []Busy, rates []float64) float64 {
	type event struct {
		t     float64
		mask  int
		delta int
	}
	evs := make([]event, 0, 2*len(busy))
	for _, b := range busy {
		evs = append(evs, event{b.Start, b.Mask, 1}, event{b.End, b.Mask, -1})
	}
	slices.SortStableFunc(evs, func(a, b event) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		return a.delta - b.delta // ends before starts at the same time
	})
	var count [maxKinds]int
	t, mask := 0.0, 0
	for k := 0; k < len(evs); {
		if r := rates[mask]; r > 0 && evs[k].t > t {
			done := r * (evs[k].t - t)
			if done >= w {
				return t + w/r
			}
			w -= done
		}
		t = max(t, evs[k].t)
		for ; k < len(evs) && evs[k].t == t; k++ {
			for b := range maxKinds {
				if evs[k].mask&(1<<b) != 0 {
					count[b] += evs[k].delta
				}
			}
		}
		mask = 0
		for b := range maxKinds {
			if count[b] > 0 {
				mask |= 1 << b
			}
		}
	}
	return t + w/rates[0]
}

// Schedule expands the round into R rounds of actions with planned start
// and end times; the claim is the schedule's exact makespan.
func (e *Expansion) Schedule(ctx context.Context, R int) (*sim.Schedule, error) {
	return e.schedule(ctx, R, nil)
}

// schedule is Schedule built in the memory of recycle (sim.Recycled).
func (e *Expansion) schedule(ctx context.Context, R int, recycle *sim.Schedule) (*sim.Schedule, error) {
	l, err := e.layout(R)
	if err != nil {
		return nil, err
	}
	perRound := len(e.Messages) + len(e.Model.Procs)
	if e.Model.Collect {
		perRound += len(e.Messages)
	}
	b := &builder{
		l:        l,
		em:       rounds.Emitter{S: sim.Recycled(recycle, R*perRound)},
		lastDist: make([]int, len(e.Messages)), lastCompute: make([]int, len(e.Model.Procs)),
	}
	for i := range b.lastCompute {
		b.lastCompute[i] = -1
	}
	if err := rounds.Emit(ctx, l.Layout, b.em.S, b.slot); err != nil {
		return nil, err
	}
	return b.em.S, nil
}

// builder emits the actions slot by slot.
type builder struct {
	l           *layout
	em          rounds.Emitter
	lastDist    []int // action of each message in the last distribution
	lastCompute []int // action of each processor's last computation, or -1
}

// slotMemory holds the planned times and After lists of one slot's
// actions in two arrays, rather than in an allocation per action. A
// pointer or list it gave out stays valid when an array grows: it points
// into the old one, which keeps its values.
type slotMemory struct {
	times  []float64
	afters []int
}

// newSlotMemory makes room for the given number of actions in the memory
// of s (sim.Schedule.Floats and Ints).
func newSlotMemory(s *sim.Schedule, actions int) slotMemory {
	return slotMemory{times: s.Floats(2 * actions)[:0], afters: s.Ints(actions)[:0]}
}

// at returns a pointer to t, for an action's Start or End.
func (sm *slotMemory) at(t float64) *float64 {
	sm.times = append(sm.times, t)
	return &sm.times[len(sm.times)-1]
}

// list returns the After list of one action.
func (sm *slotMemory) list(action int) []int {
	sm.afters = append(sm.afters, action)
	return sm.since(len(sm.afters) - 1)
}

// since returns the After list appended from index from on, capped so
// that appending to it copies.
func (sm *slotMemory) since(from int) []int {
	n := len(sm.afters)
	return sm.afters[from:n:n]
}

// slot emits slot k starting at t, its actions in order of planned start
// (rounds.Emitter). Tags: message j's distribution is j, processor i's
// computation len(Messages)+i, a collection −1.
func (b *builder) slot(k int, t float64) {
	e, sl, kind := b.l.e, b.l.Slot(k), b.l.Kinds[k]
	m, R := e.Model, float64(b.l.R)
	mem := newSlotMemory(b.em.S, 2*len(e.Messages)+len(m.Procs))
	if kind&hasColl != 0 {
		for j, c := range b.l.coll.comms {
			msg := e.Messages[j]
			st := t + sl.collOff + b.l.coll.start[j]
			b.em.Add(sim.Action{
				Kind: sim.Transfer, From: c.From, To: c.To, Amount: m.Rho * msg.Amount / R,
				Start: mem.at(st), End: mem.at(st + c.Dur), After: mem.list(b.lastCompute[msg.Worker]),
				Label: check.ResultsLabel, Round: k - 1,
			}, -1)
		}
	}
	if kind&hasDist != 0 {
		for j, c := range b.l.dist.comms {
			st := t + sl.distOff + b.l.dist.start[j]
			b.em.Add(sim.Action{
				Kind: sim.Transfer, From: c.From, To: c.To, Amount: e.Messages[j].Amount / R,
				Start: mem.at(st), End: mem.at(st + c.Dur), Label: "load", Round: k + 1,
			}, j)
		}
	}
	if kind&hasCompute != 0 {
		b.computations(k, t, sl, &mem)
	}
	newDist := make([]int, len(e.Messages))
	b.em.Flush(func(tag, idx int) {
		if tag < len(newDist) {
			newDist[tag] = idx
		} else {
			b.lastCompute[tag-len(newDist)] = idx
		}
	})
	if kind&hasDist != 0 {
		b.lastDist = newDist
	}
}

// computations adds the computations of slot k, starting at t: each
// follows its processor's last computation and the transfers that brought
// it the chunk.
func (b *builder) computations(k int, t float64, sl *slotLayout, mem *slotMemory) {
	e := b.l.e
	for i := range e.Model.Procs {
		w := e.work[i] / float64(b.l.R)
		if w <= 0 {
			continue
		}
		from := len(mem.afters)
		if b.lastCompute[i] >= 0 {
			mem.afters = append(mem.afters, b.lastCompute[i])
		}
		for _, j := range e.incoming[i] {
			mem.afters = append(mem.afters, b.lastDist[j])
		}
		b.em.Add(sim.Action{
			Kind: sim.Compute, Node: i, Amount: w,
			Start: mem.at(t), End: mem.at(t + sl.computeEnd[i]), After: mem.since(from), Round: k,
		}, len(e.Messages)+i)
	}
}

package multicluster

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/policies/mmdl"
	"github.com/netsched/netsched/policies/rounds"
	"github.com/netsched/netsched/sim"
)

// Expansion is the multi-round schedule built from one optimal round
// (§2.3, as paper 000 §3.1.2): the load is cut into R equal chunks, and
// every transfer and computation of the round happens once per chunk, with
// 1/R of its amount.
//
// A chunk's data moves one hop per slot (§4: what a round computes was
// sent in an earlier round, and the two halves of a relay are in different
// rounds). A processor that sends no more than its own load sends its part
// of chunk c in slot c (depth 0); one that forwards what it received (a
// relay sending more than it holds) sends in the slot after the latest of
// its senders (depth 1, or 2 for a relay of a worker cluster fed by a
// relay of a master cluster); a processor computes chunk c in the slot
// after the latest of its senders (its delay: slot c+1 without relays),
// or, if it receives nothing, in slot c. So there are R + (largest delay)
// slots; the last only computes.
//
// Within a slot every transfer starts as soon as the ports and uplinks it
// needs are free, in the order the round's layout (RoundLayout) gives each
// of them, and lasts α + aβ_j inside a cluster or α + aβ across; every
// processor computes from the start of the slot at the rate its active
// communications allow (mmdl.FinishWork). A slot lasts until its last
// transfer and computation end, so every time in the schedule is exact on
// the multi-cluster platform. With α = 0 every slot but the edges lasts
// T/R at most.
type Expansion struct {
	Model     *Model
	Round     *Round
	Transfers []Transfer // the round's, sorted by start
	work      []float64  // per processor, load it computes per round
	depth     []int      // per processor, the slot offset of its sends
	delay     []int      // per processor, the slot offset of its computation
	into      [][]int    // per processor, the transfers it receives
	touching  [][]int    // per processor, the transfers it sends or receives
	maxDepth  int
	maxDelay  int
}

// NewExpansion prepares the expansion of round r laid out as trs. Every
// processor computes what it keeps and receives, as the transfers give it.
func NewExpansion(m *Model, r *Round, trs []Transfer) (*Expansion, error) {
	n := len(m.Procs)
	e := &Expansion{Model: m, Round: r, Transfers: trs, work: make([]float64, n),
		depth: make([]int, n), delay: make([]int, n), into: make([][]int, n), touching: make([][]int, n)}
	sent := make([]float64, n)
	for i := range m.Procs {
		e.work[i] = m.Procs[i].X
	}
	for k, tr := range trs {
		e.work[tr.From] -= tr.Amount
		e.work[tr.To] += tr.Amount
		sent[tr.From] += tr.Amount
		e.into[tr.To] = append(e.into[tr.To], k)
		e.touching[tr.From] = append(e.touching[tr.From], k)
		e.touching[tr.To] = append(e.touching[tr.To], k)
	}
	for i := range e.work {
		tol := 1e-9 * (m.Procs[i].X + sent[i])
		switch {
		case e.work[i] < -tol:
			return nil, fmt.Errorf("P%d sends %g more than it holds and receives (a bug)", i, -e.work[i])
		case e.work[i] <= tol: // a master that sends all it has keeps rounding dust
			e.work[i] = 0
		}
	}
	if err := e.setDepths(sent); err != nil {
		return nil, err
	}
	return e, nil
}

// setDepths computes every processor's depth and delay: a processor that
// sends more than its own load forwards, one slot after its latest sender.
func (e *Expansion) setDepths(sent []float64) error {
	const (
		unset = iota
		busy
		done
	)
	state := make([]uint8, len(e.depth))
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case done:
			return nil
		case busy:
			return fmt.Errorf("data passes through P%d in a cycle (a bug)", i)
		}
		state[i] = busy
		latest := -1
		for _, k := range e.into[i] {
			j := e.Transfers[k].From
			if err := visit(j); err != nil {
				return err
			}
			latest = max(latest, e.depth[j])
		}
		e.delay[i] = latest + 1
		if x := e.Model.Procs[i].X; sent[i] > x*(1+1e-12)+1e-12*sent[i] && latest >= 0 {
			e.depth[i] = latest + 1
		}
		state[i] = done
		return nil
	}
	for i := range e.depth {
		if err := visit(i); err != nil {
			return err
		}
	}
	e.maxDelay = 1
	for i := range e.depth {
		e.maxDepth, e.maxDelay = max(e.maxDepth, e.depth[i]), max(e.maxDelay, e.delay[i])
	}
	return nil
}

// NumSlots is the number of slots of R rounds.
func (e *Expansion) NumSlots(R int) int { return R + e.maxDelay }

// timing is the start and end of every transfer in a slot, from its start,
// for R rounds (see Expansion): each in the layout's order on its ports
// and uplinks, as soon as they are free.
func (e *Expansion) timing(R int, alphaOnly bool) (start, end []float64) {
	m := e.Model
	start, end = make([]float64, len(e.Transfers)), make([]float64, len(e.Transfers))
	n := len(m.Procs)
	free := make([]float64, 2*n+2*len(m.Clusters)) // send ports, receive ports, uplinks out, in
	for k, tr := range e.Transfers {
		beta := m.ClusterOf(tr.From).Beta
		res := []int{tr.From, n + tr.To}
		if tr.Inter {
			beta = m.Beta
			res = append(res, 2*n+2*m.Procs[tr.From].Cluster, 2*n+2*m.Procs[tr.To].Cluster+1)
		}
		dur := m.Alpha + tr.Amount/float64(R)*beta
		if alphaOnly {
			dur = m.Alpha
		}
		for _, r := range res {
			start[k] = max(start[k], free[r])
		}
		end[k] = start[k] + dur
		for _, r := range res {
			free[r] = end[k]
		}
	}
	return start, end
}

// AlphaRound is the start-up overhead per slot in the sense of the
// paper's per-round α (§2.3): how long a slot of transfers of nothing but
// their start-up latency lasts, the longest chain of transfers waiting on
// each other's ports times α.
func (e *Expansion) AlphaRound() float64 {
	_, end := e.timing(1, true)
	span := 0.0
	for _, t := range end {
		span = max(span, t)
	}
	return span
}

// PaperMakespan is the paper's bound T + T/R + Rα with α = AlphaRound.
func (e *Expansion) PaperMakespan(R int) float64 {
	return rounds.PaperMakespan(e.Round.T, e.AlphaRound(), R)
}

// slotKey says which transfers and computations a slot holds: those of
// depth (delay) from lo to hiD (hiE).
type slotKey struct{ lo, hiD, hiE int }

// slotLayout is the length of one kind of slot and when each processor's
// computation in it ends, from its start.
type slotLayout struct {
	length     float64
	computeEnd []float64
}

// layout is the timing of R rounds.
type layout struct {
	*rounds.Layout[slotKey, *slotLayout]
	e          *Expansion
	start, end []float64
}

func (e *Expansion) keyOf(k, R int) slotKey {
	lo := max(0, k-R+1)
	return slotKey{lo, min(k, e.maxDepth), min(k, e.maxDelay)}
}

func (e *Expansion) layout(R int) *layout {
	l := &layout{e: e}
	l.start, l.end = e.timing(R, false)
	kind := func(k int) slotKey { return e.keyOf(k, R) }
	place := func(key slotKey) (*slotLayout, error) { return l.place(key, R), nil }
	length := func(s *slotLayout) float64 { return s.length }
	l.Layout, _ = rounds.NewLayout(R, e.NumSlots(R), kind, place, length) // place never fails
	return l
}

// sends reports whether transfer t is in slots of kind key.
func (l *layout) sends(key slotKey, t int) bool {
	d := l.e.depth[l.e.Transfers[t].From]
	return key.lo <= d && d <= key.hiD
}

// computes reports whether processor i computes in slots of kind key.
func (l *layout) computes(key slotKey, i int) bool {
	d := l.e.delay[i]
	return l.e.work[i] > 0 && key.lo <= d && d <= key.hiE
}

// place lays out one kind of slot.
func (l *layout) place(key slotKey, R int) *slotLayout {
	e, m := l.e, l.e.Model
	s := &slotLayout{computeEnd: make([]float64, len(m.Procs))}
	for t := range e.Transfers {
		if l.sends(key, t) {
			s.length = max(s.length, l.end[t])
		}
	}
	var busy []mmdl.Busy
	for i := range m.Procs {
		if !l.computes(key, i) {
			continue
		}
		busy = busy[:0]
		for _, t := range e.touching[i] {
			if l.sends(key, t) {
				busy = append(busy, mmdl.Busy{Start: l.start[t], End: l.end[t], Mask: e.kindBit(t, i)})
			}
		}
		s.computeEnd[i] = mmdl.FinishWork(e.work[i]/float64(R), busy, m.Procs[i].Rate[:])
		s.length = max(s.length, s.computeEnd[i])
	}
	return s
}

// kindBit is the communication kind transfer t is on processor i.
func (e *Expansion) kindBit(t, i int) int {
	tr := &e.Transfers[t]
	switch {
	case tr.Inter && tr.From == i:
		return bitInterSend
	case tr.Inter:
		return bitInterRecv
	case tr.From == i:
		return bitIntraSend
	}
	return bitIntraRecv
}

// Makespan is the exact makespan of R rounds.
func (e *Expansion) Makespan(R int) float64 { return e.layout(R).Makespan }

// BestRounds is R = √(dT/α) (§2.3, α = AlphaRound, d the largest delay:
// the makespan is about T + dT/R + Rα) rounded to whichever neighbour gives
// the shorter schedule, within [1, maxRounds] (rounds.BestRounds). Without
// start-up latency more rounds are always better, so it is maxRounds;
// without transfers it is 1.
func (e *Expansion) BestRounds(maxRounds int) int {
	c := rounds.Choice{T: e.Round.T, AlphaRound: e.AlphaRound(), Delay: e.maxDelay, Comms: len(e.Transfers) > 0, MaxRounds: maxRounds}
	R, _ := rounds.BestRounds(c, func(R int) (float64, error) { return e.Makespan(R), nil })
	return R
}

// Schedule expands the round into R rounds of actions with planned start
// and end times; the claim is the schedule's exact makespan.
func (e *Expansion) Schedule(ctx context.Context, R int) (*sim.Schedule, error) {
	return e.schedule(ctx, R, nil)
}

// schedule is Schedule built in the memory of recycle (sim.Recycled).
func (e *Expansion) schedule(ctx context.Context, R int, recycle *sim.Schedule) (*sim.Schedule, error) {
	l := e.layout(R)
	b := newBuilder(l, recycle)
	if err := rounds.Emit(ctx, l.Layout, b.em.S, b.slot); err != nil {
		return nil, err
	}
	return b.em.S, nil
}

// builder emits the actions slot by slot.
type builder struct {
	l           *layout
	em          rounds.Emitter
	acts        [][]int32 // per slot modulo the ring: the action of each transfer, or −1
	lastCompute []int     // per processor, its last computation, or −1
}

func newBuilder(l *layout, recycle *sim.Schedule) *builder {
	e := l.e
	b := &builder{l: l, acts: make([][]int32, e.maxDelay+1), lastCompute: make([]int, len(e.Model.Procs))}
	b.em.S = sim.Recycled(recycle, l.R*(len(e.Transfers)+len(e.Model.Procs)))
	for k := range b.acts {
		b.acts[k] = make([]int32, len(e.Transfers))
	}
	for i := range b.lastCompute {
		b.lastCompute[i] = -1
	}
	return b
}

// received lists the actions that bring processor i its data of chunk c,
// in the schedule's memory, with room for extra more.
func (b *builder) received(i, c, extra int) []int {
	e := b.l.e
	out := b.em.S.Ints(len(e.into[i]) + extra)[:0]
	for _, t := range e.into[i] {
		k := c + e.depth[e.Transfers[t].From]
		out = append(out, int(b.acts[k%len(b.acts)][t]))
	}
	return out
}

// slot emits slot k starting at t, its actions in order of planned start
// (rounds.Emitter). Tags: transfer tr is tr, processor i's computation
// len(Transfers)+i.
func (b *builder) slot(k int, t float64) {
	l, e, s := b.l, b.l.e, b.em.S
	key, sl := l.Kinds[k], l.Slot(k)
	R := float64(l.R)
	for tr := range e.Transfers {
		if !l.sends(key, tr) {
			continue
		}
		x := &e.Transfers[tr]
		c := k - e.depth[x.From]
		a := sim.Action{Kind: sim.Transfer, From: x.From, To: x.To, Amount: x.Amount / R,
			Start: s.Time(t + l.start[tr]), End: s.Time(t + l.end[tr]), Label: "intra", Round: c + 1}
		if x.Inter {
			a.Label = "inter"
		}
		if e.depth[x.From] > 0 {
			a.After = b.received(x.From, c, 0)
		}
		b.em.Add(a, tr)
	}
	for i := range e.Model.Procs {
		if !l.computes(key, i) {
			continue
		}
		c := k - e.delay[i]
		after := b.received(i, c, 1)
		if b.lastCompute[i] >= 0 {
			after = append(after, b.lastCompute[i])
		}
		b.em.Add(sim.Action{Kind: sim.Compute, Node: i, Amount: e.work[i] / R,
			Start: s.Time(t), End: s.Time(t + sl.computeEnd[i]), After: after, Round: c + 1}, len(e.Transfers)+i)
	}
	ring := b.acts[k%len(b.acts)]
	b.em.Flush(func(tag, idx int) {
		if tag < len(ring) {
			ring[tag] = int32(idx)
		} else {
			b.lastCompute[tag-len(ring)] = idx
		}
	})
}

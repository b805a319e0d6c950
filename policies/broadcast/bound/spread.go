package bound

import (
	"math"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/replay"
)

// sender is how fast a participant can inform others, among a set of
// targets: every transfer from it lasts at least tau (Σd + D/b) until its
// arrival and reserves its first link for at least delta (D/b), and at most
// k of its transfers can hold their first link at once.
type sender struct {
	tau, delta float64
	k          int
}

// senderTo computes u's figures for transfers to the participants in
// targets (u excluded); ok is false when there is none.
//
// Proof of the spacing these figures give: a transfer u→v at rate b
// reserves b on the first link l of its path during [s + d_l, s + d_l +
// D/b), d_l the latency of l, which is the same for every transfer of u
// over l. Rates are at least bmin(l), the least rate of u's transfers over
// l, so at most k_l = ⌊cap(l)/bmin(l)⌋ of them overlap at any time, and
// k = Σ_l k_l of all of u's transfers. If k+1 of them started within less
// than delta of each other, all would hold their first links at the latest
// start + its d_l, so some link would carry k_l+1 at once: so u's j-th
// transfer (in start order, counting only some of them) starts at least
// ⌊(j−1)/k⌋·delta after its first.
func senderTo(nw *treenet.Network, u int, targets []int) (sender, bool) {
	f := newSenderFigures()
	var buf replay.Route
	for _, v := range targets {
		if v != u {
			f.add(nw, nw.RouteInto(u, v, &buf))
		}
	}
	return f.sender(nw)
}

// senderToAll is senderTo(u, nw.parts), in one walk of the tree.
func senderToAll(nw *treenet.Network, u int) (sender, bool) {
	f := newSenderFigures()
	var w treenet.RouteWalk
	w.From(nw, u, func(_ int, rt *replay.Route) { f.add(nw, rt) })
	return f.sender(nw)
}

// senderFigures gathers senderTo's figures over a sender's routes.
type senderFigures struct {
	sd   sender
	bmin map[int]float64 // first channel → least rate over it
}

func newSenderFigures() *senderFigures {
	return &senderFigures{sd: sender{tau: math.Inf(1), delta: math.Inf(1)}, bmin: map[int]float64{}}
}

// add counts a transfer over route rt.
func (f *senderFigures) add(nw *treenet.Network, rt *replay.Route) {
	f.sd.tau = math.Min(f.sd.tau, rt.Duration(nw.Size))
	f.sd.delta = math.Min(f.sd.delta, nw.Size/rt.Bandwidth)
	ch := rt.Channels[0]
	if b, ok := f.bmin[ch]; !ok || rt.Bandwidth < b {
		f.bmin[ch] = rt.Bandwidth
	}
}

// sender returns the figures; ok is false when no transfer was added.
func (f *senderFigures) sender(nw *treenet.Network) (sender, bool) {
	for ch, b := range f.bmin {
		f.sd.k += max(1, int(math.Floor(nw.Capacity[ch]*(1+1e-9)/b)))
	}
	return f.sd, f.sd.k > 0
}

// strongest is a sender at least as fast as each of several: least tau and
// delta, most concurrent transfers.
func strongest(a, b sender) sender {
	return sender{tau: math.Min(a.tau, b.tau), delta: math.Min(a.delta, b.delta), k: max(a.k, b.k)}
}

// slot is the arrival of the next transfer of a holder in spread.
type slot struct {
	at    float64 // its arrival
	ready float64 // when the holder got the message
	j     int     // transfers of the holder so far
	sd    sender
}

func (s *slot) advance() {
	s.j++
	s.at = math.Inf(1) // a participant alone sends nothing
	if s.sd.k > 0 {
		s.at = s.ready + float64(s.j/s.sd.k)*s.sd.delta + s.sd.tau
	}
}

// spreader bounds the time to inform m participants: a relaxation in which
// holders send as often as their figures allow, to anyone, and every new
// holder is as fast as the strongest participant still to inform.
//
// Proof that the m-th arrival of the relaxation, o_m, is no later than the
// m-th arrival a_m of any schedule informing m participants, with the same
// first holders (no earlier) and no other senders: a holder's j-th
// transfer arrives no earlier than its slot j, ready + ⌊(j−1)/k⌋·delta +
// tau (senderTo), which is nondecreasing in ready and smaller for a
// stronger sender. By induction on i, o_i ≤ a_i: the i-th receiver of the
// schedule is reached by some transfer of a first holder or of one of the
// receivers 1..i−1, distinct transfers for distinct receivers, so among
// the slots of those holders at least i values are ≤ a_i (the slots of the
// transfers reaching receivers 1..i). The relaxation's holders 1..i−1
// arrived no later (o_k ≤ a_k) and send no slower, so it has at least i
// slots ≤ a_i among theirs and its first holders'; it takes slots smallest
// first, and has used only i−1 of them before its i-th arrival, so o_i ≤
// a_i.
type spreader struct {
	h heapq.Heap[slot]
}

func newSpreader() *spreader {
	return &spreader{h: heapq.Heap[slot]{Less: func(x, y slot) bool { return x.at < y.at }}}
}

// reset empties the relaxation.
func (sp *spreader) reset() { sp.h.Items = sp.h.Items[:0] }

// hold adds a first holder, ready at ready.
func (sp *spreader) hold(ready float64, sd sender) {
	s := slot{ready: ready, j: -1, sd: sd}
	s.advance()
	sp.h.Items = append(sp.h.Items, s)
}

// run returns the relaxation's m-th arrival, new holders being as fast as
// fresh (m = 0: −Inf). ext are arrivals from outside senders, ascending,
// each no later than the matching arrival of the schedule: they count
// among the m and become holders, but use no slot (the proof above holds
// with them as slots of an outside holder).
func (sp *spreader) run(m int, fresh sender, ext []float64) float64 {
	sp.h.Init()
	last := math.Inf(-1)
	for range m {
		switch {
		case len(ext) > 0 && (sp.h.Len() == 0 || ext[0] <= sp.h.Items[0].at):
			last, ext = ext[0], ext[1:]
		case sp.h.Len() == 0:
			return math.Inf(1)
		default:
			top := &sp.h.Items[0]
			last = top.at
			top.advance()
			sp.h.Fix(0)
		}
		next := slot{ready: last, j: -1, sd: fresh}
		next.advance()
		sp.h.Push(next)
	}
	return last
}

package bound

import (
	"context"
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// Bounder computes a lower bound on the makespan of every completion of a
// search state, in the spirit of paper 004 §4.6: the parts of the tree
// that do not hold the message yet still need it, and the links that lead
// into them limit how fast it can get there. Paper 004 bounds a subtree by
// the optimal broadcast inside it; that optimum is taken over the search's
// own space of schedules, which does not contain every feasible schedule,
// so here every argument holds for any feasible schedule:
//
//   - each non-holder r gets the message no earlier than
//     min over holders h of max(t_last, ready_h) + Σd + D/b on the path h→r,
//     and no earlier than the shortest path to it from the holders on
//     which each transfer waits until it fits the reservations made
//     (arrivalBound);
//   - of two non-holders, one is informed no earlier than the transfers
//     that inform them allow when they cannot overlap on a channel both
//     cross (pairBound);
//   - a view cuts the tree into units, subtrees joined to the rest by one
//     link each (the branches of one node, or the maximal subtrees of a
//     given height), and a core. A transfer leaves a unit over its port
//     and enters one over its downlink. A copy reaches a port no earlier
//     than the links on its way have room for it (a transfer at rate b
//     needs b free for D/b), a port of capacity c finishes its k-th
//     transfer no earlier than when k·D of area has been free on it
//     (reservations already made count), and so does the unit's gate, the
//     narrowest link every transfer out of it crosses; a unit that holds
//     a copy sends from its holders or from a participant that gets a
//     copy from outside (sendStart), a unit that got its first copy
//     can send after the round trip to its nearest participant, and a
//     unit is complete no earlier than its first feed plus the broadcast
//     inside it (or a second feed, which cannot overlap the first on the
//     downlink when every path into the unit has the downlink as its
//     narrowest link). Feed events generated greedily come no later than
//     in any schedule: when the units needing a copy are of one kind, or
//     of two kinds with at most two of one, every order in which the kinds
//     can get their first copy is tried, each new sender with its own
//     figures; otherwise every new sender is taken as strong as the
//     strongest unit and units are matched to events, the last event
//     first;
//   - a branch that holds no copy is complete no earlier than its first
//     copy can have crossed its downlink plus what its participants still
//     need, whatever the later feeds (feedBound, with fill, tailOf and
//     centres: with K feeds, the farthest participant from the K
//     participants the feeds land at, the later feeds landing later);
//   - the first transfer a completion places on a port that carries both
//     full-rate and slower transfers either is full-rate, and holds the
//     slower ones back, or is slower, and holds the full-rate ones back:
//     the bound is at least the lesser of the views' under the two cases
//     (splitBound);
//   - under such a case, a branch that holds copies but cannot complete
//     before the cutoff on its own must get a copy from outside before a
//     due time, and is then one more unit to feed in the views that have
//     it as a unit (dueBound).
//
// Where the calendar (sim.Reservations) takes an overlap shorter than its
// time tolerance as none, so do the bound's windows. TestBoundIsValid of
// package broadcast
// checks the bound against the exact optimum of every state of small
// random trees, trees of clusters, trees of two speeds and small trees of
// the SMP kind.
//
// The Bounder holds the tree's figures and the state's (dp), the arrival
// bound of the fed branches (feedBound) and the spread (spreadBound), and
// composes the rest from parts with one job each: the channels' reserved
// bandwidth (profiles), the views (viewEval), the arrivals (arrivals),
// the pairs (pairer), the splits on ports (splitter) and the due times
// (dueBounder).
type Bounder struct {
	nw     *treenet.Network
	order  []int // breadth first from the root of the dynamic programme
	parent []int
	up     []models.Link // link to the parent
	lat    [][]float64   // path latency between any two nodes
	tour   eulerTour     // the tree rooted as parent says, see inBranch
	lower  []int         // per direction: the lower end of its edge in that tree

	dirs      []dirInfo   // per direction of an edge, see dirID
	linkRates [][]float64 // per direction: the rates, ascending, of transfers over it
	views     []view
	beyond    [][]int     // per direction: the participants of its branch
	fast      []sender    // per participant: its figures towards all participants
	firstEnd  [][]float64 // per direction x→w and participant h: see feedBound
	spr       *spreader

	// per state
	holdBelow, needBelow []int
	below, above         []float64
	upStart              []float64 // per node: earliest reservation start on its link to the parent
	holders, need        []int     // per direction: in the branch beyond it
	portStart            []float64 // per direction x→w: earliest reservation start on w→x from holders beyond
	downStart            []float64 // per direction x→w: earliest reservation start on x→w from holders outside

	// scratch
	hold    []float64 // per participant: ready, or the arrival bound A (see arrivalBound)
	sh      *shift    // the case of a split evalView applies, nil outside splitBound
	finding bool      // dueBound: an inner view is being bounded to find a due time

	// parts, one job each
	chans *profiles
	eval  *viewEval
	arr   *arrivals
	pairs *pairer
	dues  *dueBounder
	split *splitter
}

// dirInfo is what is static about the branch beyond a direction x→w.
type dirInfo struct {
	parts   int     // participants beyond
	cint    float64 // fed at T (end on x→w), complete at ≥ T + cint with no further feed
	fill    float64 // with seq: first fed at T, complete at ≥ T + fill whatever the further feeds
	tail    float64 // first fed at T, complete at ≥ T + tail whatever the further feeds (see tailOf)
	rtt     float64 // from the end of a feed on x→w to the first reservation on w→x
	fan     float64 // latency + D/b of x→w
	down    float64 // latency of x→w
	downBW  float64 // bandwidth of x→w
	downCh  int     // channel of x→w
	downCap float64 // capacity of its channel
	seq     bool    // every path into the branch has x→w as narrowest link
	port    int     // channel of w→x
	portCap float64
	portBW  float64
	centres centres // where its feeds can land
	kfill   float64 // first fed at T, complete at ≥ T + kfill whatever the further feeds (see centres)
	gate    gate    // the narrowest channel every transfer out of the branch crosses
	inRate  float64 // the fastest route into the branch from outside
	slowIn  float64 // the most time from a transfer's start to its end on x→w
}

// gate is the channel of least capacity that every transfer from a
// participant of a branch beyond x→w to one outside crosses, on the way
// out: w→x or a link between w and the deepest node whose subtree (the
// tree hanging from w) holds every participant of the branch. A transfer
// reserves it lag before it reserves w→x (the latencies of the links
// after it, up to w→x).
type gate struct {
	ch       int
	cap, lag float64
}

// view is a cut of the tree: units (directions x→w whose branch beyond w
// is the unit) and the participants of the core. rates[i][j] are the
// bandwidths, ascending, a transfer from unit i to unit j can have (j =
// len(units): to a core participant): a feed at rate b needs b free on the
// port for D/b.
type view struct {
	units []int
	core  []int
	rates [][][]float64
}

// dirID numbers the directions of the tree's edges.
func dirID(l models.Link) int {
	if l.Forward {
		return 2 * l.Edge
	}
	return 2*l.Edge + 1
}

func reverse(l models.Link) models.Link { return models.Link{Edge: l.Edge, Forward: !l.Forward} }

// New precomputes the bounder's static figures. Its set-up takes
// seconds on trees of a thousand participants (3.4 s on a random tree of
// 1,024, 0.4 s on the SMP tree of 512): the branches' figures over pairs
// of participants grow with the square of the tree's size (see
// cutFigures), the views' rates, the splits and the due times' figures up
// to its cube. So it checks ctx between its steps and returns ctx's error
// once ctx is done.
func New(ctx context.Context, nw *treenet.Network) (*Bounder, error) {
	b := &Bounder{nw: nw, parent: make([]int, nw.N), up: make([]models.Link, nw.N)}
	b.chans = &profiles{prof: make([][]change, nw.Channels), profStamp: make([]int, nw.Channels)}
	b.eval = &viewEval{b: b, ems: heapq.Heap[emitter]{Less: func(x, y emitter) bool { return x.next < y.next }}}
	b.arr = &arrivals{b: b, arcs: heapq.Heap[arc]{Less: func(x, y arc) bool { return x.t < y.t }}}
	b.pairs, b.dues, b.split = &pairer{b: b}, &dueBounder{b: b}, &splitter{b: b}
	root := treenet.Centres(nw)[0]
	b.parent[root] = -1
	b.order = []int{root}
	for k := 0; k < len(b.order); k++ {
		u := b.order[k]
		for _, h := range nw.Adj[u] {
			if h.To != b.parent[u] {
				b.parent[h.To] = u
				b.up[h.To] = reverse(h.Link)
				b.order = append(b.order, h.To)
			}
		}
	}
	b.tour.walk(nw, root)
	b.lower = make([]int, 2*len(nw.Tree.Edges))
	for _, u := range b.order[1:] {
		l := b.tour.hop[u].Link
		b.lower[dirID(l)], b.lower[dirID(reverse(l))] = u, u
	}
	b.lat = make([][]float64, nw.N)
	for s := range nw.N {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.lat[s] = b.latencies(s)
	}
	b.spr, b.fast = newSpreader(), make([]sender, nw.N)
	for _, u := range nw.Parts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.fast[u], _ = senderToAll(nw, u)
	}
	b.dirs = make([]dirInfo, 2*len(nw.Tree.Edges))
	cf, err := newCutFigures(ctx, nw, len(b.dirs))
	if err != nil {
		return nil, err
	}
	beyond := make([][]int, len(b.dirs)) // per direction: the participants of its branch
	for z := range nw.N {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, h := range nw.Adj[z] {
			id := dirID(h.Link)
			b.dirs[id], beyond[id] = b.branch(z, h, cf)
		}
	}
	b.linkRates = make([][]float64, len(b.dirs))
	nw.EachRoute(func(_, _ int, rt *replay.Route) {
		for _, l := range rt.Links {
			b.linkRates[dirID(l)] = addRate(b.linkRates[dirID(l)], rt.Bandwidth)
		}
	})
	b.firstEnd = make([][]float64, len(b.dirs))
	for i := range b.firstEnd {
		b.firstEnd[i] = make([]float64, nw.N)
		for v := range b.firstEnd[i] {
			b.firstEnd[i][v] = math.Inf(1)
		}
	}
	nw.EachRoute(func(u, _ int, rt *replay.Route) {
		for i, l := range rt.Links {
			e := &b.firstEnd[dirID(l)][u]
			*e = math.Min(*e, rt.Offsets[i]+nw.Size/rt.Bandwidth)
			d := &b.dirs[dirID(l)]
			d.slowIn = math.Max(d.slowIn, rt.Offsets[i]+nw.Size/rt.Bandwidth)
		}
	})
	if err := b.setCentres(ctx, beyond); err != nil {
		return nil, err
	}
	if err := b.buildViews(ctx, beyond); err != nil {
		return nil, err
	}
	b.beyond = beyond
	splits, err := b.split.newSplits(ctx, beyond)
	if err != nil {
		return nil, err
	}
	b.split.splits = splits
	b.split.inCost = make([][]float64, len(b.dirs))
	if err := b.dues.setDue(ctx, beyond); err != nil {
		return nil, err
	}
	b.holdBelow, b.needBelow = make([]int, nw.N), make([]int, nw.N)
	b.below, b.above, b.upStart = make([]float64, nw.N), make([]float64, nw.N), make([]float64, nw.N)
	b.hold = make([]float64, nw.N)
	b.holders, b.need = make([]int, len(b.dirs)), make([]int, len(b.dirs))
	b.portStart, b.downStart = make([]float64, len(b.dirs)), make([]float64, len(b.dirs))
	return b, nil
}

// latencies returns the path latency from s to every node.
func (b *Bounder) latencies(s int) []float64 {
	d := make([]float64, b.nw.N)
	seen := make([]bool, b.nw.N)
	seen[s] = true
	queue := []int{s}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, h := range b.nw.Adj[u] {
			if !seen[h.To] {
				seen[h.To] = true
				d[h.To] = d[u] + b.nw.Latency(h.Link)
				queue = append(queue, h.To)
			}
		}
	}
	return d
}

// inBranch reports whether node q is beyond direction id: in the subtree
// of its lower end when the direction goes down the rooted tree, outside
// it when it goes up.
func (b *Bounder) inBranch(id, q int) bool {
	t := &b.tour
	u := b.lower[id]
	in := t.pos[u] <= t.pos[q] && t.pos[q] < t.end[u]
	return in == (dirID(t.hop[u].Link) == id)
}

// side lists the participants beyond direction id, in node order.
func (b *Bounder) side(id int) []int {
	var beyond []int
	for _, p := range b.nw.Parts {
		if b.inBranch(id, p) {
			beyond = append(beyond, p)
		}
	}
	return beyond
}

// branch precomputes the static figures of the branch beyond z→h.To, and
// lists its participants; cf holds its figures over pairs of participants.
func (b *Bounder) branch(z int, h models.Hop, cf *cutFigures) (dirInfo, []int) {
	nw, w := b.nw, h.To
	port := reverse(h.Link)
	d := dirInfo{
		fan: nw.Latency(h.Link) + nw.Size/nw.Routes.Bandwidth(h.Link), down: nw.Latency(h.Link),
		downBW: nw.Routes.Bandwidth(h.Link), downCh: nw.Routes.Channel(h.Link), downCap: nw.Capacity[nw.Routes.Channel(h.Link)],
		port: nw.Routes.Channel(port), portBW: nw.Routes.Bandwidth(port),
		cint: math.Inf(1), rtt: math.Inf(1), seq: true,
	}
	d.portCap = nw.Capacity[d.port]
	id := dirID(h.Link)
	beyond := b.side(id)
	d.parts = len(beyond)
	lmin := math.Inf(1) // the least latency from w into the branch
	for _, p := range beyond {
		lmin = math.Min(lmin, b.lat[w][p])
	}
	// The figures of the branch's participants towards the branch (the
	// spreading inside it stays inside), the strongest of them; on a large
	// branch, where they cost |branch|² to compute, their figures towards
	// all participants, which are at least as strong.
	fresh := sender{tau: math.Inf(1), delta: math.Inf(1)}
	for _, q := range beyond {
		sd := b.fast[q]
		if len(beyond) <= branchFigures {
			sd, _ = senderTo(nw, q, beyond)
		}
		fresh = strongest(fresh, sd)
	}
	inside := 0.0 // from one holder inside, informing the rest, no feed
	if len(beyond) > 1 {
		b.spr.reset()
		b.spr.hold(0, fresh)
		inside = b.spr.run(len(beyond)-1, fresh, nil)
	}
	for i, p := range beyond {
		d.cint = math.Min(d.cint, b.lat[w][p]+math.Max(inside, cf.far[id][i]))
		d.rtt = math.Min(d.rtt, b.lat[w][p]+b.lat[p][z])
	}
	d.seq, d.inRate = cf.inMin[id] >= d.downCap*(1-1e-12), cf.inRate[id]
	d.centres = centres{lmin: lmin, parts: d.parts}
	if d.seq {
		d.centres.sp = nw.Size / d.downCap
		d.fill = b.fill(len(beyond), fresh, lmin, d.centres.sp)
	}
	d.tail = b.tailOf(w, beyond, cf.in[id], lmin, d.seq, d.downCap)
	d.gate = b.gateOf(z, w, len(beyond))
	return d, beyond
}

// gateOf finds the gate of the branch beyond z→w, which has parts
// participants: it walks down from w while one subtree holds them all,
// then takes the narrowest of the links back up to w and of w→z.
func (b *Bounder) gateOf(z, w, parts int) gate {
	nw := b.nw
	var count func(u, from int) int // participants in u's subtree away from from
	count = func(u, from int) int {
		n := 0
		if nw.Rank[u] >= 0 {
			n = 1
		}
		for _, h := range nw.Adj[u] {
			if h.To != from {
				n += count(h.To, u)
			}
		}
		return n
	}
	var out []models.Link // the links out, from the deepest node up to w→z
	for u, from := w, z; nw.Rank[u] < 0; {
		next := -1
		for _, h := range nw.Adj[u] {
			if h.To != from && count(h.To, u) == parts {
				next = h.To
				out = append([]models.Link{reverse(h.Link)}, out...)
			}
		}
		if next < 0 {
			break
		}
		u, from = next, u
	}
	for _, h := range nw.Adj[w] {
		if h.To == z {
			out = append(out, h.Link)
		}
	}
	g := gate{ch: -1, cap: math.Inf(1)}
	for i, l := range out {
		ch := nw.Routes.Channel(l)
		if c := nw.Capacity[ch]; c < g.cap {
			g.ch, g.cap, g.lag = ch, c, 0
			for _, after := range out[i+1:] {
				g.lag += nw.Latency(after)
			}
		}
	}
	return g
}

// tailOf bounds the completion of the branch beyond x→w (its participants
// beyond) after the reservation of its first feed ends on x→w at T = 0,
// whatever the further feeds, when it holds no copy before.
//
// Proof. Every holder r of the branch got its copy from a feed, at ≥ T +
// lat(w, r), or from inside, later still; lmin = min over the branch of
// lat(w, r). A participant q of the branch is informed (a) by the first
// feed, at ≥ T + lat(w, q); (b) from a holder r ≠ q inside, which starts at
// ≥ T + lmin, so at ≥ T + lmin + in_q, in_q (in[i] for q = beyond[i])
// being the least cost to q from the rest of the branch (a path between two
// participants of the branch stays inside it); or (c) by a later feed,
// whose reservation on x→w ends at ≥ T + D/cap with seq (every feed then
// takes the whole capacity cap of x→w, so feeds do not overlap there) and
// at ≥ T otherwise, so at ≥ that plus lat(w, q). With v_q = min((b), (c)) − T, the first feed informs one
// participant p, and the branch is complete at ≥ T + min over p of
// max(lat(w, p), max over q ≠ p of v_q).
func (b *Bounder) tailOf(w int, beyond []int, in []float64, lmin float64, seq bool, cap float64) float64 {
	if len(beyond) < 2 {
		return 0
	}
	nw := b.nw
	later := 0.0
	if seq {
		later = nw.Size / cap
	}
	v := make([]float64, len(beyond))
	first, second := math.Inf(-1), math.Inf(-1) // the two largest v
	for i, q := range beyond {
		v[i] = math.Min(lmin+in[i], later+b.lat[w][q])
		if v[i] > first {
			first, second = v[i], first
		} else if v[i] > second {
			second = v[i]
		}
	}
	tail := math.Inf(1)
	for i, p := range beyond {
		rest := first
		if v[i] == first {
			rest = second
		}
		tail = math.Min(tail, math.Max(b.lat[w][p], rest))
	}
	return tail
}

// branchFigures is the largest branch whose participants' figures towards
// the branch itself are computed (see branch).
const branchFigures = 32

// fill bounds the completion of a branch of m participants whose every
// feed crosses its downlink at the link's full capacity (seq), after its
// first feed ends on the downlink at T = 0. Feeds then cannot overlap
// there, so the k-th ends at ≥ (k−1)·sp (sp = D/cap) and arrives at ≥ that
// plus lmin, the least latency from w into the branch; they are the
// outside arrivals of the spreader's relaxation, in which every
// participant of the branch is as fast as the strongest one (fresh, its
// figures towards all participants; transfers inside the branch stay
// inside).
func (b *Bounder) fill(m int, fresh sender, lmin, sp float64) float64 {
	ext := make([]float64, m)
	for k := range ext {
		ext[k] = lmin + float64(k)*sp
	}
	b.spr.reset()
	return b.spr.run(m, fresh, ext)
}

// buildViews lists the views: the branches of every node, and for every
// height h the maximal subtrees of height ≤ h of the tree rooted at a
// centre.
func (b *Bounder) buildViews(ctx context.Context, beyond [][]int) error {
	nw := b.nw
	for z := range nw.N {
		if len(nw.Adj[z]) < 2 {
			continue // a leaf's one branch: arrivalBound covers it
		}
		v := view{}
		for _, h := range nw.Adj[z] {
			v.units = append(v.units, dirID(h.Link))
		}
		if nw.Rank[z] >= 0 {
			v.core = []int{z}
		}
		b.views = append(b.views, v)
	}
	height := make([]int, nw.N)
	for k := len(b.order) - 1; k >= 0; k-- {
		if u := b.order[k]; b.parent[u] >= 0 {
			height[b.parent[u]] = max(height[b.parent[u]], height[u]+1)
		}
	}
	for h := 0; h < height[b.order[0]]; h++ {
		v := view{}
		for _, u := range b.order {
			switch p := b.parent[u]; {
			case height[u] > h:
				if nw.Rank[u] >= 0 {
					v.core = append(v.core, u)
				}
			case p >= 0 && height[p] > h:
				v.units = append(v.units, dirID(reverse(b.up[u])))
			}
		}
		b.views = append(b.views, v)
	}
	for i := range b.views {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.rates(&b.views[i], beyond)
	}
	return nil
}

// rates fills the transfer bandwidths between the units of a view, given
// the participants beyond every direction.
func (b *Bounder) rates(v *view, byDir [][]int) {
	nw := b.nw
	beyond := make([][]int, 0, len(v.units)+1)
	for _, id := range v.units {
		beyond = append(beyond, byDir[id])
	}
	beyond = append(beyond, v.core)
	v.rates = make([][][]float64, len(v.units))
	for i := range v.units {
		v.rates[i] = make([][]float64, len(beyond))
		for j := range beyond {
			if j == i {
				continue
			}
			var rs []float64
			for _, p := range beyond[i] {
				for _, q := range beyond[j] {
					rs = addRate(rs, nw.Rate[p][q])
				}
			}
			v.rates[i][j] = rs
		}
	}
}

// addRate adds r to the ascending rates rs unless they hold it. A tree has
// few distinct rates, so that rates over many routes stay short.
func addRate(rs []float64, r float64) []float64 {
	i, found := slices.BinarySearch(rs, r)
	if found {
		return rs
	}
	return slices.Insert(rs, i, r)
}

// ends returns the tail and head of a link.
func (b *Bounder) ends(l models.Link) (from, to int) {
	e := &b.nw.Tree.Edges[l.Edge]
	a, _ := b.nw.Tree.NodeIndex(e.A)
	c, _ := b.nw.Tree.NodeIndex(e.B)
	if l.Forward {
		return a, c
	}
	return c, a
}

// Lower returns a lower bound on every completion of the state; once
// a part of it reaches st.cutoff it returns that part without computing
// the rest (the state is closed whatever its exact bound).
func (b *Bounder) Lower(st *State) float64 {
	lb := st.Makespan
	if st.Missing == 0 || lb >= st.Cutoff {
		return lb
	}
	b.chans.stamp++
	b.eval.rateBuf = b.eval.rateBuf[:0]
	if lb = math.Max(lb, b.arr.arrivalBound(st)); lb >= st.Cutoff {
		return lb
	}
	if lb = math.Max(lb, b.spreadBound(st)); lb >= st.Cutoff {
		return lb
	}
	b.dp(st)
	if lb = math.Max(lb, b.feedBound(st)); lb >= st.Cutoff {
		return lb
	}
	for i := range b.views {
		if lb = math.Max(lb, b.eval.evalView(&b.views[i], st)); lb >= st.Cutoff {
			return lb
		}
	}
	if lb = math.Max(lb, b.pairs.pairBound(st)); lb >= st.Cutoff {
		return lb
	}
	return b.split.splitBound(lb, st)
}

// feedBound bounds the completion of every branch beyond a direction x→w
// that holds no copy yet, needs one and has x→w as the narrowest link of
// every path into it (seq), by the time its first copy can have crossed
// x→w plus fill.
//
// Proof. A transfer from h to a participant p beyond x→w starts at s ≥
// max(t_last, ready_h) and reserves x→w until s + off + D/b, off being the
// offset of x→w on the route and b its rate; firstEnd[x→w][h] is the least
// off + D/b over the routes from h that cross x→w, so that reservation
// ends at ≥ hold_h + firstEnd[x→w][h], where hold_h is max(t_last, ready_h)
// for a holder and, for a non-holder, its arrival bound A (see
// arrivalBound; it sends only once it holds the message). The branch holds no copy, so its first copy crosses x→w, from
// a sender outside it, and its reservation there ends at T ≥ F = min over
// h of hold_h + firstEnd[x→w][h]. fill is a lower bound on the completion
// of the branch after T whatever the later feeds (see fill): the branch is
// complete at ≥ F + fill.
func (b *Bounder) feedBound(st *State) float64 {
	nw, hold := b.nw, b.hold
	lb := 0.0
	for id := range b.dirs {
		d := &b.dirs[id]
		if b.holders[id] > 0 || b.need[id] == 0 {
			continue
		}
		first := math.Inf(1)
		for _, h := range nw.Parts {
			first = math.Min(first, hold[h]+b.firstEnd[id][h])
		}
		lb = math.Max(lb, first+max(d.fill, d.tail, d.kfill))
	}
	return lb
}

// spreadBound is the relaxation of spreader on the whole tree: the holders
// send from max(t_last, ready) (transfers already placed are left out,
// which only helps them), and the participants to inform send as fast as
// the strongest of them (figures towards all participants are at least as
// strong as towards the non-holders only).
func (b *Bounder) spreadBound(st *State) float64 {
	b.spr.reset()
	fresh := sender{tau: math.Inf(1), delta: math.Inf(1)}
	for _, v := range b.nw.Parts {
		if t := st.Ready[v]; math.IsInf(t, 1) {
			fresh = strongest(fresh, b.fast[v])
		} else {
			b.spr.hold(math.Max(t, st.TLast), b.fast[v])
		}
	}
	return b.spr.run(st.Missing, fresh, nil)
}

// dp counts holders and non-holders beyond every direction and the
// earliest time a copy can start on each link.
func (b *Bounder) dp(st *State) {
	nw := b.nw
	for k := len(b.order) - 1; k >= 0; k-- {
		v := b.order[k]
		b.holdBelow[v], b.needBelow[v], b.below[v] = 0, 0, st.Ready[v]
		if nw.Rank[v] >= 0 {
			if math.IsInf(st.Ready[v], 1) {
				b.needBelow[v] = 1
			} else {
				b.holdBelow[v] = 1
			}
		}
		for _, h := range nw.Adj[v] {
			if c := h.To; c != b.parent[v] {
				b.holdBelow[v] += b.holdBelow[c]
				b.needBelow[v] += b.needBelow[c]
				b.upStart[c] = b.enter(b.up[c], b.below[c], st)
				b.below[v] = math.Min(b.below[v], b.upStart[c])
			}
		}
	}
	b.above[b.order[0]] = math.Inf(1)
	for _, p := range b.order {
		best, second, bestChild := math.Inf(1), math.Inf(1), -1
		for _, h := range nw.Adj[p] {
			if c := h.To; c != b.parent[p] {
				if t := b.upStart[c]; t < best {
					best, second, bestChild = t, best, c
				} else if t < second {
					second = t
				}
			}
		}
		base := math.Min(st.Ready[p], b.above[p])
		for _, h := range nw.Adj[p] {
			if c := h.To; c != b.parent[p] {
				other := best
				if c == bestChild {
					other = second
				}
				b.above[c] = b.enter(h.Link, math.Min(base, other), st)
				// Direction p→c: the branch beyond is c's subtree.
				down, upd := dirID(h.Link), dirID(b.up[c])
				b.holders[down], b.need[down] = b.holdBelow[c], b.needBelow[c]
				b.portStart[down], b.downStart[down] = b.upStart[c], b.above[c]
				// Direction c→p: the branch beyond is everything else.
				b.holders[upd], b.need[upd] = st.Holders-b.holdBelow[c], st.Missing-b.needBelow[c]
				b.portStart[upd], b.downStart[upd] = b.above[c], b.upStart[c]
			}
		}
	}
}

// enter is the earliest start of a reservation on link l for a copy whose
// head reaches the link's tail at t: after the link's latency, and when
// some rate a transfer over l can have is free on it for D over that rate.
func (b *Bounder) enter(l models.Link, t float64, st *State) float64 {
	t += b.nw.Latency(l)
	if math.IsInf(t, 1) {
		return t
	}
	id := dirID(l)
	ch := b.dirs[id].downCh
	if !b.chans.live(ch, t, st) {
		return t
	}
	best := math.Inf(1)
	for _, r := range b.linkRates[id] {
		l := b.nw.Size / r
		best = math.Min(best, earliestWindow(b.chans.profile(ch, st), b.nw.Capacity[ch], r, t, l)-l)
	}
	return math.Max(t, best)
}

// timeTol is the calendar's time tolerance around t (see sim.Reservations).
func timeTol(t float64) float64 { return sim.Tolerance * max(1, math.Abs(t)) }

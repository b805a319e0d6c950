package multicluster

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// span is a time interval [t0, t1] of the round.
type span struct{ t0, t1 float64 }

// portUse is one processor's intra-cluster traffic on one side (sending or
// receiving) in a round: how long it takes, and when the same port carries
// inter-cluster transfers (sorted, disjoint), which it must avoid.
type portUse struct {
	proc int
	need float64
	busy []span
}

// elem is an elementary interval of the round for §4.2: the parallelism
// (number of intra-cluster transfers placed) during it, and whose
// inter-cluster time it is.
type elem struct {
	t0, t1  float64
	level   int32
	owner   int32 // position of the tight entity whose busy time it is, or −1
	next    int32 // the next elem in time, or −1
	nextOwn int32 // the next elem of the same owner, or −1
	mark    int32 // the entity that took it last
}

// timeline is the round cut into elems.
type timeline struct {
	el      []elem
	head    int32
	ownHead []int32 // first elem of each owner
	eps     float64 // shorter pieces are rounding
}

// intraSchedule places a cluster's intra-cluster transfers in [0, H]
// (§4.2). tight are the processors on the constrained side, whose port
// also carries inter-cluster transfers at given times (the masters of a
// master cluster; the workers of a worker cluster receiving from inside
// and outside); free are the other side. It returns the times each of them
// communicates inside the cluster: at every instant as many of the tight
// side as of the free side, so the caller pairs them up.
//
// The tight side is placed first (§4.2.1), so that the parallelism (the
// number of them communicating at once) spreads by at most 1 over the
// round; the free side then takes, one after the other, the times of
// highest remaining parallelism (§4.2.2), which keeps that spread and uses
// it up. The tight side is placed by the paper's rule (placeTightGreedy);
// its argument that the spread stays within 1 does not always hold (see
// placeTightGreedy), and where it does not, by placeTightBalanced, which
// finds such a placement by a flow whenever one exists. balanced reports
// that it was needed.
func intraSchedule(H float64, tight, free []portUse) (tightSpans, freeSpans [][]span, balanced bool, err error) {
	eps := 1e-12 * H
	tightSpans, err = placeTightGreedy(H, tight)
	var tl *timeline
	if err == nil {
		tl = profile(H, tightSpans, eps)
		if lo, hi := tl.levels(); hi-lo > 1 {
			err = fmt.Errorf("the parallelism spreads from %d to %d", lo, hi)
		}
	}
	if err != nil {
		balanced = true
		if tightSpans, err = placeTightBalanced(H, tight, eps); err != nil {
			return nil, nil, true, err
		}
		tl = profile(H, tightSpans, eps)
	}
	freeSpans = make([][]span, len(free))
	q := tl.queues(-1)
	for k := range free {
		if freeSpans[k], err = q.fill(int32(-2-k), free[k].need); err != nil {
			return nil, nil, balanced, fmt.Errorf("P%d: %w", free[k].proc, err)
		}
	}
	return tightSpans, freeSpans, balanced, nil
}

// placeTightGreedy is the rule of §4.2.1: the tight processors, in order
// of their inter-cluster time, each take the times of least parallelism
// outside their own busy times, first those in the busy times of the
// processors still to place (the one placed next first), then the others,
// and only when those are all taken the times one above, in the same
// order.
//
// The paper argues that the parallelism then never spreads by more than 1,
// because the busy time of a processor has had the highest priority for
// those placed before it. That holds for the one placed just before, not
// for those before it, which gave priority to the busy times of the
// processors between: a processor placed early with little to send can
// raise the busy time of the next one and leave a later one's busy time
// low, so that a later processor whose port is full must raise everything
// around that low busy time (TestIntraScheduleGap has such a case). The
// caller checks the spread.
func placeTightGreedy(H float64, tight []portUse) ([][]span, error) {
	order := make([]int, len(tight))
	for k := range order {
		order[k] = k
	}
	first := func(k int) float64 {
		if len(tight[k].busy) == 0 {
			return H
		}
		return tight[k].busy[0].t0
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(first(a), first(b)) })
	tl := newTimeline(H, tight, order)
	spans := make([][]span, len(tight))
	busy := 0
	for busy < len(order) && len(tight[order[busy]].busy) > 0 {
		busy++
	}
	for pos, k := range order[:busy] {
		var err error
		if spans[k], err = tl.placeTight(int32(pos), tight[k].need); err != nil {
			return nil, fmt.Errorf("P%d: %w", tight[k].proc, err)
		}
	}
	// Those without busy time come last; for them the rule is to take the
	// least parallelism first, then one above, which queues do in time
	// linear in what they take.
	if lo, hi := tl.levels(); hi-lo > 1 {
		return nil, fmt.Errorf("the parallelism spreads from %d to %d", lo, hi)
	}
	q := tl.queues(1)
	for pos := busy; pos < len(order); pos++ {
		k := order[pos]
		var err error
		if spans[k], err = q.fill(int32(pos), tight[k].need); err != nil {
			return nil, fmt.Errorf("P%d: %w", tight[k].proc, err)
		}
	}
	return spans, nil
}

// placeTightBalanced places the tight side with a parallelism of m or m+1
// everywhere (m = ⌊Σ need/H⌋) whenever that is possible. The round is cut
// into groups: each tight processor's busy time, and the time no one's is
// busy. Processor i puts x_ig ≤ L_g of its need into group g (not its own);
// the groups' loads must lie within [m L_g, (m+1) L_g]. That is a flow
// with lower bounds, solved by max flow. Inside each group the processors'
// shares are then laid end to end over the group's time, wrapping around
// (McNaughton's rule), which gives every instant m or m+1 of them and
// never one twice.
func placeTightBalanced(H float64, tight []portUse, eps float64) ([][]span, error) {
	groups := [][]span{idleTime(H, tight)}
	own := make([]int, len(tight)) // each one's group, −1 for none
	for k, t := range tight {
		own[k] = -1
		if len(t.busy) > 0 {
			own[k] = len(groups)
			groups = append(groups, t.busy)
		}
	}
	length := make([]float64, len(groups))
	for g, ss := range groups {
		for _, s := range ss {
			length[g] += s.t1 - s.t0
		}
	}
	total := 0.0
	for _, t := range tight {
		total += t.need
	}
	m := math.Floor(total/H + 1e-12)
	// Nodes: s, t, the processors, the groups, and the super source and
	// sink of the lower bounds.
	n, G := len(tight), len(groups)
	s, t, ss, tt := 0, 1, 2+n+G, 3+n+G
	f := newFlowNet(4+n+G, eps*1e-3)
	arcs := make([][]int, n)
	for i := range tight {
		f.edge(ss, 2+i, tight[i].need) // s→i carries exactly need
		arcs[i] = make([]int, G)
		for g := range groups {
			arcs[i][g] = -1
			if g != own[i] && length[g] > 0 {
				arcs[i][g] = f.edge(2+i, 2+n+g, length[g])
			}
		}
	}
	f.edge(s, tt, total)
	for g := range groups {
		f.edge(2+n+g, t, length[g]) // g→t carries m L_g to (m+1) L_g
		f.edge(2+n+g, tt, m*length[g])
	}
	f.edge(ss, t, m*H)
	f.edge(t, s, math.Inf(1))
	if got, want := f.maxFlow(ss, tt), total+m*H; got < want-eps*float64(n+G) {
		return nil, fmt.Errorf("no placement of the tight side keeps the parallelism within 1 (flow %g of %g)", got, want)
	}
	spans := make([][]span, n)
	for g, ss := range groups {
		tape := newTape(ss)
		pos := 0.0
		for i := range tight {
			if arcs[i][g] < 0 {
				continue
			}
			if x := f.flowOn(arcs[i][g]); x > eps {
				spans[i] = append(spans[i], tape.segment(pos, min(x, length[g]))...)
				pos = math.Mod(pos+x, length[g])
			}
		}
	}
	for i := range spans {
		spans[i] = mergeSpans(spans[i], eps)
	}
	return spans, nil
}

// idleTime is the time of [0, H] in no tight processor's busy time.
func idleTime(H float64, tight []portUse) []span {
	var busy []span
	for _, t := range tight {
		busy = append(busy, t.busy...)
	}
	busy = mergeSpans(busy, 0)
	var out []span
	cur := 0.0
	for _, b := range busy {
		if b.t0 > cur {
			out = append(out, span{cur, b.t0})
		}
		cur = max(cur, b.t1)
	}
	if cur < H {
		out = append(out, span{cur, H})
	}
	return out
}

// tape lays a group's spans end to end.
type tape struct {
	spans []span
	at    []float64 // position of each span's start
	total float64
}

func newTape(ss []span) tape {
	tp := tape{spans: ss}
	for _, s := range ss {
		tp.at = append(tp.at, tp.total)
		tp.total += s.t1 - s.t0
	}
	return tp
}

// segment is the time of tape positions [pos, pos+x], wrapping past the
// end to the start (x ≤ the tape's length, so it never covers a position
// twice).
func (tp tape) segment(pos, x float64) []span {
	if pos+x <= tp.total {
		return tp.times(pos, pos+x)
	}
	return append(tp.times(pos, tp.total), tp.times(0, pos+x-tp.total)...)
}

// times is the time of tape positions [a, b].
func (tp tape) times(a, b float64) []span {
	var out []span
	for k, s := range tp.spans {
		lo, hi := max(a, tp.at[k]), min(b, tp.at[k]+s.t1-s.t0)
		if hi > lo {
			out = append(out, span{s.t0 + lo - tp.at[k], s.t0 + hi - tp.at[k]})
		}
	}
	return out
}

// profile is the round cut where any of spans starts or ends, each piece
// at the parallelism of spans over it.
func profile(H float64, spans [][]span, eps float64) *timeline {
	type edge struct {
		t float64
		d int32
	}
	var edges []edge
	for _, ss := range spans {
		for _, s := range ss {
			edges = append(edges, edge{s.t0, 1}, edge{s.t1, -1})
		}
	}
	edges = append(edges, edge{0, 0}, edge{H, 0})
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Compare(a.t, b.t) })
	tl := &timeline{head: -1, eps: eps}
	level, prev := int32(0), int32(-1)
	for k := 0; k < len(edges); {
		t := edges[k].t
		for ; k < len(edges) && edges[k].t == t; k++ {
			level += edges[k].d
		}
		if k == len(edges) {
			break
		}
		if edges[k].t-t <= eps { // ends that differ by rounding
			continue
		}
		e := int32(len(tl.el))
		tl.el = append(tl.el, elem{t0: t, t1: edges[k].t, level: level, owner: -1, next: -1, nextOwn: -1, mark: -1})
		if prev >= 0 {
			tl.el[prev].next = e
		} else {
			tl.head = e
		}
		prev = e
	}
	return tl
}

// newTimeline cuts [0, H] at the busy times of the tight side, the owner of
// each being its position in order.
func newTimeline(H float64, tight []portUse, order []int) *timeline {
	type owned struct {
		span
		owner int32
	}
	var all []owned
	for pos, k := range order {
		for _, s := range tight[k].busy {
			all = append(all, owned{s, int32(pos)})
		}
	}
	slices.SortFunc(all, func(a, b owned) int { return cmp.Compare(a.t0, b.t0) })
	tl := &timeline{head: -1, ownHead: make([]int32, len(order)), eps: 1e-12 * H}
	for k := range tl.ownHead {
		tl.ownHead[k] = -1
	}
	lastOwn := slices.Clone(tl.ownHead)
	prev := int32(-1)
	add := func(t0, t1 float64, owner int32) {
		if t1-t0 <= tl.eps {
			return
		}
		k := int32(len(tl.el))
		tl.el = append(tl.el, elem{t0: t0, t1: t1, owner: owner, next: -1, nextOwn: -1, mark: -1})
		if prev >= 0 {
			tl.el[prev].next = k
		} else {
			tl.head = k
		}
		prev = k
		if owner >= 0 {
			if lastOwn[owner] >= 0 {
				tl.el[lastOwn[owner]].nextOwn = k
			} else {
				tl.ownHead[owner] = k
			}
			lastOwn[owner] = k
		}
	}
	cur := 0.0
	for _, s := range all {
		t0, t1 := max(s.t0, cur), min(s.t1, H) // inter-cluster times that touch by rounding
		add(cur, t0, -1)
		add(t0, t1, s.owner)
		cur = max(cur, t1)
	}
	add(cur, H, -1)
	return tl
}

// placeTight gives the tight entity at position pos need of the round
// (§4.2.1) and returns its spans: by priority, the times of least
// parallelism in the busy times of those placed later (the next first),
// then the other times of least parallelism, then, once those are all
// taken, the times one above in the same order. Never its own busy times,
// nor what it has just taken.
func (tl *timeline) placeTight(pos int32, need float64) ([]span, error) {
	lo, hi := tl.levels()
	var got []span
	for level := lo; level <= hi && need > tl.eps; level++ {
		takes := func(e int32) bool {
			el := &tl.el[e]
			return el.level == level && el.owner != pos && el.mark != pos
		}
		for q := int(pos) + 1; q < len(tl.ownHead) && need > tl.eps; q++ {
			for e := tl.ownHead[q]; e >= 0 && need > tl.eps; e = tl.el[e].nextOwn {
				if takes(e) {
					got = append(got, tl.take(e, pos, &need))
				}
			}
		}
		for e := tl.head; e >= 0 && need > tl.eps; e = tl.el[e].next {
			if takes(e) && tl.el[e].owner < pos {
				got = append(got, tl.take(e, pos, &need))
			}
		}
	}
	if need > tl.eps {
		return nil, fmt.Errorf("%g of its intra-cluster time does not fit the round (a bug: its port time is within T)", need)
	}
	return mergeSpans(got, tl.eps), nil
}

// take gives elem e, or its first *need of it, to entity who; it splits the
// elem if need is shorter.
func (tl *timeline) take(e, who int32, need *float64) span {
	el := &tl.el[e]
	if el.t1-el.t0 > *need+tl.eps {
		cut := el.t0 + *need
		rest := *el
		rest.t0 = cut
		k := int32(len(tl.el))
		tl.el = append(tl.el, rest)
		el = &tl.el[e] // the append may have moved it
		el.t1, el.next = cut, k
		if el.owner >= 0 {
			el.nextOwn = k
		}
	}
	el.level++
	el.mark = who
	*need = max(0, *need-(el.t1-el.t0))
	return span{el.t0, el.t1}
}

// levels is the least and the most parallelism.
func (tl *timeline) levels() (lo, hi int32) {
	lo, hi = int32(1<<30), 0
	for e := tl.head; e >= 0; e = tl.el[e].next {
		lo, hi = min(lo, tl.el[e].level), max(hi, tl.el[e].level)
	}
	return lo, hi
}

// levelQueues hold the elems at the two parallelisms of a timeline whose
// parallelism spreads by at most 1, for filling it up (step +1, the tight
// side without busy time: least parallelism first) or down (step −1, the
// free side, §4.2.2: highest first). An entity takes from the front of
// first, and what it took, one level on, joins the back of second; when
// first runs out, second becomes first. The spread stays within 1, and an
// entity never needs more than the round, so it never reaches what it took
// itself.
type levelQueues struct {
	tl            *timeline
	first, second []int32
	step          int32
}

// queues prepares filling tl up (step 1) or down (step −1).
func (tl *timeline) queues(step int32) *levelQueues {
	q := &levelQueues{tl: tl, step: step}
	lo, hi := tl.levels()
	from := lo
	if step < 0 {
		from = hi
	}
	for e := tl.head; e >= 0; e = tl.el[e].next {
		switch l := tl.el[e].level; {
		case step < 0 && l == 0:
		case l == from:
			q.first = append(q.first, e)
		case l == from+step:
			q.second = append(q.second, e)
		}
	}
	return q
}

// fill gives the entity marked who need of the round.
func (q *levelQueues) fill(who int32, need float64) ([]span, error) {
	tl := q.tl
	var got []span
	for need > tl.eps {
		if len(q.first) == 0 {
			if len(q.second) == 0 {
				break
			}
			q.first, q.second = q.second, nil
		}
		e := q.first[0]
		if tl.el[e].mark == who {
			break
		}
		el := &tl.el[e]
		if el.t1-el.t0 > need+tl.eps { // take its first part; the rest stays in front
			cut := el.t0 + need
			part := *el
			part.t1 = cut
			el.t0 = cut
			e = int32(len(tl.el))
			tl.el = append(tl.el, part)
		} else {
			q.first = q.first[1:]
		}
		el = &tl.el[e]
		el.level += q.step
		el.mark = who
		need = max(0, need-(el.t1-el.t0))
		got = append(got, span{el.t0, el.t1})
		if el.level > 0 || q.step > 0 {
			q.second = append(q.second, e)
		}
	}
	if need > tl.eps*float64(len(tl.el)) {
		return nil, fmt.Errorf("%g of its intra-cluster time finds no room in the round (a bug: the two sides carry the same amount)", need)
	}
	return mergeSpans(got, tl.eps), nil
}

// mergeSpans sorts spans, drops those no longer than eps and joins those
// less than eps apart (ends that differ by rounding).
func mergeSpans(s []span, eps float64) []span {
	slices.SortFunc(s, func(a, b span) int { return cmp.Compare(a.t0, b.t0) })
	out := s[:0]
	for _, x := range s {
		if x.t1-x.t0 <= eps {
			continue
		}
		if n := len(out); n > 0 && x.t0 <= out[n-1].t1+eps {
			out[n-1].t1 = max(out[n-1].t1, x.t1)
			continue
		}
		out = append(out, x)
	}
	return out
}

// pairing is one intra-cluster transfer: the tight and the free entity
// (indices into their sides) that communicate during [t0, t1].
type pairing struct {
	tight, free int
	t0, t1      float64
}

// pairUp matches the two sides' spans into transfers (§4.2: at every
// instant as many send as receive, paired as they come): a pair lasts
// until one of its two ends stops, and whoever is left over is paired
// again with whoever is free. Each start or end of a span makes at most
// one new transfer, so there are at most as many transfers as spans.
func pairUp(tight, free [][]span, eps float64) []pairing {
	type event struct {
		t     float64
		start bool
		side  int // 0 tight, 1 free
		who   int
	}
	var evs []event
	for side, spans := range [2][][]span{tight, free} {
		for who, ss := range spans {
			for _, s := range ss {
				if s.t1-s.t0 <= eps {
					continue
				}
				evs = append(evs, event{s.t0, true, side, who}, event{s.t1, false, side, who})
			}
		}
	}
	slices.SortFunc(evs, func(a, b event) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		if a.start != b.start {
			if a.start {
				return 1 // ends first
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.side, b.side), cmp.Compare(a.who, b.who))
	})
	var st [2]struct {
		active  []bool
		partner []int
		since   []float64
		waiting []int
	}
	for side, n := range [2]int{len(tight), len(free)} {
		st[side].active = make([]bool, n)
		st[side].partner = make([]int, n)
		st[side].since = make([]float64, n)
		for k := range st[side].partner {
			st[side].partner[k] = -1
		}
	}
	var out []pairing
	emit := func(tk, fr int, t0, t1 float64) {
		if t1-t0 > eps {
			out = append(out, pairing{tk, fr, t0, t1})
		}
	}
	// nextWaiting pops the next active, unpaired entity of a side.
	nextWaiting := func(side int) int {
		s := &st[side]
		for len(s.waiting) > 0 {
			who := s.waiting[len(s.waiting)-1]
			s.waiting = s.waiting[:len(s.waiting)-1]
			if s.active[who] && s.partner[who] < 0 {
				return who
			}
		}
		return -1
	}
	for k := 0; k < len(evs); {
		t := evs[k].t
		for ; k < len(evs) && evs[k].t == t; k++ {
			ev := evs[k]
			s, o := &st[ev.side], &st[1-ev.side]
			if ev.start {
				s.active[ev.who] = true
				s.waiting = append(s.waiting, ev.who)
				continue
			}
			s.active[ev.who] = false
			if q := s.partner[ev.who]; q >= 0 {
				if ev.side == 0 {
					emit(ev.who, q, s.since[ev.who], t)
				} else {
					emit(q, ev.who, o.since[q], t)
				}
				s.partner[ev.who], o.partner[q] = -1, -1
				o.waiting = append(o.waiting, q)
			}
		}
		for {
			a := nextWaiting(0)
			if a < 0 {
				break
			}
			b := nextWaiting(1)
			if b < 0 {
				st[0].waiting = append(st[0].waiting, a)
				break
			}
			st[0].partner[a], st[1].partner[b] = b, a
			st[0].since[a], st[1].since[b] = t, t
		}
	}
	return out
}

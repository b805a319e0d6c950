package bound

import (
	"math"
	"slices"

	"github.com/netsched/netsched/internal/heapq"
)

// viewEval bounds the completion of the units of a view (see evalView):
// the feed events the ports of the units that hold copies can generate,
// and the units they feed. It holds the scratch of one evaluation.
type viewEval struct {
	b        *Bounder // the figures of the tree and of the state, shared by the parts
	rateBuf  []float64
	classes  []unitClass
	orderBuf [][]int
	saved    []emitter
	targets  []int
	units    []unitState
	ems      heapq.Heap[emitter] // port senders, by their next feed
	events   []float64
	ports    []float64 // per event of inOrder: when it ends on its port (+Inf for a fan sender's)
	later    [1]float64
	used     []bool
}

// unitState is a unit to feed in a view.
type unitState struct {
	cint float64  // complete at least this long after its first feed, with no further feed
	d    *dirInfo // its direction's figures
	// dated: a unit that holds copies and must be fed before due, or is
	// complete at late (see dueBound)
	dated     bool
	due, late float64
}

// completion bounds the completion of a unit whose first feed ends at
// first and whose K-th ends no earlier than later[K−2] (the last element
// for larger K): with one feed, cint after it (the fill whatever the
// feeds); with more, see centres.
func (u *unitState) completion(first float64, later []float64) float64 {
	if u.dated {
		if first < u.due {
			return first
		}
		return u.late
	}
	c := math.Min(first+u.cint, u.d.centres.after(first, later))
	return math.Max(c, first+u.d.fill)
}

// emitter produces feed events in a view.
type emitter struct {
	a      float64 // earliest start of its reservations on the port
	cap    float64 // port capacity
	minDur float64 // a single transfer lasts at least this
	ch     int     // port channel, −1 when no reservation is live on it
	unit   int     // its unit in the view, −1 for a new or fan sender
	rlo    int     // the rates its feeds can have: b.rateBuf[rlo:rhi]
	rhi    int
	first  float64 // no feed of it ends earlier
	k      int     // feeds so far
	next   float64 // when its next feed ends on the port
	gate   gate    // its unit's gate when it is not the port (none: ch −1, or the zero value)
}

// evalView bounds the completion of the units of a view that hold no
// copy. Core participants without a copy only help: they may become
// senders that feed every unit at once (their own arrival is bounded by
// arrivalBound).
func (ev *viewEval) evalView(v *view, st *State) float64 {
	b := ev.b
	nw := b.nw
	ev.units, ev.ems.Items, ev.classes = ev.units[:0], ev.ems.Items[:0], ev.classes[:0]
	strong := dirInfo{fan: math.Inf(1), rtt: math.Inf(1), down: math.Inf(1)}
	maxDown := 0.0
	ev.targets = ev.targets[:0]
	for i, id := range v.units {
		d := &b.dirs[id]
		switch {
		case b.holders[id] > 0:
			g := d.gate
			if g.ch == d.port {
				g.ch = -1
			}
			ev.ems.Items = append(ev.ems.Items, emitter{a: ev.sendStart(id, st), cap: d.portCap, minDur: nw.Size / d.portBW, ch: d.port, unit: i, gate: g})
			if ev.dated(id) {
				ev.addTarget(i, unitState{d: d, due: b.dues.due[id], late: st.Cutoff, dated: true}, &strong, &maxDown)
			}
		case b.need[id] > 0:
			ev.addTarget(i, unitState{cint: d.cint, d: d}, &strong, &maxDown)
		}
	}
	m := len(ev.units)
	if m == 0 {
		return 0
	}
	coreTargets, fan := 0, math.Inf(1)
	for _, z := range v.core {
		if t := st.Ready[z]; !math.IsInf(t, 1) {
			fan = math.Min(fan, t+strong.fan)
		} else {
			coreTargets++
		}
	}
	if coreTargets > 0 {
		// A core participant may get its copy from any port and pass it on
		// faster than any unit's downlink.
		maxDown = math.Inf(1)
		ev.targets = append(ev.targets, len(v.units))
	}
	for i := range ev.ems.Items {
		e := &ev.ems.Items[i]
		if b.sh != nil {
			b.split.applyShift(v, e, st)
		}
		e.rlo = len(ev.rateBuf)
		fastest := 0.0 // no feed of the unit is faster than its fastest route to a target
		for _, t := range ev.targets {
			rs := v.rates[e.unit][t]
			ev.rateBuf = append(ev.rateBuf, rs...)
			if len(rs) > 0 {
				fastest = math.Max(fastest, rs[len(rs)-1])
			}
		}
		e.rhi = len(ev.rateBuf)
		e.minDur = nw.Size / min(nw.Size/e.minDur, maxDown, fastest)
		e.first = e.a + e.minDur
		if b.chans.live(e.ch, e.a, st) {
			e.first = ev.firstFeed(e, st)
		} else {
			e.ch = -1
		}
		e.next = ev.feedTime(e, st)
	}
	if orders := ev.orders(m); orders != nil {
		ev.saved = append(ev.saved[:0], ev.ems.Items...)
		lb := math.Inf(1)
		for _, order := range orders {
			ev.ems.Items = append(ev.ems.Items[:0], ev.saved...)
			lb = math.Min(lb, ev.inOrder(order, coreTargets, fan, strong, maxDown, st))
		}
		return lb
	}
	ev.generate(m+1, coreTargets, fan, strong, maxDown, st)
	return ev.match()
}

// dated reports whether a unit that holds copies has a due time (see
// dueBound), outside the inner views that find due times.
func (ev *viewEval) dated(id int) bool {
	b := ev.b
	return !b.finding && !math.IsInf(b.dues.due[id], 1) && b.need[id] > 0
}

// addTarget adds unit i of a view as a unit to feed, and its figures to
// the strongest unit's.
func (ev *viewEval) addTarget(i int, u unitState, strong *dirInfo, maxDown *float64) {
	d := u.d
	ev.targets = append(ev.targets, i)
	ev.addClass(u)
	ev.units = append(ev.units, u)
	strong.fan = math.Min(strong.fan, d.fan)
	strong.rtt = math.Min(strong.rtt, d.rtt)
	strong.down = math.Min(strong.down, d.down)
	strong.portCap = math.Max(strong.portCap, math.Min(d.portCap, d.gate.cap))
	strong.portBW = math.Max(strong.portBW, d.portBW)
	*maxDown = math.Max(*maxDown, d.downBW)
}

// sendStart is the earliest start of a reservation on the port w→x of a
// unit beyond x→w that holds a copy: by a holder of the unit (portStart),
// or by a participant of the unit that gets a copy from outside first.
// That copy reserves x→w from downStart on, at a rate no more than the
// fastest route into the unit (inRate), so its reservation there ends at
// ≥ downStart + D/inRate; it reaches the participant p at lat(w, p) after
// that end, and p's own transfer reserves w→x lat(p, x) after it sends,
// rtt in all at least. In dueBound's inner views, where the participants
// outside a branch hold back, the copy from outside is bounded sender by
// sender (fedStart).
func (ev *viewEval) sendStart(id int, st *State) float64 {
	b := ev.b
	if b.finding {
		return math.Min(b.portStart[id], b.split.fedStart(id, st))
	}
	d := &b.dirs[id]
	return math.Min(b.portStart[id], b.downStart[id]+b.nw.Size/d.inRate+d.rtt)
}

// addClass files a unit under the class of the units with the same
// figures.
func (ev *viewEval) addClass(u unitState) {
	for i := range ev.classes {
		if c := &ev.classes[i]; !u.dated && !c.u.dated && c.u.cint == u.cint && sameFigures(c.u.d, u.d) {
			c.count++
			return
		}
	}
	ev.classes = append(ev.classes, unitClass{u: u, count: 1})
}

// sameFigures reports whether two branches feed, send and complete alike
// (their channels may differ).
func sameFigures(a, c *dirInfo) bool {
	return a.rtt == c.rtt && a.fan == c.fan && a.down == c.down && a.downBW == c.downBW &&
		a.downCap == c.downCap && a.seq == c.seq && a.portCap == c.portCap && a.portBW == c.portBW &&
		a.fill == c.fill && a.centres.equal(&c.centres) && a.gate.cap == c.gate.cap
}

// unitClass is a kind of unit in a view and how many of it need a copy.
type unitClass struct {
	u     unitState
	count int
}

// orders lists the class sequences worth trying in informing order: one
// class, or two with at most two units in the smaller; nil when there are
// too many (then every new sender is taken as strong as the strongest).
func (ev *viewEval) orders(m int) [][]int {
	ev.orderBuf = ev.orderBuf[:0]
	switch {
	case len(ev.classes) == 1:
		ev.orderBuf = append(ev.orderBuf, make([]int, m))
	case len(ev.classes) == 2 && min(ev.classes[0].count, ev.classes[1].count) <= 2:
		few := 0
		if ev.classes[1].count < ev.classes[0].count {
			few = 1
		}
		many := 1 - few
		place := func(pos ...int) {
			order := make([]int, m)
			for i := range order {
				order[i] = many
			}
			for _, p := range pos {
				order[p] = few
			}
			ev.orderBuf = append(ev.orderBuf, order)
		}
		for i := range m {
			if ev.classes[few].count == 1 {
				place(i)
				continue
			}
			for j := i + 1; j < m; j++ {
				place(i, j)
			}
		}
	default:
		return nil
	}
	return ev.orderBuf
}

// inOrder bounds the completion when the units get their first copy in the
// given order of classes: each event feeds the next unit in the order,
// which joins the senders with its own figures. A unit's second feed is
// one of the feeds after its first (the first copies of the units before
// it and its own come first): it ends on the unit's downlink no earlier
// than the earliest of those on a port plus the unit's own downlink
// latency, or a fan sender's feed.
func (ev *viewEval) inOrder(order []int, coreTargets int, fan float64, strong dirInfo, maxDown float64, st *State) float64 {
	m := len(order)
	ev.events, ev.ports = ev.events[:0], ev.ports[:0]
	ev.ems.Init()
	for k := 0; k <= m; k++ {
		down, d := strong.down, &strong
		if k < m {
			d = ev.classes[order[k]].u.d
			down = d.down
		}
		at, port, ok := ev.nextFeed(down, &coreTargets, &fan, strong, st)
		if !ok {
			break
		}
		ev.events, ev.ports = append(ev.events, at), append(ev.ports, port)
		if k < m {
			ev.addSender(at+d.rtt, math.Min(d.portCap, d.gate.cap), d.portBW, maxDown, st)
		}
	}
	for len(ev.events) <= m {
		ev.events, ev.ports = append(ev.events, math.Inf(1)), append(ev.ports, math.Inf(1))
	}
	lb := 0.0
	port, fanAt := math.Inf(1), math.Inf(1) // the earliest feed after k on a port, and by a fan sender
	for k := m - 1; k >= 0; k-- {
		if math.IsInf(ev.ports[k+1], 1) {
			fanAt = math.Min(fanAt, ev.events[k+1])
		} else {
			port = math.Min(port, ev.ports[k+1])
		}
		u := &ev.classes[order[k]].u
		ev.later[0] = math.Min(port+u.d.down, fanAt)
		lb = math.Max(lb, u.completion(ev.events[k], ev.later[:]))
	}
	return lb
}

// nextFeed takes the next feed event for a unit whose downlink has latency
// down: the earliest port to finish a transfer (or a fan sender, whose
// feeds need no port); ok is false when there is none. It returns when
// the feed ends on the unit's downlink and, for a port's, on the port
// (+Inf for a fan sender's). A core participant without a copy takes the
// first port's transfer and becomes a fan sender.
func (ev *viewEval) nextFeed(down float64, coreTargets *int, fan *float64, strong dirInfo, st *State) (at, port float64, ok bool) {
	port = math.Inf(1)
	if ev.ems.Len() > 0 {
		port = ev.ems.Items[0].next
	}
	if *fan <= port+down {
		return *fan, math.Inf(1), !math.IsInf(*fan, 1)
	}
	e := &ev.ems.Items[0]
	tau := e.next
	e.k++
	e.next = ev.feedTime(e, st)
	ev.ems.Fix(0)
	if *coreTargets > 0 {
		*coreTargets--
		*fan = math.Min(*fan, tau+strong.fan)
	}
	return port + down, port, true
}

// addSender adds a unit that got its first copy as a port sender whose
// reservations can start at a.
func (ev *viewEval) addSender(a, cap, bw, maxDown float64, st *State) {
	b := ev.b
	e := emitter{a: a, cap: cap, ch: -1, minDur: b.nw.Size / math.Min(bw, maxDown)}
	e.first = a + e.minDur
	e.next = ev.feedTime(&e, st)
	ev.ems.Push(e)
}

// generate produces the first n feed events (ends on a unit's downlink):
// every time a port finishes a transfer, a new unit joins the senders, as
// strong as the strongest unit; a core participant that gets a copy
// (first, being the strongest sender) feeds every unit at once.
func (ev *viewEval) generate(n, coreTargets int, fan float64, strong dirInfo, maxDown float64, st *State) {
	ev.events = ev.events[:0]
	ev.ems.Init()
	for len(ev.events) < n {
		at, _, ok := ev.nextFeed(strong.down, &coreTargets, &fan, strong, st)
		if !ok {
			break
		}
		ev.events = append(ev.events, at)
		ev.addSender(at+strong.rtt, strong.portCap, strong.portBW, maxDown, st)
	}
	for len(ev.events) < n {
		ev.events = append(ev.events, math.Inf(1))
	}
	slices.Sort(ev.events)
}

// match assigns units to the first events, the last event to the unit that
// completes first there, and so on back; with completion nondecreasing in
// the event this minimises the latest completion. A unit fed by event i
// completes no earlier than min(E_i + cint, its second feed).
func (ev *viewEval) match() float64 {
	m := len(ev.units)
	cost := func(u *unitState, i int) float64 { return u.completion(ev.events[i], ev.events[i+1:]) }
	ev.used = slices.Grow(ev.used[:0], m)[:m]
	clear(ev.used)
	lb := 0.0
	for i := m - 1; i >= 0; i-- {
		k, best := -1, math.Inf(1)
		for j := range ev.units {
			if !ev.used[j] {
				if c := cost(&ev.units[j], i); k < 0 || c < best {
					k, best = j, c
				}
			}
		}
		ev.used[k] = true
		lb = math.Max(lb, best)
	}
	return lb
}

// feedTime is the earliest time the emitter's next feed can finish on its
// port: the (k+1)-th needs (k+1)·D of area left free on the port since a,
// and on its unit's gate since a − lag (the feed reserves the gate lag
// before the port), and lasts at least minDur.
func (ev *viewEval) feedTime(e *emitter, st *State) float64 {
	b := ev.b
	need := float64(e.k+1) * b.nw.Size
	thr := math.Inf(1)
	for _, r := range ev.rateBuf[e.rlo:e.rhi] {
		thr = math.Min(thr, r)
	}
	area := func(ch int, cap, a float64) float64 {
		if ch >= 0 && e.rhi > e.rlo && b.chans.live(ch, a, st) {
			return freeAreaTime(b.chans.profile(ch, st), cap, thr, a, need)
		}
		return a + need/cap
	}
	t := area(e.ch, e.cap, e.a)
	if g := e.gate; g.ch >= 0 && g.cap > 0 {
		t = math.Max(t, area(g.ch, g.cap, e.a-g.lag)+g.lag)
	}
	return math.Max(t, math.Max(e.first, e.a+e.minDur))
}

// firstFeed is the earliest end of a feed of a live port: at some rate b it
// can have, b must be free on the port for D/b.
func (ev *viewEval) firstFeed(e *emitter, st *State) float64 {
	b := ev.b
	first := math.Inf(1)
	for _, r := range ev.rateBuf[e.rlo:e.rhi] {
		if r*(1-1e-9) > e.cap {
			continue
		}
		first = math.Min(first, earliestWindow(b.chans.profile(e.ch, st), e.cap, r, e.a, b.nw.Size/r))
	}
	return first
}

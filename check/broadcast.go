package check

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// messageMemory is what the broadcast check keeps from one check to the
// next.
type messageMemory struct {
	root    []bool    // by node: an initial holder
	fullAt  []float64 // by node: when it first holds the whole message
	first   []int     // by node: its receptions are parts[first[v]:first[v+1]]
	parts   []part    // every reception, by node, then end
	scratch []part
}

// part is the part [lo, hi) of the message that reaches a node at end.
type part struct {
	node   int
	lo, hi float64
	end    float64
}

// check checks a broadcast: every part a transfer carries is within the
// message and held by its sender when it starts, and every participant
// holds the whole message in the end. A root holds it from the start; any
// other participant holds a part from the end of a transfer that brings
// it. Relays never hold the message: the replay already refuses a
// transfer from or to a relay.
func (m *messageMemory) check(in *input, b *models.Broadcast) error {
	t := in.p.Tree
	if t == nil {
		return fmt.Errorf("check: a broadcast runs on a tree platform, not %q", in.p.Kind())
	}
	m.root = resize(m.root, len(t.Nodes), false)
	for _, name := range b.Roots {
		v, ok := t.NodeIndex(name)
		if !ok {
			return fmt.Errorf("check: the broadcast's root %q is no node of the tree", name)
		}
		m.root[v] = true
	}
	eps := amountTol * math.Max(1, b.Size)
	m.receptions(in, b.Size, eps)
	for j := range in.s.Actions {
		m.sender(in, j, eps)
	}
	for v := range t.Nodes {
		if !t.Nodes[v].Relay && !m.root[v] && math.IsInf(m.fullAt[v], 1) {
			held := m.held(v, math.Inf(1))
			in.violate(NotReceived, NoAction, t.Nodes[v].Name, in.atEnd(),
				"%s never receives the whole message: it holds %g of its %g units", t.Nodes[v].Name, held, b.Size)
		}
	}
	return nil
}

// receptions gathers the parts every node receives, checks that each is
// within the message, and finds when each node first holds all of it.
func (m *messageMemory) receptions(in *input, size, eps float64) {
	n := len(m.root)
	m.parts = m.parts[:0]
	for j := range in.s.Actions {
		a := &in.s.Actions[j]
		if a.Kind != sim.Transfer {
			continue
		}
		if a.Offset < -eps || a.Offset+a.Amount > size+eps {
			in.violate(BadPart, j, in.p.NodeName(a.From)+"→"+in.p.NodeName(a.To), in.starts[j],
				"carries [%g, %g), outside the message [0, %g)", a.Offset, a.Offset+a.Amount, size)
		}
		if end := in.ends[j]; !math.IsInf(end, 1) {
			m.parts = append(m.parts, part{node: a.To, lo: a.Offset, hi: a.Offset + a.Amount, end: end})
		}
	}
	slices.SortFunc(m.parts, func(x, y part) int {
		return cmp.Or(cmp.Compare(x.node, y.node), cmp.Compare(x.end, y.end), cmp.Compare(x.lo, y.lo))
	})
	m.first = resize(m.first, n+1, 0)
	for _, p := range m.parts {
		m.first[p.node+1]++
	}
	for v := range n {
		m.first[v+1] += m.first[v]
	}
	m.fullAt = resize(m.fullAt, n, math.Inf(1))
	for v := range n {
		m.fullAt[v] = m.whenFull(v, size, eps)
	}
}

// whenFull is the end of the reception after which node v holds [0,
// size), +Inf if it never does, 0 for a root. What v holds only grows, so
// a binary search over its receptions in end order finds it.
func (m *messageMemory) whenFull(v int, size, eps float64) float64 {
	if m.root[v] {
		return 0
	}
	recv := m.parts[m.first[v]:m.first[v+1]]
	k := sort.Search(len(recv), func(k int) bool { return m.covers(v, recv[k].end, 0, size, eps) })
	if k == len(recv) {
		return math.Inf(1)
	}
	return recv[k].end
}

// covers reports whether the parts node v has received by time t cover
// [lo, hi).
func (m *messageMemory) covers(v int, t, lo, hi, eps float64) bool {
	got := m.scratch[:0]
	for _, p := range m.parts[m.first[v]:m.first[v+1]] {
		if p.end > t {
			break
		}
		got = append(got, p)
	}
	slices.SortFunc(got, func(x, y part) int { return cmp.Compare(x.lo, y.lo) })
	m.scratch = got
	reach := lo
	for _, p := range got {
		if p.lo > reach+eps {
			break
		}
		reach = max(reach, p.hi)
	}
	return reach >= hi-eps
}

// held is how much of the message node v holds by time t.
func (m *messageMemory) held(v int, t float64) float64 {
	got := m.scratch[:0]
	for _, p := range m.parts[m.first[v]:m.first[v+1]] {
		if p.end <= t {
			got = append(got, p)
		}
	}
	slices.SortFunc(got, func(x, y part) int { return cmp.Compare(x.lo, y.lo) })
	m.scratch = got
	sum, reach := 0.0, math.Inf(-1)
	for _, p := range got {
		if lo := max(p.lo, reach); p.hi > lo {
			sum += p.hi - lo
		}
		reach = max(reach, p.hi)
	}
	return sum
}

// sender checks that the sender of transfer j holds the part it sends when
// it starts.
func (m *messageMemory) sender(in *input, j int, eps float64) {
	a := &in.s.Actions[j]
	start := in.starts[j]
	if a.Kind != sim.Transfer || math.IsInf(start, 1) {
		return
	}
	tol := sim.Tolerance * math.Max(1, start)
	if m.fullAt[a.From] <= start+tol || m.covers(a.From, start+tol, a.Offset, a.Offset+a.Amount, eps) {
		return
	}
	from := in.p.NodeName(a.From)
	in.violate(NotHeld, j, from, start,
		"%s sends [%g, %g) of the message at t=%g, before it holds it (it holds %g units by then; a part counts from the end of its transfer)",
		from, a.Offset, a.Offset+a.Amount, start, m.held(a.From, start+tol))
}

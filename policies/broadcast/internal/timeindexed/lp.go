package timeindexed

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// lineWidth is where a row is wrapped: CPLEX LP format limits lines (to
// 560 characters in CPLEX itself).
const lineWidth = 200

// lpWriter writes the rows of an LP file, wrapping long rows and keeping
// the first write error.
type lpWriter struct {
	w   *bufio.Writer
	col int
	err error
}

func (lw *lpWriter) print(s string) {
	if lw.err != nil {
		return
	}
	_, lw.err = lw.w.WriteString(s)
	lw.col += len(s)
}

func (lw *lpWriter) newline() {
	lw.print("\n")
	lw.col = 0
}

// term writes " + c name" (" - |c| name"; the 1 left out), wrapping the
// line when it is long.
func (lw *lpWriter) term(c float64, name string) {
	if lw.col > lineWidth {
		lw.newline()
		lw.print("   ")
	}
	sign := " + "
	if c < 0 {
		sign, c = " - ", -c
	}
	lw.print(sign)
	if c != 1 {
		lw.print(strconv.FormatFloat(c, 'g', -1, 64) + " ")
	}
	lw.print(name)
}

// row starts a constraint named name.
func (lw *lpWriter) row(name string) { lw.print(" " + name + ":") }

// end ends a constraint with its sense and right-hand side.
func (lw *lpWriter) end(sense string, rhs float64) {
	lw.print(" " + sense + " " + strconv.FormatFloat(rhs, 'g', -1, 64))
	lw.newline()
}

// Variable names: node indices, and slots.
func (m *Model) xName(p *pair, t int) string { return fmt.Sprintf("x_%d_%d_%d", p.u, p.v, t) }
func (m *Model) sName(p *pair, t int) string { return fmt.Sprintf("s_%d_%d_%d", p.u, p.v, t) }
func hName(u, t int) string                  { return fmt.Sprintf("h_%d_%d", u, t) }

// sAt is the name of s_p,t with the convention of the model: none (0)
// before T_p, s_p,max T_p after it.
func (m *Model) sAt(p *pair, t int) (string, bool) {
	if t < p.lo {
		return "", false
	}
	return m.sName(p, min(t, p.hi)), true
}

// WriteLP writes the model in CPLEX LP format; relax writes its LP
// relaxation (the same rows, x_p,t and C continuous: 0 ≤ x_p,t follows
// from the default bounds and x_p,t ≤ 1 from the receipt rows).
func (m *Model) WriteLP(w io.Writer, relax bool) error {
	lw := &lpWriter{w: bufio.NewWriterSize(w, 1<<16)}
	kind := "MILP"
	if relax {
		kind = "LP relaxation"
	}
	lw.print(fmt.Sprintf("\\ time-indexed %s of a broadcast: step 1/%d, %d slots, %d binaries; objective in slots\n", kind, m.k, m.slots, m.Binaries()))
	lw.print("Minimize\n obj: C\nSubject To\n")
	for i := range m.pairs { // s_p,t − s_p,t−1 − x_p,t = 0
		p := &m.pairs[i]
		for t := p.lo; t <= p.hi; t++ {
			lw.row(fmt.Sprintf("d_%d_%d_%d", p.u, p.v, t))
			lw.term(1, m.sName(p, t))
			if t > p.lo {
				lw.term(-1, m.sName(p, t-1))
			}
			lw.term(-1, m.xName(p, t))
			lw.end("=", 0)
		}
	}
	for _, v := range m.parts { // receipt
		if m.root[v] {
			continue
		}
		lw.row(fmt.Sprintf("r_%d", v))
		for _, i := range m.into[v] {
			p := &m.pairs[i]
			lw.term(1, m.sName(p, p.hi))
		}
		lw.end("=", 1)
	}
	for _, u := range m.parts { // h_u,t, holding and waiting
		if m.root[u] {
			continue
		}
		for t := m.early[u]; t < m.slots; t++ {
			lw.row(fmt.Sprintf("g_%d_%d", u, t))
			lw.term(1, hName(u, t))
			for _, i := range m.into[u] {
				p := &m.pairs[i]
				if s, ok := m.sAt(p, t-p.arrive); ok {
					lw.term(-1, s)
				}
			}
			lw.end("=", 0)
		}
		for _, i := range m.from[u] {
			p := &m.pairs[i]
			for t := p.lo; t <= p.hi; t++ {
				lw.row(fmt.Sprintf("k_%d_%d_%d", p.u, p.v, t))
				lw.term(1, m.sName(p, t))
				lw.term(-1, hName(u, t))
				lw.end("<=", 0)
			}
		}
		for t := m.early[u] + 1; t <= m.slots; t++ {
			lw.row(fmt.Sprintf("w_%d_%d", u, t))
			lw.term(1, "C")
			lw.term(float64(t), hName(u, t-1))
			lw.end(">=", float64(t))
		}
	}
	m.writeSenders(lw)
	m.writeCapacity(lw)
	for _, v := range m.parts { // makespan
		if m.root[v] {
			continue
		}
		lw.row(fmt.Sprintf("m_%d", v))
		lw.term(1, "C")
		for _, i := range m.into[v] {
			p := &m.pairs[i]
			for t := p.lo; t <= p.hi; t++ {
				lw.term(-float64(t+p.arrive), m.xName(p, t))
			}
		}
		lw.end(">=", 0)
	}
	lw.print(fmt.Sprintf("Bounds\n C >= %d\n", m.latest()))
	if !relax {
		lw.print("Binary\n")
		for i := range m.pairs {
			p := &m.pairs[i]
			for t := p.lo; t <= p.hi; t++ {
				lw.print(" " + m.xName(p, t))
				lw.newline()
			}
		}
		lw.print("General\n C\n")
	}
	lw.print("End\n")
	if lw.err == nil {
		lw.err = lw.w.Flush()
	}
	if lw.err != nil {
		return fmt.Errorf("writing the LP file: %w", lw.err)
	}
	return nil
}

// use is one reservation of a transfer on a channel: pair p's i-th link.
type use struct{ p, i int }

// capacityRows calls row for every channel and slot θ on which the
// transfers that can reserve the channel together could exceed its
// capacity, with those reservations; on the other slots the capacity
// always holds, and the LP and the CNF leave them out.
func (m *Model) capacityRows(row func(ch, th int, us []use)) {
	uses := make([][]use, len(m.cap))
	for pi := range m.pairs {
		for i, ch := range m.pairs[pi].route.Channels {
			uses[ch] = append(uses[ch], use{pi, i})
		}
	}
	var at []use
	for ch, us := range uses {
		for th := 0; th < m.slots; th++ {
			at, total := at[:0], 0.0
			for _, x := range us {
				if p := &m.pairs[x.p]; p.covers(th - p.offsets[x.i]) {
					at = append(at, x)
					total += p.route.Bandwidth
				}
			}
			if len(at) >= 2 && total > m.cap[ch]*(1+gridTol) {
				row(ch, th, at)
			}
		}
	}
}

// covers reports whether p, started at slot a, can be active on the slot
// its reservation starts ω after a: whether some start in T_p lies in
// (a − τ, a].
func (p *pair) covers(a int) bool { return a >= p.lo && a-p.dur < p.hi }

// writeCapacity writes a capacity row per channel and slot (capacityRows).
func (m *Model) writeCapacity(lw *lpWriter) {
	m.capacityRows(func(ch, th int, us []use) {
		lw.row(fmt.Sprintf("c_%d_%d", ch, th))
		for _, x := range us {
			p := &m.pairs[x.p]
			a := th - p.offsets[x.i]
			s, _ := m.sAt(p, a)
			lw.term(p.route.Bandwidth, s)
			if s2, ok := m.sAt(p, a-p.dur); ok {
				lw.term(-p.route.Bandwidth, s2)
			}
		}
		lw.end("<=", m.cap[ch])
	})
}

// latest is the largest contention-free earliest arrival, max e_v: no
// schedule ends before.
func (m *Model) latest() int {
	e := 0
	for _, v := range m.parts {
		e = max(e, m.early[v])
	}
	return e
}

// writeSenders writes, for every non-root participant u, every channel ℓ
// leaving u and every slot θ, that the transfers u sends on ℓ reserve at
// most cap_ℓ·h_u,a, a = θ − ω the latest start of a transfer covering θ:
// in a 0/1 solution a transfer of u is active only once u holds the
// message. Rows that the holding rows imply (a single transfer, or
// transfers that fit together within the capacity) are left out.
func (m *Model) writeSenders(lw *lpWriter) {
	for _, u := range m.parts {
		if m.root[u] {
			continue
		}
		byChannel := map[int][]int{}
		var channels []int
		for _, pi := range m.from[u] {
			ch := m.pairs[pi].route.Channels[0]
			if byChannel[ch] == nil {
				channels = append(channels, ch)
			}
			byChannel[ch] = append(byChannel[ch], pi)
		}
		for _, ch := range channels {
			ps := byChannel[ch]
			total := 0.0
			for _, pi := range ps {
				total += m.pairs[pi].route.Bandwidth
			}
			if len(ps) < 2 || total <= m.cap[ch]*(1+gridTol) {
				continue
			}
			for a := m.early[u]; a < m.slots; a++ { // a = θ − ω_0
				if !slices.ContainsFunc(ps, func(pi int) bool { return m.pairs[pi].covers(a) }) {
					continue
				}
				lw.row(fmt.Sprintf("o_%d_%d_%d", u, ch, a))
				for _, pi := range ps {
					p := &m.pairs[pi]
					if !p.covers(a) {
						continue
					}
					s, _ := m.sAt(p, a)
					lw.term(p.route.Bandwidth, s)
					if s2, ok := m.sAt(p, a-p.dur); ok {
						lw.term(-p.route.Bandwidth, s2)
					}
				}
				lw.term(-m.cap[ch], hName(u, a))
				lw.end("<=", 0)
			}
		}
	}
}

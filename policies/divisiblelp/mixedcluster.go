package divisiblelp

import (
	"slices"
	"sort"

	"github.com/netsched/netsched/policies/multicluster"
	"github.com/netsched/netsched/policies/openshop"
	"github.com/netsched/netsched/policies/optround"
)

// Uplink states of a cluster at an instant: bits of stateOut and stateIn.
const (
	stateOut = 1 << iota
	stateIn
	numStates = 4
)

// span is a time [t0, t1].
type span struct{ t0, t1 float64 }

// cluster lays out cluster j inside: an open shop of its processors'
// send ports and its uplink in (left) and their receive ports and its
// uplink out (right), with the intra-cluster transfers (the north-west
// corner pairing of its senders and receivers), each processor's time
// across clusters on its uplink, and the same idle edge as the cluster
// pattern's between the uplinks, so that they are used in nested times
// of the same lengths as in the pattern. Its times are then carried onto
// the pattern's, state by state (stateMap), and the intra-cluster
// transfers emitted; who holds the uplinks when is kept for
// interTransfers.
func (l *mixedLayout) cluster(j int, pattern []openshop.Piece) error {
	m := l.m
	c := m.Clusters[j]
	n, x := c.N, c.N // processors 0..n−1 of the cluster, then the uplink node
	var edges []openshop.Edge
	var from, to []int // per intra edge, its processors
	for _, pr := range northWest(l.amt[c.First:c.First+c.N], dustOf(l.amt)) {
		edges = append(edges, openshop.Edge{L: pr.from, R: pr.to, W: c.Beta * pr.amount})
		from, to = append(from, c.First+pr.from), append(to, c.First+pr.to)
	}
	intra := len(edges)
	for k, a := range l.amt[c.First : c.First+c.N] {
		if a[optround.SendInter] > 0 {
			edges = append(edges, openshop.Edge{L: k, R: x, W: m.Beta * a[optround.SendInter]})
		}
		if a[optround.RecvInter] > 0 {
			edges = append(edges, openshop.Edge{L: x, R: k, W: m.Beta * a[optround.RecvInter]})
		}
	}
	edges = append(edges, openshop.Edge{L: x, R: x, W: l.idleBoth(j)})
	ps, err := openshop.Schedule(n+1, n+1, edges, l.H)
	if err != nil {
		return err
	}
	var localOut, localIn, globalOut, globalIn []span
	for _, p := range ps {
		e := edges[p.Edge]
		switch {
		case e.R == x && e.L != x:
			localOut = append(localOut, span{p.Start, p.End})
		case e.L == x && e.R != x:
			localIn = append(localIn, span{p.Start, p.End})
		}
	}
	C := len(m.Clusters)
	for _, p := range pattern {
		if p.Edge/C == j {
			globalOut = append(globalOut, span{p.Start, p.End})
		}
		if p.Edge%C == j {
			globalIn = append(globalIn, span{p.Start, p.End})
		}
	}
	sm := newStateMap(l.H, localOut, localIn, globalOut, globalIn)
	for _, p := range ps {
		e := edges[p.Edge]
		for _, g := range sm.carry(p.Start, p.End) {
			switch {
			case p.Edge < intra:
				l.trs = append(l.trs, multicluster.Transfer{From: from[p.Edge], To: to[p.Edge],
					Amount: (g.t1 - g.t0) / c.Beta, Start: g.t0, End: g.t1})
			case e.R == x && e.L != x:
				l.sendOwner[j] = append(l.sendOwner[j], owned{g.t0, g.t1, c.First + e.L})
			case e.L == x && e.R != x:
				l.recvOwner[j] = append(l.recvOwner[j], owned{g.t0, g.t1, c.First + e.R})
			}
		}
	}
	byStart := func(a, b owned) int { return cmpFloat(a.t0, b.t0) }
	slices.SortFunc(l.sendOwner[j], byStart)
	slices.SortFunc(l.recvOwner[j], byStart)
	return nil
}

// dustOf is the amount below which a transfer is rounding: 1e-13 of the
// largest amount.
func dustOf(amt [][4]float64) float64 {
	big := 0.0
	for _, a := range amt {
		big = max(big, a[0], a[1], a[2], a[3])
	}
	return 1e-13 * big
}

// pairing is an intra-cluster transfer of the north-west corner rule,
// between processors of a cluster by position.
type pairing struct {
	from, to int
	amount   float64
}

// northWest pairs a cluster's senders and receivers inside it in index
// order, each sender's load going to the receivers in turn.
func northWest(amt [][4]float64, dust float64) []pairing {
	var out []pairing
	s, r := 0, 0
	leftS, leftR := 0.0, 0.0
	for {
		for s < len(amt) && leftS <= dust {
			if leftS = amt[s][optround.SendIntra]; leftS <= dust {
				s++
			}
		}
		for r < len(amt) && leftR <= dust {
			if leftR = amt[r][optround.RecvIntra]; leftR <= dust {
				r++
			}
		}
		if s == len(amt) || r == len(amt) {
			return out
		}
		a := min(leftS, leftR)
		out = append(out, pairing{s, r, a})
		leftS, leftR = leftS-a, leftR-a
		if leftS <= dust {
			s, leftS = s+1, 0
		}
		if leftR <= dust {
			r, leftR = r+1, 0
		}
	}
}

// stateMap carries a cluster's own times onto the pattern's: both are cut
// into the times of each uplink state, of the same total length per state
// (to rounding), and the k-th instant of a state in one is the k-th in the
// other.
type stateMap struct{ local, global *timeline }

func newStateMap(H float64, localOut, localIn, globalOut, globalIn []span) *stateMap {
	return &stateMap{newTimeline(H, localOut, localIn), newTimeline(H, globalOut, globalIn)}
}

// carry maps the local time [a, b] to global times, in order.
func (sm *stateMap) carry(a, b float64) []span {
	var out []span
	lt := sm.local
	k := max(0, sort.SearchFloat64s(lt.cuts, a)-1)
	for ; k < len(lt.state) && lt.cuts[k] < b; k++ {
		t0, t1 := max(a, lt.cuts[k]), min(b, lt.cuts[k+1])
		if t1 <= t0 {
			continue
		}
		p0 := lt.pos[k] + t0 - lt.cuts[k]
		out = sm.global.times(out, lt.state[k], p0, p0+t1-t0)
	}
	return out
}

// timeline is [0, H] cut where a cluster's uplink state changes: piece k
// is [cuts[k], cuts[k+1]] in state state[k], at position pos[k] of the
// times of its state laid end to end; byState lists each state's pieces.
type timeline struct {
	cuts    []float64
	state   []int
	pos     []float64
	byState [numStates][]int
}

// newTimeline cuts [0, H] by the times the uplink out and in are busy.
func newTimeline(H float64, out, in []span) *timeline {
	cuts := []float64{0, H}
	for _, sp := range append(slices.Clone(out), in...) {
		cuts = append(cuts, min(max(sp.t0, 0), H), min(max(sp.t1, 0), H))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	busy := func(spans []span, t float64) bool {
		for _, sp := range spans {
			if sp.t0 <= t && t < sp.t1 {
				return true
			}
		}
		return false
	}
	tl := &timeline{cuts: cuts[:1]}
	var lens [numStates]float64
	for k := 1; k < len(cuts); k++ {
		mid := (cuts[k-1] + cuts[k]) / 2
		s := 0
		if busy(out, mid) {
			s |= stateOut
		}
		if busy(in, mid) {
			s |= stateIn
		}
		tl.byState[s] = append(tl.byState[s], len(tl.state))
		tl.cuts, tl.state, tl.pos = append(tl.cuts, cuts[k]), append(tl.state, s), append(tl.pos, lens[s])
		lens[s] += cuts[k] - cuts[k-1]
	}
	return tl
}

// times appends the times of positions [p0, p1] of state s's tape.
func (tl *timeline) times(out []span, s int, p0, p1 float64) []span {
	idx := tl.byState[s]
	if len(idx) == 0 {
		return out // rounding: a sliver of a state the other side lacks
	}
	g := max(0, sort.Search(len(idx), func(q int) bool { return tl.pos[idx[q]] > p0 })-1)
	for ; g < len(idx); g++ {
		k := idx[g]
		start, length := tl.pos[k], tl.cuts[k+1]-tl.cuts[k]
		if start >= p1 {
			break
		}
		lo, hi := max(p0, start), min(p1, start+length)
		if g == len(idx)-1 {
			hi = p1 // the tape's end: rounding past it stays in its last piece
		}
		if hi > lo {
			out = append(out, span{tl.cuts[k] + lo - start, tl.cuts[k] + hi - start})
		}
	}
	return out
}

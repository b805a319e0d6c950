package divisiblelp

import (
	"slices"
	"sort"

	"github.com/netsched/netsched/policies/multicluster"
	"github.com/netsched/netsched/policies/openshop"
)

// interTransfers emits the transfers between clusters: each piece of the
// pattern from cluster j to cluster k, cut where the processor holding
// j's uplink out or k's uplink in changes.
func (l *mixedLayout) interTransfers(pattern []openshop.Piece) {
	C := len(l.m.Clusters)
	for _, p := range pattern {
		j, k := p.Edge/C, p.Edge%C
		cuts := []float64{p.Start, p.End}
		cuts = ownerCuts(cuts, l.sendOwner[j], p.Start, p.End)
		cuts = ownerCuts(cuts, l.recvOwner[k], p.Start, p.End)
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		for c := 1; c < len(cuts); c++ {
			mid := (cuts[c-1] + cuts[c]) / 2
			from, to := ownerAt(l.sendOwner[j], mid), ownerAt(l.recvOwner[k], mid)
			if from < 0 || to < 0 {
				continue // rounding: a sliver of uplink time nobody holds
			}
			amount := (cuts[c] - cuts[c-1]) / l.m.Beta
			if n := len(l.trs); n > 0 && l.trs[n-1].Inter && l.trs[n-1].From == from && l.trs[n-1].To == to && l.trs[n-1].End == cuts[c-1] {
				l.trs[n-1].Amount += amount
				l.trs[n-1].End = cuts[c]
				continue
			}
			l.trs = append(l.trs, multicluster.Transfer{From: from, To: to, Amount: amount, Inter: true, Start: cuts[c-1], End: cuts[c]})
		}
	}
}

// ownerCuts appends the ends of the holdings inside (t0, t1).
func ownerCuts(cuts []float64, os []owned, t0, t1 float64) []float64 {
	for _, o := range os {
		for _, t := range []float64{o.t0, o.t1} {
			if t > t0 && t < t1 {
				cuts = append(cuts, t)
			}
		}
	}
	return cuts
}

// ownerAt is the processor holding the uplink at t: the holding that
// starts last at or before t (the nearest, where rounding leaves a gap),
// or −1 if there is none.
func ownerAt(os []owned, t float64) int {
	k := sort.Search(len(os), func(q int) bool { return os[q].t0 > t })
	switch {
	case k > 0:
		return os[k-1].proc
	case len(os) > 0:
		return os[0].proc
	}
	return -1
}

// cancelCycles removes every cycle of transfers between processors (the
// expansion forwards data along transfers, so it needs none): along a
// cycle each processor sends and receives the least amount of its edges
// less, which keeps every net load and only shortens transfers (their
// ends move earlier), so ports, uplinks and work stay within the round.
func cancelCycles(m *multicluster.Model, trs []multicluster.Transfer, dust float64) {
	for {
		cyc := findCycle(len(m.Procs), trs)
		if cyc == nil {
			return
		}
		delta := -1.0
		for _, e := range cyc {
			if a := edgeAmount(trs, e); delta < 0 || a < delta {
				delta = a
			}
		}
		for _, e := range cyc {
			left := delta
			for k := len(trs) - 1; k >= 0 && left > 0; k-- {
				tr := &trs[k]
				if tr.From != e[0] || tr.To != e[1] || tr.Amount <= 0 {
					continue
				}
				x := min(left, tr.Amount)
				beta := m.Beta
				if !tr.Inter {
					beta = m.ClusterOf(tr.From).Beta
				}
				left -= x
				if tr.Amount -= x; tr.Amount <= dust {
					tr.Amount, tr.End = 0, tr.Start
				} else {
					tr.End -= x * beta
				}
			}
		}
	}
}

// edgeAmount is what processor e[0] sends e[1] in all.
func edgeAmount(trs []multicluster.Transfer, e [2]int) float64 {
	a := 0.0
	for _, tr := range trs {
		if tr.From == e[0] && tr.To == e[1] && tr.Amount > 0 {
			a += tr.Amount
		}
	}
	return a
}

// findCycle returns the edges of a cycle of transfers (of a positive
// amount) between n processors, or nil.
func findCycle(n int, trs []multicluster.Transfer) [][2]int {
	adj := make([][]int, n)
	for _, tr := range trs {
		if tr.Amount > 0 && !slices.Contains(adj[tr.From], tr.To) {
			adj[tr.From] = append(adj[tr.From], tr.To)
		}
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, n)
	var path []int
	var visit func(u int) [][2]int
	visit = func(u int) [][2]int {
		state[u] = onPath
		path = append(path, u)
		for _, v := range adj[u] {
			switch state[v] {
			case onPath:
				at := slices.Index(path, v)
				var cyc [][2]int
				for q := at; q < len(path); q++ {
					next := v
					if q+1 < len(path) {
						next = path[q+1]
					}
					cyc = append(cyc, [2]int{path[q], next})
				}
				return cyc
			case unseen:
				if c := visit(v); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[u] = done
		return nil
	}
	for u := range n {
		if state[u] == unseen {
			if c := visit(u); c != nil {
				return c
			}
		}
	}
	return nil
}

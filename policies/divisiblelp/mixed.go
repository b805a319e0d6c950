package divisiblelp

import (
	"fmt"
	"slices"

	"github.com/netsched/netsched/policies/multicluster"
	"github.com/netsched/netsched/policies/openshop"
	"github.com/netsched/netsched/policies/optround"
)

// mixedLayout lays out any round of the multi-cluster program, clusters
// that both send and receive across clusters included (see the package
// doc, "Any round"). Built by layoutMixed.
type mixedLayout struct {
	m   *multicluster.Model
	H   float64      // the horizon: T, or the busiest port if rounding puts it above
	amt [][4]float64 // per processor, optround.SendIntra … RecvInter, netted and balanced
	out []float64    // per cluster, its load out across clusters, O_j
	in  []float64    // … and in, I_j
	// Per cluster, who of it sends (receives) across clusters when, in
	// the round's time, by start.
	sendOwner, recvOwner [][]owned
	trs                  []multicluster.Transfer
}

// owned is a time during which processor proc holds an uplink.
type owned struct {
	t0, t1 float64
	proc   int
}

// layoutMixed lays out round r: its transfers in [0, T], no port or
// uplink carrying two at once, every processor's amounts as r's (to
// rounding), and no cycle of transfers between processors.
func layoutMixed(m *multicluster.Model, r *optround.MultiClusterRound, dust float64) ([]multicluster.Transfer, error) {
	l := &mixedLayout{m: m, H: r.T}
	l.setAmounts(r, dust)
	flows := crossFlows(l.out, l.in)
	l.fitToFlows(flows)
	pattern, err := l.clusterPattern(flows)
	if err != nil {
		return nil, fmt.Errorf("between clusters: %w", err)
	}
	l.sendOwner, l.recvOwner = make([][]owned, len(m.Clusters)), make([][]owned, len(m.Clusters))
	for j := range m.Clusters {
		if err := l.cluster(j, pattern); err != nil {
			return nil, fmt.Errorf("cluster %d: %w", j, err)
		}
	}
	l.interTransfers(pattern)
	cancelCycles(m, l.trs, dust)
	trs := slices.DeleteFunc(l.trs, func(t multicluster.Transfer) bool { return t.Amount <= 0 })
	slices.SortStableFunc(trs, func(a, b multicluster.Transfer) int { return cmpFloat(a.Start, b.Start) })
	return trs, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// setAmounts nets every processor's intra-cluster sends and receives
// (sending and receiving inside its cluster at once gains nothing),
// zeroes the dust, balances what each cluster sends and receives inside,
// and sums the clusters' loads across.
func (l *mixedLayout) setAmounts(r *optround.MultiClusterRound, dust float64) {
	m := l.m
	l.amt = make([][4]float64, len(m.Procs))
	for i, a := range r.Amounts {
		y := a[optround.RecvIntra] - a[optround.SendIntra]
		l.amt[i] = [4]float64{max(0, -y), max(0, y), a[optround.SendInter], a[optround.RecvInter]}
		for k, v := range l.amt[i] {
			if v <= dust {
				l.amt[i][k] = 0
			}
		}
	}
	l.out, l.in = make([]float64, len(m.Clusters)), make([]float64, len(m.Clusters))
	for j, c := range m.Clusters {
		procs := l.amt[c.First : c.First+c.N]
		s, rv := sumOf(procs, optround.SendIntra), sumOf(procs, optround.RecvIntra)
		if s > rv {
			scaleOf(procs, optround.SendIntra, rv/s)
		} else if rv > 0 {
			scaleOf(procs, optround.RecvIntra, s/rv)
		}
		l.out[j], l.in[j] = sumOf(procs, optround.SendInter), sumOf(procs, optround.RecvInter)
	}
}

func sumOf(a [][4]float64, k int) float64 {
	s := 0.0
	for _, v := range a {
		s += v[k]
	}
	return s
}

func scaleOf(a [][4]float64, k int, f float64) {
	for i := range a {
		a[i][k] *= f
	}
}

// crossFlows splits the clusters' loads out and in across clusters into
// flows f[j][k] from cluster j to cluster k ≠ j: a maximum flow from the
// senders to the receivers (Edmonds–Karp), whole (to rounding) because
// the program keeps O_j + I_j ≤ Σ O for every cluster, the condition for
// a transport that no cluster makes to itself.
func crossFlows(out, in []float64) [][]float64 {
	C := len(out)
	f := make([][]float64, C)
	for j := range f {
		f[j] = make([]float64, C)
	}
	leftOut, leftIn := slices.Clone(out), slices.Clone(in)
	total := 0.0
	for _, v := range out {
		total += v
	}
	eps := 1e-13 * total
	// Residual graph: source → j (leftOut), j → k (∞ forward, f[j][k]
	// back), k → sink (leftIn). Nodes: 0..C−1 senders, C..2C−1 receivers.
	for {
		prev := make([]int, 2*C) // per node, the node it was reached from; −1 unseen, −2 the source
		for v := range prev {
			prev[v] = -1
		}
		var queue []int
		for j := range C {
			if leftOut[j] > eps {
				prev[j] = -2
				queue = append(queue, j)
			}
		}
		end := -1
		for len(queue) > 0 && end < 0 {
			u := queue[0]
			queue = queue[1:]
			if u < C { // a sender: to any other cluster's receiver
				for k := range C {
					if k != u && prev[C+k] == -1 {
						prev[C+k] = u
						if leftIn[k] > eps {
							end = C + k
							break
						}
						queue = append(queue, C+k)
					}
				}
				continue
			}
			for j := range C { // a receiver: back along a flow into it
				if f[j][u-C] > eps && prev[j] == -1 {
					prev[j] = u
					queue = append(queue, j)
				}
			}
		}
		if end < 0 {
			return f
		}
		delta := leftIn[end-C]
		for v := end; prev[v] != -2; v = prev[v] {
			if u := prev[v]; v < C { // back edge receiver u → sender v
				delta = min(delta, f[v][u-C])
			}
		}
		start := end
		for prev[start] != -2 {
			start = prev[start]
		}
		delta = min(delta, leftOut[start])
		leftIn[end-C] -= delta
		leftOut[start] -= delta
		for v := end; prev[v] != -2; v = prev[v] {
			if u := prev[v]; v >= C {
				f[u][v-C] += delta
			} else {
				f[v][u-C] -= delta
			}
		}
	}
}

// fitToFlows scales every processor's loads across clusters so that
// each cluster's add up to its flows (they differ by rounding), and sets
// the horizon to the busiest port or uplink if rounding puts it above T.
func (l *mixedLayout) fitToFlows(f [][]float64) {
	m := l.m
	for j, c := range m.Clusters {
		o, in := 0.0, 0.0
		for k := range f {
			o, in = o+f[j][k], in+f[k][j]
		}
		procs := l.amt[c.First : c.First+c.N]
		if l.out[j] > 0 {
			scaleOf(procs, optround.SendInter, o/l.out[j])
		}
		if l.in[j] > 0 {
			scaleOf(procs, optround.RecvInter, in/l.in[j])
		}
		l.out[j], l.in[j] = o, in
		l.H = max(l.H, m.Beta*o, m.Beta*in)
		for _, a := range procs {
			l.H = max(l.H, c.Beta*a[optround.SendIntra]+m.Beta*a[optround.SendInter],
				c.Beta*a[optround.RecvIntra]+m.Beta*a[optround.RecvInter])
		}
	}
}

// idleBoth is how long a cluster's uplinks are both idle when they are
// used in nested times: what its busier direction leaves of the horizon.
func (l *mixedLayout) idleBoth(j int) float64 {
	return max(0, l.H-l.m.Beta*max(l.out[j], l.in[j]))
}

// clusterPattern schedules the flows between clusters on the uplinks,
// every cluster's uplink out and in used in nested times (in within out
// when it sends more than it receives, out within in otherwise): an open
// shop of the uplinks out (left) and in (right) with, besides the flows,
// an idle edge from each cluster's out to its own in of idleBoth: while
// its busier uplink is idle, the other one is matched to it, so idle too.
func (l *mixedLayout) clusterPattern(f [][]float64) ([]openshop.Piece, error) {
	C := len(l.m.Clusters)
	var edges []openshop.Edge
	for j := range C {
		for k := range C {
			if f[j][k] > 0 {
				edges = append(edges, openshop.Edge{L: j, R: k, W: l.m.Beta * f[j][k]})
			}
		}
	}
	for j := range C {
		edges = append(edges, openshop.Edge{L: j, R: j, W: l.idleBoth(j)})
	}
	ps, err := openshop.Schedule(C, C, edges, l.H)
	if err != nil {
		return nil, err
	}
	out := ps[:0]
	for _, p := range ps {
		if e := edges[p.Edge]; e.L != e.R {
			p.Edge = e.L*C + e.R // from the pair's index
			out = append(out, p)
		}
	}
	return out, nil
}

package heft

import (
	"math"
	"slices"

	"github.com/netsched/netsched/models"
)

// network is the model of a crossbar, a multi-cluster or a network of
// links (see the package comment): related processors, transfers through
// ports and uplinks, or through links, that serve one at a time, and every
// resource booked by insertion.
type network struct {
	g      *graph
	weight []float64 // by task

	gamma     []float64                            // by processor: time per unit
	exclusive []bool                               // by processor: computes only while not communicating
	cluster   []int                                // by processor
	latency   func(q, p int) float64               // start-up from q to p: α, or a route's latency
	beta      func(q, p int) float64               // time per unit from q to p
	carry     func(q, p int, data float64) float64 // the time data takes from q to p after the start-up: data·β, or data/b
	meanLat   float64                              // over ordered pairs of distinct processors
	meanBeta  float64
	meanGamma float64

	// Resources: slot p, send p, recv p (= send p on a half-duplex
	// crossbar), then each cluster's uplink-out and uplink-in, then on a
	// network of links each link (transfers then hold their route's links
	// instead of ports and uplinks).
	busy             []timeline
	send, recv, upIn int // first resource of each group; upOut = upIn − clusters
	clusters, link0  int
	route            func(q, p int) []int // on a network of links, else nil

	proc   []int     // by task: its processor, −1 before it is placed
	finish []float64 // by task
	start  []float64 // by task
	xfers  []xfer    // the transfers booked, in the order booked
	log    []booking // what the placement under evaluation books

	parents []link // scratch: v's parents by the time their data is ready
	sorted  int    // the task whose parents are sorted in parents, plus one
	rs      []int  // scratch: the resources of one action

	// shared caches, for task bounded−1, the earliest start of the
	// transfer of its k-th parent's data to cluster c (at k·clusters+c,
	// NaN until asked) on the resources every processor of c shares for
	// it: the bound of each of them starts there.
	shared  []float64
	bounded int
	srs     []int // scratch: those resources
}

// xfer is a transfer of the data of edge u→v from processor from to
// processor to, during [start, start+d).
type xfer struct {
	u, v, from, to int
	data, start, d float64
}

// booking is one interval booked on a resource.
type booking struct {
	r    int
	s, e float64
}

// newNetwork models the platform p (a crossbar or a multi-cluster) for
// the task graph g of weights dag's.
func newNetwork(g *graph, dag *models.DAG, pl *models.Platform) *network {
	m := &network{g: g, weight: make([]float64, g.n)}
	for v := range dag.Tasks {
		m.weight[v] = dag.Tasks[v].Weight
	}
	var ps []models.Processor
	var kinds []string
	clusters, links := 1, 0
	switch {
	case pl.Crossbar != nil:
		c := pl.Crossbar
		ps, kinds = c.Processors, models.CrossbarKinds
		m.cluster = make([]int, len(ps))
		m.latency, m.meanLat = func(int, int) float64 { return c.Alpha }, c.Alpha
		m.beta = func(int, int) float64 { return c.Beta }
		m.carry = func(_, _ int, data float64) float64 { return data * c.Beta }
	case pl.Network != nil:
		ps, kinds, links = pl.Network.Hosts, models.NetworkKinds, len(pl.Network.Links)
		m.cluster = make([]int, len(ps))
		m.linkModel(pl.Network)
	default:
		mc := pl.MultiCluster
		kinds, clusters = models.MultiClusterKinds, len(mc.Clusters)
		m.latency, m.meanLat = func(int, int) float64 { return mc.Alpha }, mc.Alpha
		m.carry = func(q, p int, data float64) float64 { return data * m.beta(q, p) }
		for j, c := range mc.Clusters {
			ps = append(ps, c.Processors...)
			for range c.Processors {
				m.cluster = append(m.cluster, j)
			}
		}
		m.beta = func(q, p int) float64 {
			if m.cluster[q] == m.cluster[p] {
				return mc.Clusters[m.cluster[q]].Beta
			}
			return mc.Beta
		}
	}
	P := len(ps)
	m.gamma, m.exclusive = make([]float64, P), make([]bool, P)
	for p := range ps {
		m.gamma[p] = ps[p].Gamma
		m.meanGamma += ps[p].Gamma / float64(P)
		m.exclusive[p] = !overlaps(&ps[p], kinds)
	}
	pairs := 0 // ordered pairs of distinct processors with a route
	for q := range P {
		for p := range P {
			if p != q && !math.IsInf(m.latency(q, p), 1) {
				pairs++
			}
		}
	}
	for q := range P {
		for p := range P {
			if p != q && !math.IsInf(m.latency(q, p), 1) {
				m.meanBeta += m.beta(q, p) / float64(pairs)
				if m.route != nil {
					m.meanLat += m.latency(q, p) / float64(pairs)
				}
			}
		}
	}
	m.send, m.recv = P, 2*P
	if pl.Crossbar != nil && pl.Crossbar.Duplex == models.HalfDuplex {
		m.recv = m.send
	}
	m.upIn, m.clusters, m.link0 = 3*P+clusters, clusters, 3*P+2*clusters
	m.busy = make([]timeline, 3*P+2*clusters+links)
	m.proc, m.finish, m.start = make([]int, g.n), make([]float64, g.n), make([]float64, g.n)
	for v := range m.proc {
		m.proc[v] = -1
	}
	return m
}

// linkModel models transfers on a network of links as the replay runs
// them without sharing: from q to p they take the route's latency plus
// data over its smallest bandwidth, holding every link of the route. A
// pair without a route gets +Inf, so that no task is placed across it.
func (m *network) linkModel(n *models.Network) {
	routes := n.NewRoutes()
	P := len(n.Hosts)
	lat, beta, bws := make([]float64, P*P), make([]float64, P*P), make([]float64, P*P)
	route := make([][]int, P*P)
	for q := range P {
		for p := range P {
			ids, ok := routes.Route(q, p)
			k := q*P + p
			route[k] = ids
			if !ok {
				lat[k], beta[k] = math.Inf(1), math.Inf(1)
				continue
			}
			bw := math.Inf(1)
			for _, l := range ids {
				lat[k] += n.Links[l].Latency
				bw = min(bw, n.Links[l].Bandwidth)
			}
			beta[k], bws[k] = 1/bw, bw
		}
	}
	m.latency = func(q, p int) float64 { return lat[q*P+p] }
	m.beta = func(q, p int) float64 { return beta[q*P+p] }
	m.route = func(q, p int) []int { return route[q*P+p] }
	m.carry = func(q, p int, data float64) float64 { return data / bws[q*P+p] } // a/b, as the replay
}

// overlaps reports whether processor p computes at full speed whatever
// set of its platform's communication kinds is active.
func overlaps(p *models.Processor, kinds []string) bool {
	base := 1 / p.Gamma
	var active []string
	for mask := 1; mask < 1<<len(kinds); mask++ {
		active = active[:0]
		for k, kind := range kinds {
			if mask&(1<<k) != 0 {
				active = append(active, kind)
			}
		}
		if p.Rate(active) != base {
			return false
		}
	}
	return true
}

func (m *network) procs() int             { return len(m.gamma) }
func (m *network) cost(v, p int) float64  { return m.weight[v] * m.gamma[p] }
func (m *network) meanCost(v int) float64 { return m.weight[v] * m.meanGamma }

func (m *network) meanComm(data float64) float64 {
	if data == 0 || len(m.gamma) < 2 {
		return 0
	}
	return m.meanLat + data*m.meanBeta
}

// transferTime is the time data takes from processor q to processor p.
func (m *network) transferTime(q, p int, data float64) float64 {
	return m.latency(q, p) + m.carry(q, p, data)
}

// computeResources are the resources a computation on p holds: its slot,
// and its ports when it cannot compute while communicating.
func (m *network) computeResources(p int) []int {
	rs := append(m.rs[:0], p)
	if m.exclusive[p] {
		rs = appendPorts(rs, m.send+p, m.recv+p)
	}
	m.rs = rs
	return rs
}

// transferResources are the resources a transfer from q to p holds: the
// sender's send port, the receiver's receive port, the uplinks between
// two clusters (on a network of links, the links of the route instead),
// and the slot of an end that cannot compute meanwhile.
func (m *network) transferResources(q, p int) []int {
	rs := append(m.rs[:0], m.send+q, m.recv+p)
	if m.route != nil {
		rs = rs[:0]
		for _, l := range m.route(q, p) {
			rs = append(rs, m.link0+l)
		}
	}
	if cq, cp := m.cluster[q], m.cluster[p]; cq != cp {
		rs = append(rs, m.upIn-m.clusters+cq, m.upIn+cp)
	}
	if m.exclusive[q] {
		rs = append(rs, q)
	}
	if m.exclusive[p] {
		rs = append(rs, p)
	}
	m.rs = rs
	return rs
}

// appendPorts appends a send and a receive port, once if they are one.
func appendPorts(rs []int, send, recv int) []int {
	if send == recv {
		return append(rs, send)
	}
	return append(rs, send, recv)
}

// fit is the earliest t ≥ ready at which [t, t+d) is free on every
// resource of rs, the placement under evaluation's own bookings (log)
// included.
func (m *network) fit(rs []int, ready, d float64) float64 {
	t := ready
	for moved := true; moved; {
		moved = false
		if u := fitAll(m.busy, rs, t, d); u > t {
			t = u
		}
		for _, b := range m.log {
			if b.s < t+d && t < b.e || b.s == b.e && t < b.s && b.s < t+d {
				if slices.Contains(rs, b.r) {
					t, moved = b.e, true
				}
			}
		}
	}
	return t
}

// place puts v on p: first the transfers of its parents' data from other
// processors, in the order that data is ready (ties to the lower task),
// each as early as its ports allow; then v itself, as early as its
// processor allows after the last of its data. What it books is logged
// first, and booked on the timelines only if keep.
func (m *network) place(v, p int, keep bool) float64 {
	m.log = m.log[:0]
	ready := 0.0
	for _, u := range m.sortedParents(v) {
		q := m.proc[u.task]
		if q == p || u.data == 0 {
			ready = max(ready, m.finish[u.task])
			continue
		}
		d := m.transferTime(q, p, u.data)
		rs := m.transferResources(q, p)
		s := m.fit(rs, m.finish[u.task], d)
		for _, r := range rs {
			m.log = append(m.log, booking{r, s, s + d})
		}
		if keep {
			m.xfers = append(m.xfers, xfer{u: u.task, v: v, from: q, to: p, data: u.data, start: s, d: d})
		}
		ready = max(ready, s+d)
	}
	w := m.cost(v, p)
	rs := m.computeResources(p)
	s := m.fit(rs, ready, w)
	if !keep {
		return s + w
	}
	for _, b := range m.log {
		m.busy[b.r].add(b.s, b.e)
	}
	for _, r := range rs {
		m.busy[r].add(s, s+w)
	}
	m.proc[v], m.start[v], m.finish[v] = p, s, s+w
	return s + w
}

// bound is a lower bound of v's finish on p: each parent's data from
// the earliest its transfer fits the resources all of p's cluster share
// for it (the sender's port, the uplinks) and then p's receive port, as
// if nothing else were booked; then v's computation at the earliest its
// resources allow from then on. place books the same transfers and
// computation on these resources and more, so no earlier.
func (m *network) bound(v, p int) float64 {
	clusters := len(m.busy) - m.upIn
	parents := m.g.parents(v)
	if m.bounded != v+1 {
		m.bounded = v + 1
		m.shared = slices.Grow(m.shared[:0], len(parents)*clusters)[:len(parents)*clusters]
		for i := range m.shared {
			m.shared[i] = math.NaN()
		}
	}
	ready := 0.0
	for k, u := range parents {
		t := m.finish[u.task]
		if q := m.proc[u.task]; q != p && u.data > 0 {
			d := m.transferTime(q, p, u.data) // the same for every processor of p's cluster
			i := k*clusters + m.cluster[p]
			if math.IsNaN(m.shared[i]) {
				m.shared[i] = fitAll(m.busy, m.sharedResources(q, m.cluster[p]), t, d)
			}
			t = m.busy[m.recv+p].fit(m.shared[i], d) + d
		}
		ready = max(ready, t)
	}
	w := m.cost(v, p)
	return fitAll(m.busy, m.computeResources(p), ready, w) + w
}

// sharedResources are the resources a transfer from q to any processor
// of cluster c holds: the sender's send port, the uplinks between two
// clusters, and the sender's slot if it cannot compute meanwhile.
func (m *network) sharedResources(q, c int) []int {
	rs := append(m.srs[:0], m.send+q)
	if cq := m.cluster[q]; cq != c {
		clusters := len(m.busy) - m.upIn
		rs = append(rs, m.upIn-clusters+cq, m.upIn+c)
	}
	if m.exclusive[q] {
		rs = append(rs, q)
	}
	m.srs = rs
	return rs
}

// sortedParents lists v's parents by the time their data is ready, ties
// to the lower task: the order in which place books their transfers. It
// returns scratch memory, sorted once for all the processors tried.
func (m *network) sortedParents(v int) []link {
	if m.sorted == v+1 {
		return m.parents
	}
	m.sorted = v + 1
	ps := append(m.parents[:0], m.g.parents(v)...)
	slices.SortFunc(ps, func(a, b link) int {
		if fa, fb := m.finish[a.task], m.finish[b.task]; fa != fb {
			if fa < fb {
				return -1
			}
			return 1
		}
		return a.task - b.task
	})
	m.parents = ps
	return ps
}

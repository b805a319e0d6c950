package multicluster

import (
	"math"
	"slices"
)

// Moves of the search of §3.2: each changes one processor's intra-cluster
// additional load y_i^(I) by one unit and its inter-cluster one y_i^(X) by
// the move's rate. A master cluster (Ȳ_j^(I) < 0) needs more y^(I) and pays
// in outflow; a worker cluster (Ȳ_j^(I) > 0) gives up y^(I) and gains inflow.
const (
	// moveIntraToInter: a master sends out of its cluster what it sent
	// inside (§3.2.1): −dy^(X)/dy^(I) = μ^(I)/μ^(X).
	moveIntraToInter uint8 = iota
	// moveRelayOut: a worker (§3.2.2) or a master that no longer sends
	// inside (§3.2.3) takes more from inside and sends it out: ω^(I)/μ^(X).
	moveRelayOut
	// moveInByPort: a worker of a worker cluster receives from outside
	// instead of inside where its receive port binds: β_j/β.
	moveInByPort
	// moveInByWork: … where its work binds: ω^(I)/ω^(X).
	moveInByWork
	// moveRelayIn: a processor of a worker cluster receives from outside
	// and passes it on inside (the mirror of the relays of §3.2.2–3.2.3):
	// μ^(I)/ω^(X).
	moveRelayIn
)

// move is one processor's move of one kind, with its rate.
type move struct {
	proc int32 // global index
	kind uint8
	rate float64
}

// clusterSearch is the search of §3.2 for one cluster C_j: the moves of
// its processors sorted once (§3.4 (c)), and scratch space for one
// evaluation at a time.
type clusterSearch struct {
	m        *Model
	c        *Cluster
	b, beta  float64
	out, in  []move  // master-cluster moves by rate up; worker-cluster moves by rate down
	tol      float64 // loads this small are rounding: see setTol
	load     []lin   // per processor of the cluster: T/γ_i − x_i
	start    []lin   // ȳ_i^(I)
	isMaster []bool
}

// newClusterSearch lists and sorts the moves of cluster j; relays off
// leaves out moveRelayOut and moveRelayIn.
func newClusterSearch(m *Model, j int, relays bool) *clusterSearch {
	c := &m.Clusters[j]
	cs := &clusterSearch{m: m, c: c, b: c.Beta, beta: m.Beta,
		load: make([]lin, c.N), start: make([]lin, c.N), isMaster: make([]bool, c.N)}
	for i := c.First; i < c.First+c.N; i++ {
		p := &m.Procs[i]
		if p.MuX > 0 {
			cs.out = append(cs.out, move{int32(i), moveIntraToInter, p.MuI / p.MuX})
			if relays {
				cs.out = append(cs.out, move{int32(i), moveRelayOut, p.OmegaI / p.MuX})
			}
		}
		cs.in = append(cs.in, move{int32(i), moveInByPort, c.Beta / m.Beta}, move{int32(i), moveInByWork, p.OmegaI / p.OmegaX})
		if relays && p.MuI > 0 {
			cs.in = append(cs.in, move{int32(i), moveRelayIn, p.MuI / p.OmegaX})
		}
	}
	slices.SortFunc(cs.out, func(a, b move) int { return compareMoves(a, b, 1) })
	slices.SortFunc(cs.in, func(a, b move) int { return compareMoves(a, b, -1) })
	return cs
}

// setTol sets the amount of load below which a cluster's balance is
// rounding, for round times up to hi: 1e-14 of what its processors hold
// and can take, Σ x_i + hi/γ_i.
func (cs *clusterSearch) setTol(hi float64) {
	sum := 0.0
	for i := cs.c.First; i < cs.c.First+cs.c.N; i++ {
		sum += cs.m.Procs[i].X + hi*cs.m.Procs[i].Rate[0]
	}
	cs.tol = 1e-14 * sum
}

// compareMoves orders moves by rate (up for dir 1, down for −1), ties by
// processor, then kind.
func compareMoves(a, b move, dir int) int {
	switch {
	case a.rate < b.rate:
		return -dir
	case a.rate > b.rate:
		return dir
	case a.proc != b.proc:
		return int(a.proc - b.proc)
	}
	return int(a.kind) - int(b.kind)
}

// clusterValue is the outcome of the search for one cluster at one T.
type clusterValue struct {
	inflow lin  // Y_j^(X): the largest net inflow (negative: the least outflow) with Y_j^(I) = 0
	master bool // Ȳ_j^(I) < 0: it must send out of the cluster
	ok     bool // the masters' surplus fits the moves at all
}

// search runs §3.2 for the cluster at p.T: it starts every processor at
// y^(I) = ȳ^(I), y^(X) = 0 and takes moves in order of rate until
// Y_j^(I) = 0 (or, in a worker cluster, until the inflow reaches target).
// take, if not nil, receives the amount of y^(I) moved by each move, in the
// order of the cluster's list for its kind (out for a master cluster, in
// for a worker cluster).
func (cs *clusterSearch) search(p *piece, target float64, take []float64) clusterValue {
	sum := constant(0)
	for k := range cs.start {
		if !cs.setStart(p, k) {
			return clusterValue{master: true}
		}
		sum = sum.add(cs.start[k])
	}
	if p.neg(sum.plus(cs.tol)) {
		return cs.searchOut(p, sum.scale(-1), take)
	}
	if p.le(sum, constant(0)) { // balanced within rounding
		return clusterValue{ok: true}
	}
	return cs.searchIn(p, sum, target, take)
}

// setStart computes T/γ_i − x_i and ȳ_i^(I) of the cluster's k-th
// processor; false if it is a master that cannot send (μ^(I) ≤ 0).
func (cs *clusterSearch) setStart(p *piece, k int) bool {
	var ok bool
	cs.load[k], cs.start[k], cs.isMaster[k], ok = yBarIntra(p, &cs.m.Procs[cs.c.First+k], cs.b)
	return ok
}

// yBarIntra is ȳ^(I) of §3.1.3 as a function of T around p.T (see
// Model.YBarIntra) for a processor in a cluster of time per unit b, with
// T/γ − x and whether it is a master there; false for a master that cannot
// send.
func yBarIntra(p *piece, pr *Proc, b float64) (slack, ybar lin, master, ok bool) {
	slack = pr.slack()
	switch master = p.neg(slack); {
	case !master:
		return slack, p.min(slack.scale(1/pr.OmegaI), tee.scale(1/b)), false, true
	case pr.MuI > 0:
		return slack, slack.scale(1 / pr.MuI), true, true
	}
	return slack, lin{}, true, false
}

// searchOut is the master-cluster search: moves by rate up until the
// masters' surplus need is placed; the outflow is their cost.
func (cs *clusterSearch) searchOut(p *piece, need lin, take []float64) clusterValue {
	done, cost := constant(0), constant(0)
	for n, mv := range cs.out {
		l := cs.length(p, mv)
		last := p.le(need.sub(done), l)
		if last {
			l = need.sub(done)
		}
		done, cost = done.add(l), cost.axpy(mv.rate, l)
		if take != nil {
			take[n] = l.at(p.T)
		}
		if last {
			return clusterValue{inflow: cost.scale(-1), master: true, ok: true}
		}
	}
	if p.le(need.sub(done), constant(cs.tol)) { // placed within rounding
		return clusterValue{inflow: cost.scale(-1), master: true, ok: true}
	}
	return clusterValue{master: true}
}

// searchIn is the worker-cluster search: moves by rate down until the
// workers' spare intra-cluster capacity is used (or the inflow reaches
// target); the inflow is their gain.
func (cs *clusterSearch) searchIn(p *piece, spare lin, target float64, take []float64) clusterValue {
	done, gain := constant(0), constant(0)
	for n, mv := range cs.in {
		l := cs.length(p, mv)
		last := p.le(spare.sub(done), l)
		if last {
			l = spare.sub(done)
		}
		if g := gain.at(p.T); g+mv.rate*l.at(p.T) >= target {
			l, last = constant((target-g)/mv.rate), true
		}
		done, gain = done.add(l), gain.axpy(mv.rate, l)
		if take != nil {
			take[n] = l.at(p.T)
		}
		if last {
			break
		}
	}
	return clusterValue{inflow: gain, ok: true}
}

// length is how far move mv can go at p.T: the three limits of §3.2.1,
// (a) port time within T, (b) the sign of y^(I), (c) is the caller's
// Y_j^(I) = 0, and the work a processor keeps not below 0.
func (cs *clusterSearch) length(p *piece, mv move) lin {
	k := int(mv.proc) - cs.c.First
	pr, c, u0 := &cs.m.Procs[mv.proc], cs.load[k], cs.start[k]
	b, beta := cs.b, cs.beta
	master := cs.isMaster[k]
	switch mv.kind {
	case moveIntraToInter:
		if !master {
			return constant(0)
		}
		// u = u0 + d, v = −ρd: send port −bu + β|v| ≤ T, work x + u + v ≥ 0.
		return p.clamp0(p.minOf(u0.scale(-1),
			ratio(tee.axpy(b, u0), beta*mv.rate-b),
			ratio(u0.plus(pr.X), mv.rate-1)))
	case moveRelayOut:
		// From (us, vs), where the work is tight: u = us + d, v = vs − ρd.
		us, vs := u0, constant(0)
		if master {
			us, vs = constant(0), c.scale(1/pr.MuX)
		}
		return p.clamp0(p.minOf(tee.scale(1/b).sub(us),
			tee.scale(1/beta).add(vs).scale(1/mv.rate),
			ratio(us.add(vs).plus(pr.X), mv.rate-1)))
	case moveInByPort, moveInByWork:
		if master {
			return constant(0)
		}
		byWork := cs.byWork(p, pr, c, u0)
		if mv.kind == moveInByWork {
			return byWork
		}
		return u0.sub(byWork)
	}
	// moveRelayIn, from (ur, vr) where the work is tight: u = ur − d,
	// v = vr + ρd: receive port βv ≤ T, send port b|u| ≤ T.
	ur, vr := u0, constant(0)
	if !master {
		ur, vr = constant(0), c.scale(1/pr.OmegaX)
	}
	return p.clamp0(p.minOf(tee.scale(1/beta).sub(vr).scale(1/mv.rate),
		tee.scale(1/b).add(ur),
		ratio(ur.add(vr).plus(pr.X), 1-mv.rate)))
}

// byWork splits a worker's intra-cluster capacity u0 of a worker cluster
// between moveInByWork and moveInByPort: giving up d of y^(I) lets it take
// v(d) = min((c − ω^(I)(u0−d))/ω^(X), (T − b(u0−d))/β) from outside, the
// smaller of a work line of slope ω^(I)/ω^(X) and a port line of slope
// b/β, one of which is 0 at d = 0. The part on the work line is
// (v(u0) − (b/β)u0)/(ω^(I)/ω^(X) − b/β).
func (cs *clusterSearch) byWork(p *piece, pr *Proc, c, u0 lin) lin {
	rw, rp := pr.OmegaI/pr.OmegaX, cs.b/cs.beta
	if rw == rp {
		return u0
	}
	vEnd := p.min(c.scale(1/pr.OmegaX), tee.scale(1/cs.beta))
	return p.clamp(vEnd.sub(u0.scale(rp)).scale(1/(rw-rp)), u0)
}

// ratio is f/k as a limit, unbounded if k ≤ 0 (the limit never binds).
func ratio(f lin, k float64) lin {
	if !(k > 0) {
		return unbounded
	}
	return f.scale(1 / k)
}

// allocate runs the search with take and turns the moves taken into
// y_i^(I) and y_i^(X) of the cluster's processors (written into u and v,
// indexed globally). In a worker cluster the inflow is target, and the
// spare intra-cluster capacity left is taken off the receivers evenly.
func (cs *clusterSearch) allocate(T, target float64, u, v []float64) clusterValue {
	p := newPiece(T)
	take := make([]float64, max(len(cs.out), len(cs.in)))
	val := cs.search(&p, target, take)
	if !val.ok {
		return val
	}
	moves, sign := cs.in, -1.0
	if val.master {
		moves, sign = cs.out, 1
	}
	first := cs.c.First
	for k := range cs.start {
		u[first+k], v[first+k] = cs.start[k].at(T), 0
	}
	for n, mv := range moves {
		u[mv.proc] += sign * take[n]
		v[mv.proc] -= sign * mv.rate * take[n]
	}
	for i := first; i < first+cs.c.N; i++ { // rounding dust of the moves
		if math.Abs(u[i]) <= cs.tol {
			u[i] = 0
		}
		if math.Abs(v[i]) <= cs.tol {
			v[i] = 0
		}
	}
	if !val.master {
		cs.trimReceivers(u[first : first+cs.c.N])
	}
	return val
}

// trimReceivers scales the positive y^(I) down so that they sum to what
// the negative ones send.
func (cs *clusterSearch) trimReceivers(u []float64) {
	send, recv := 0.0, 0.0
	for _, x := range u {
		if x < 0 {
			send -= x
		} else {
			recv += x
		}
	}
	if recv <= send {
		return
	}
	scale := send / recv
	for k := range u {
		if u[k] > 0 {
			u[k] *= scale
		}
	}
}

// inf is the target of a search for the largest inflow.
var inf = math.Inf(1)

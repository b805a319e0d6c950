package multicluster

import (
	"fmt"
	"math"
)

// Round is the optimal steady-state round of §3 for R = 1 and α = 0.
type Round struct {
	T  float64   // the minimum round time
	TL float64   // T_L = max{T_j, t_i} (§3.3; the paper prints min, see the errata)
	TP float64   // max_i t_i (§3.1), t_i without its inter-cluster term (equal under the assumptions: see startTime)
	TJ []float64 // T_j: when cluster j's least outflow fills its uplink, −Y_j^(X)β = T (TP if it never binds)
	// Intra and Inter are y_i^(I) and y_i^(X) of every processor: the net
	// load it receives (> 0) or sends (< 0) inside its cluster and across
	// clusters in a round.
	Intra, Inter []float64
	// ClusterInter is Y_j^(X) of every cluster: its net inflow.
	ClusterInter []float64
	Relays       bool // relays were allowed (§3.2.2–3.2.3)
}

// roundSearch evaluates Ȳ(T) and the cluster bounds for RoundTime.
type roundSearch struct {
	m        *Model
	clusters []*clusterSearch
}

// RoundTime computes the minimum round time T of §3.3 by the method of
// §3.4, and the additional loads that achieve it.
//
// Given T, each cluster's search (§3.2) gives its largest net inflow
// Y_j^(X)(T) with Y_j^(I) = 0: negative for a master cluster, whose outflow
// must fit its uplink, −Y_j^(X)β ≤ T; for a worker cluster the inflow it can
// take is Ȳ_j = min{Ȳ_j^(X), T/β}. T is the least round time at least
// T_L = max{T_j, t_i} with Ȳ(T) = Σ_j Ȳ_j ≥ 0.
//
// Every quantity is piecewise linear in T. The search is evaluated with
// linear forms (lin), so an evaluation at T gives Ȳ as the linear function
// it is around T and the interval on which it stays that function (the
// nearest breakpoints: where a processor or cluster changes between master
// and worker, or a move's binding limit or the cut of a search changes,
// §3.4). A bisection on T jumps from piece to piece and ends on the piece
// holding the root, which it solves exactly: each evaluation is O(P) (the
// moves are sorted once, O(P log P)); each step halves the bracket or
// moves past a piece, about 20 steps for P = 10⁵. T_j is found the same
// way per cluster. (The paper enumerates and sorts the breakpoints and
// bisects over them in two stages; an evaluation here reports the
// breakpoints around its T instead, which needs no enumeration of the
// second stage's.)
//
// With relays false, no processor relays (§3.1's no-relay analysis with the
// moves of §3.2.1 only): the multicluster-norelay policy.
func RoundTime(m *Model, relays bool) (*Round, error) {
	n := len(m.Procs)
	r := &Round{Intra: make([]float64, n), Inter: make([]float64, n),
		ClusterInter: make([]float64, len(m.Clusters)), TJ: make([]float64, len(m.Clusters)), Relays: relays}
	own := 0.0
	for i := range m.Procs {
		r.TP = max(r.TP, m.startTime(i))
		own = max(own, m.Procs[i].X*m.Procs[i].Gamma)
	}
	if own == 0 {
		return r, nil
	}
	rs := &roundSearch{m: m}
	for j := range m.Clusters {
		rs.clusters = append(rs.clusters, newClusterSearch(m, j, relays))
	}
	hi := max(own, r.TP) // everyone is self-sufficient there
	for _, cs := range rs.clusters {
		cs.setTol(hi)
	}
	r.TL = r.TP
	for j := range m.Clusters {
		r.TJ[j] = firstGood(r.TP, hi, rs.uplinkBound(j))
		r.TL = max(r.TL, r.TJ[j])
	}
	r.T = firstGood(r.TL, hi, rs.yBar)
	if err := rs.allocate(r); err != nil {
		return nil, err
	}
	return r, nil
}

// uplinkBound is the bound of T_j: cluster j's least outflow fits its
// uplink, Y_j^(X) + T/β ≥ 0 (always, for a worker cluster).
func (rs *roundSearch) uplinkBound(j int) evalFunc {
	return func(p *piece) (lin, bool) {
		v := rs.clusters[j].search(p, inf, nil)
		if !v.ok {
			return lin{}, false
		}
		up := tee.scale(1 / rs.m.Beta)
		if v.master {
			return v.inflow.add(up), true
		}
		return up, true
	}
}

// yBar is Ȳ(T) = Σ_j Ȳ_j (§3.3).
func (rs *roundSearch) yBar(p *piece) (lin, bool) {
	sum := constant(0)
	for _, cs := range rs.clusters {
		v := cs.search(p, inf, nil)
		if !v.ok {
			return lin{}, false
		}
		if !v.master {
			v.inflow = p.min(v.inflow, tee.scale(1/rs.m.Beta))
		}
		sum = sum.add(v.inflow)
	}
	return sum, true
}

// allocate sets the additional loads at r.T: master clusters send their
// least outflow; worker clusters take it in proportion to their Ȳ_j.
func (rs *roundSearch) allocate(r *Round) error {
	out, room := 0.0, 0.0
	ybar := make([]float64, len(rs.clusters))
	for j, cs := range rs.clusters {
		p := newPiece(r.T)
		v := cs.search(&p, inf, nil)
		if !v.ok {
			return fmt.Errorf("cluster %d cannot place its masters' load in T = %g (a bug: T ≥ T_L)", j, r.T)
		}
		ybar[j] = v.inflow.at(r.T)
		if v.master {
			out -= ybar[j]
			continue
		}
		ybar[j] = min(ybar[j], r.T/rs.m.Beta)
		room += ybar[j]
	}
	if out > room*(1+1e-9)+1e-12*r.T/rs.m.Beta {
		return fmt.Errorf("the worker clusters take %g of the %g the master clusters send at T = %g (a bug)", room, out, r.T)
	}
	share := 0.0
	if room > 0 {
		share = min(1, out/room)
	}
	for j, cs := range rs.clusters {
		target := inf
		if ybar[j] >= 0 {
			target = ybar[j] * share
		}
		cs.allocate(r.T, target, r.Intra, r.Inter)
		for i := cs.c.First; i < cs.c.First+cs.c.N; i++ {
			r.ClusterInter[j] += r.Inter[i]
		}
	}
	return nil
}

// evalFunc evaluates a monotone non-decreasing, piecewise-linear function
// at p.T: its value as the linear function it is on p's interval, and
// false where it is infeasible (which p's interval also bounds).
type evalFunc func(p *piece) (lin, bool)

// maxSteps bounds the bisection; each step at least halves the bracket or
// jumps past a piece, so floating point ends it well before.
const maxSteps = 400

// firstGood is the least T in [lo, hi] at which f is feasible and ≥ 0,
// given that it is at hi. It bisects, but each evaluation also tells the
// piece around its T: a piece wholly below 0 moves the lower end past it,
// one wholly above moves the upper end to its start, and the piece that
// holds the root gives it exactly. A breakpoint computed from a linear
// form can be an ulp off the one the evaluation at it sees; the answer is
// moved up the few ulps it takes to be feasible there.
func firstGood(lo, hi float64, f evalFunc) float64 {
	T := bracket(lo, hi, f)
	for k := 0; k < 64 && T < hi; k++ {
		p := newPiece(T)
		if _, ok := f(&p); ok {
			return T
		}
		T = math.Nextafter(T, hi)
	}
	return T
}

// bracket does firstGood's search.
func bracket(lo, hi float64, f evalFunc) float64 {
	bad, good := math.Inf(-1), hi
	T := lo
	for range maxSteps {
		p := newPiece(T)
		v, ok := f(&p)
		if ok && v.at(T) >= 0 {
			if T <= lo {
				return lo
			}
			good = T
			if r, in := v.root(); in && r >= max(p.lo, bad) && r <= T {
				return max(r, lo)
			}
			if p.lo > bad && p.lo < good {
				good = p.lo // the line is ≥ 0 on all of the piece
			}
		} else {
			bad = T
			if r, in := v.root(); ok && in && r >= T && r <= min(p.hi, good) {
				return r
			}
			if p.hi < good && p.hi > bad {
				bad = p.hi // still < 0 (or infeasible) up to the piece's end
			}
		}
		if good-bad <= 1e-15*good {
			return good
		}
		T = bad + (good-bad)/2
	}
	return good
}

// root is where f is 0, if it rises.
func (f lin) root() (float64, bool) {
	if !(f.a > 0) {
		return 0, false
	}
	return -f.b / f.a, true
}

package baseline

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// loadPlatform is what the divisible-load baselines need of a crossbar
// (paper 000 §2.2) or a multi-cluster (paper 001 §2): the processors in
// global order, how long a transfer takes and which resources it holds.
type loadPlatform struct {
	procs   []models.Processor
	cluster []int // cluster of each processor; nil on a crossbar
	cross   *models.Crossbar
	multi   *models.MultiCluster
}

func newLoadPlatform(ctx context.Context, name string, in policies.Instance) (*loadPlatform, error) {
	if err := ctx.Err(); err != nil { // the registry admitted the instance
		return nil, err
	}
	if c := in.Platform.Crossbar; c != nil {
		return &loadPlatform{procs: c.Processors, cross: c}, nil
	}
	m := in.Platform.MultiCluster
	lp := &loadPlatform{multi: m}
	for j, c := range m.Clusters {
		for _, p := range c.Processors {
			lp.procs = append(lp.procs, p)
			lp.cluster = append(lp.cluster, j)
		}
	}
	return lp, nil
}

// resource is one exclusive communication resource: a half-duplex port, a
// port's send or receive side, or a cluster's outgoing or incoming uplink.
type resource struct {
	kind resourceKind
	id   int
}

type resourceKind int

const (
	port resourceKind = iota
	sendPort
	recvPort
	uplinkOut
	uplinkIn
)

// holds lists the resources a transfer from processor i to j occupies.
func (lp *loadPlatform) holds(i, j int) []resource {
	if lp.cross != nil && lp.cross.Duplex == models.HalfDuplex {
		return []resource{{port, i}, {port, j}}
	}
	rs := []resource{{sendPort, i}, {recvPort, j}}
	if lp.multi != nil && lp.cluster[i] != lp.cluster[j] {
		rs = append(rs, resource{uplinkOut, lp.cluster[i]}, resource{uplinkIn, lp.cluster[j]})
	}
	return rs
}

// transferTime is α + aβ, with β of the crossbar, of the cluster for an
// intra-cluster transfer, or of the inter-cluster network.
func (lp *loadPlatform) transferTime(i, j int, a float64) float64 {
	if lp.cross != nil {
		return lp.cross.Alpha + a*lp.cross.Beta
	}
	beta := lp.multi.Beta
	if lp.cluster[i] == lp.cluster[j] {
		beta = lp.multi.Clusters[lp.cluster[i]].Beta
	}
	return lp.multi.Alpha + a*beta
}

// computeTime is how long processor i takes for a units with no
// communication active: a / (1/γ_i).
func (lp *loadPlatform) computeTime(i int, a float64) float64 {
	return a / lp.procs[i].Rate(nil)
}

// planNoRedistribution: every processor computes the load x_i it holds,
// from time 0; the claim is max x_i γ_i. Results stay where they are
// computed, so collecting them costs nothing.
func planNoRedistribution(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	lp, err := newLoadPlatform(ctx, "no-redistribution", in)
	if err != nil {
		return nil, err
	}
	s := sim.Recycled(in.Recycle, len(lp.procs))
	s.Policy = "no-redistribution"
	for i, p := range lp.procs {
		if p.Load > 0 {
			s.Add(sim.Action{Kind: sim.Compute, Node: i, Amount: p.Load, Start: s.Time(0)})
			s.Claimed = max(s.Claimed, lp.computeTime(i, p.Load))
		}
	}
	return s, nil
}

// move is one transfer of load from a surplus to a deficit processor.
type move struct {
	from, to int
	amount   float64
}

// proportionalMoves gives every processor the share W·(1/γ_i)/Σ_k(1/γ_k)
// of the total load W: surplus processors, in index order, fill deficit
// processors, in index order, greedily.
func (lp *loadPlatform) proportionalMoves() []move {
	var total, speeds float64
	for _, p := range lp.procs {
		total += p.Load
		speeds += 1 / p.Gamma
	}
	eps := 1e-12 * total
	var surplus, deficit []move // from/to filled, amount is the remainder
	for i, p := range lp.procs {
		switch d := p.Load - total*(1/p.Gamma)/speeds; {
		case d > eps:
			surplus = append(surplus, move{from: i, amount: d})
		case -d > eps:
			deficit = append(deficit, move{to: i, amount: -d})
		}
	}
	var moves []move
	for len(surplus) > 0 && len(deficit) > 0 {
		s, d := &surplus[0], &deficit[0]
		a := min(s.amount, d.amount)
		moves = append(moves, move{from: s.from, to: d.to, amount: a})
		s.amount -= a
		d.amount -= a
		if s.amount <= eps {
			surplus = surplus[1:]
		}
		if d.amount <= eps {
			deficit = deficit[1:]
		}
	}
	return moves
}

// portCalendar books transfers in list order, each as soon as every
// resource it holds is free.
type portCalendar map[resource]float64

// book returns the start of a transfer holding rs for duration d.
func (c portCalendar) book(rs []resource, earliest, d float64) float64 {
	start := earliest
	for _, r := range rs {
		start = max(start, c[r])
	}
	for _, r := range rs {
		c[r] = start + d
	}
	return start
}

// planDirect moves load so that every processor's share is proportional to
// its speed (proportionalMoves), each transfer starting as soon as the ports
// (and, between clusters, the uplinks) it holds are free, in list order.
// A processor computes its final share after its last transfer, so it never
// computes while communicating and the claim holds whatever its overlap
// rates. With collect_results, each received chunk's results (result_size
// per unit) go back to their origin once both ends have finished computing.
func planDirect(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	lp, err := newLoadPlatform(ctx, "direct", in)
	if err != nil {
		return nil, err
	}
	s := sim.Recycled(in.Recycle, 0)
	s.Policy, s.Metrics = "direct", map[string]float64{}
	n := len(lp.procs)
	keep := make([]float64, n)
	for i, p := range lp.procs {
		keep[i] = p.Load
	}
	cal := portCalendar{}
	commEnd := make([]float64, n)
	comms := make([][]int, n) // transfer actions of each processor
	moves := lp.proportionalMoves()
	for _, m := range moves {
		d := lp.transferTime(m.from, m.to, m.amount)
		start := cal.book(lp.holds(m.from, m.to), 0, d)
		k := s.Add(sim.Action{Kind: sim.Transfer, From: m.from, To: m.to, Amount: m.amount, Start: s.Time(start), Label: "load"})
		for _, i := range []int{m.from, m.to} {
			comms[i] = append(comms[i], k)
			commEnd[i] = max(commEnd[i], start+d)
		}
		keep[m.from] -= m.amount
		keep[m.to] += m.amount
		s.Metrics["moved"] += m.amount
	}
	computeAction := make([]int, n)
	computeEnd := make([]float64, n)
	for i := range lp.procs {
		computeAction[i], computeEnd[i] = -1, commEnd[i]
		if keep[i] > 0 {
			computeEnd[i] = commEnd[i] + lp.computeTime(i, keep[i])
			computeAction[i] = s.Add(sim.Action{Kind: sim.Compute, Node: i, Amount: keep[i],
				Start: s.Time(commEnd[i]), After: comms[i]})
		}
		s.Claimed = max(s.Claimed, computeEnd[i])
	}
	if div := in.Problem.Divisible; div.CollectResults && div.ResultSize > 0 {
		for _, m := range moves {
			a := m.amount * div.ResultSize
			d := lp.transferTime(m.to, m.from, a)
			start := cal.book(lp.holds(m.to, m.from), max(computeEnd[m.to], computeEnd[m.from]), d)
			s.Add(sim.Action{Kind: sim.Transfer, From: m.to, To: m.from, Amount: a, Start: s.Time(start),
				After: validIndices(computeAction[m.to], computeAction[m.from]), Label: check.ResultsLabel})
			s.Claimed = max(s.Claimed, start+d)
		}
	}
	s.Metrics["transfers"] = float64(len(moves))
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("direct: %w", err)
	}
	return s, nil
}

// validIndices drops the -1s from a list of action indices.
func validIndices(ks ...int) []int {
	var out []int
	for _, k := range ks {
		if k >= 0 {
			out = append(out, k)
		}
	}
	return out
}

package divisiblelp

import (
	"context"
	"errors"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/multicluster"
	"github.com/netsched/netsched/policies/optround"
	"github.com/netsched/netsched/sim"
)

// maxTried is the most clusters that mix sending and receiving across
// clusters in the optimum whose roles are tried both ways (2^maxTried
// programs); beyond, they take the role of their net flow.
const maxTried = 3

// planMultiCluster lays out the best round paper 001's layout can place
// (see the package doc), expands it and lets its slots overlap.
func planMultiCluster(ctx context.Context, in policies.Instance, maxRounds int) (*sim.Schedule, error) {
	m, err := multicluster.NewModel(in.Platform, in.Problem)
	if err != nil {
		return nil, err
	}
	if d := in.Problem.Divisible; d.CollectResults && d.ResultSize > 0 {
		return nil, &models.FieldError{Path: "problem.divisible.collect_results",
			Msg: "divisible-lp does not collect results on a multicluster platform (the multi-cluster round expansion has no result phase)"}
	}
	rc := roundChooser{ctx: ctx, pl: in.Platform, m: m}
	bound, err := optround.MultiCluster(ctx, in.Platform, nil)
	if err != nil {
		return nil, err
	}
	e, err := rc.best(bound)
	if err != nil {
		return nil, err
	}
	R, err := rounds(in.Problem, maxRounds, func(n int) (int, error) { return e.BestRounds(n), nil })
	if err != nil {
		return nil, err
	}
	s, err := e.Schedule(ctx, R)
	if err != nil {
		return nil, err
	}
	s.Metrics = map[string]float64{
		"T":                   e.Round.T,
		"lp_bound":            bound.T,
		"R":                   float64(R),
		"transfers_per_round": float64(len(e.Transfers)),
		"slots":               float64(e.NumSlots(R)),
		"alpha_round":         e.AlphaRound(),
		"paper_makespan":      e.PaperMakespan(R),
		"programs_solved":     float64(rc.solved),
	}
	s.Warnings = ruleWarnings(in.Platform, allProcessors(in.Platform.MultiCluster))
	if e.Round.T > bound.T*(1+1e-9) {
		s.Warnings = append(s.Warnings, fmt.Sprintf("the optimal round (T = %.9g, metric lp_bound) has a cluster both sending and receiving "+
			"across clusters, which paper 001's round layout (§4) cannot place; T = %.9g is the best round found where every cluster "+
			"only sends or only receives across clusters", bound.T, e.Round.T))
	}
	return s, multicluster.Compact(ctx, in.Platform, s)
}

// allProcessors lists the processors of every cluster in index order.
func allProcessors(mc *models.MultiCluster) []models.Processor {
	var out []models.Processor
	for _, c := range mc.Clusters {
		out = append(out, c.Processors...)
	}
	return out
}

// roundChooser finds the best round with placeable roles.
type roundChooser struct {
	ctx    context.Context
	pl     *models.Platform
	m      *multicluster.Model
	solved int
}

// best is the expansion of the optimum if every cluster only sends or
// only receives across clusters in it, and otherwise of the best round
// found with roles fixed: the optimum's mixing clusters tried both ways
// (up to maxTried of them), each refined by refine.
func (rc *roundChooser) best(opt *optround.MultiClusterRound) (*multicluster.Expansion, error) {
	roles, mixed := rc.roles(opt)
	if len(mixed) == 0 {
		return rc.expand(opt)
	}
	tried := mixed[:min(len(mixed), maxTried)]
	var best *multicluster.Expansion
	var errs []error
	for pick := range 1 << len(tried) {
		rs := append([]optround.Role(nil), roles...)
		for k, j := range tried {
			rs[j] = optround.Sends
			if pick&(1<<k) != 0 {
				rs[j] = optround.Receives
			}
		}
		e, err := rc.refine(rs)
		switch {
		case err != nil:
			errs = append(errs, err)
		case best == nil || e.Round.T < best.Round.T:
			best = e
		}
	}
	if best == nil {
		return nil, errors.Join(errs...)
	}
	return best, nil
}

// refine solves with roles, and while some cluster still mixes in the
// result, fixes its role by its net flow and solves again (at most once
// per cluster).
func (rc *roundChooser) refine(roles []optround.Role) (*multicluster.Expansion, error) {
	for {
		r, err := optround.MultiCluster(rc.ctx, rc.pl, roles)
		rc.solved++
		if err != nil {
			return nil, err
		}
		netRoles, mixed := rc.roles(r)
		if len(mixed) == 0 {
			return rc.expand(r)
		}
		for _, j := range mixed {
			roles[j] = netRoles[j]
		}
	}
}

// roles gives each cluster of round r the role of its net flow across
// clusters (Any when it has none), and lists the clusters that both send
// and receive across clusters.
func (rc *roundChooser) roles(r *optround.MultiClusterRound) (roles []optround.Role, mixed []int) {
	rc.clean(r)
	roles = make([]optround.Role, len(rc.m.Clusters))
	for j, c := range rc.m.Clusters {
		out, in := 0.0, 0.0
		for i := c.First; i < c.First+c.N; i++ {
			out, in = out+max(0, -r.Inter[i]), in+max(0, r.Inter[i])
		}
		switch {
		case out > 0 && in > 0:
			mixed = append(mixed, j)
			fallthrough
		case out != in:
			roles[j] = optround.Sends
			if in > out {
				roles[j] = optround.Receives
			}
		}
	}
	return roles, mixed
}

// clean zeroes the rounding dust of r's net loads.
func (rc *roundChooser) clean(r *optround.MultiClusterRound) {
	tol := dustTol * totalLoad(allProcessors(rc.pl.MultiCluster))
	clean(r.Intra, tol)
	clean(r.Inter, tol)
}

// expand lays out round r (every cluster only sending or only receiving
// across clusters), its flows balanced, and prepares its expansion.
func (rc *roundChooser) expand(r *optround.MultiClusterRound) (*multicluster.Expansion, error) {
	m := rc.m
	round := &multicluster.Round{T: r.T, Intra: r.Intra, Inter: r.Inter, ClusterInter: make([]float64, len(m.Clusters)), Relays: true}
	for _, c := range m.Clusters {
		balance(r.Intra[c.First : c.First+c.N])
	}
	balance(r.Inter)
	for i := range m.Procs {
		round.ClusterInter[m.Procs[i].Cluster] += r.Inter[i]
	}
	trs, _, err := multicluster.RoundLayout(m, round)
	if err != nil {
		return nil, fmt.Errorf("laying out the round of T = %g: %w", r.T, err)
	}
	return multicluster.NewExpansion(m, round, trs)
}

// balance scales the positive entries of y so that they add up to minus
// the negative ones: what is received is what is sent, to the last bit
// the LP's tolerance leaves.
func balance(y []float64) {
	out, in := 0.0, 0.0
	for _, v := range y {
		out, in = out+max(0, -v), in+max(0, v)
	}
	if in == 0 {
		return
	}
	for i, v := range y {
		if v > 0 {
			y[i] = v * out / in
		}
	}
}

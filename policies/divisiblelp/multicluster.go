package divisiblelp

import (
	"context"
	"fmt"
	"strings"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/multicluster"
	"github.com/netsched/netsched/policies/optround"
	"github.com/netsched/netsched/sim"
)

// planMultiCluster lays out the optimal round (see the package doc),
// expands it and lets its slots overlap.
func planMultiCluster(ctx context.Context, in policies.Instance, maxRounds int) (*sim.Schedule, error) {
	m, err := multicluster.NewModel(in.Platform, in.Problem)
	if err != nil {
		return nil, err
	}
	if d := in.Problem.Divisible; d.CollectResults && d.ResultSize > 0 {
		return nil, &models.FieldError{Path: "problem.divisible.collect_results",
			Msg: "divisible-lp does not collect results on a multicluster platform (the multi-cluster round expansion has no result phase)"}
	}
	opt, err := optround.MultiCluster(ctx, in.Platform, nil)
	if err != nil {
		return nil, err
	}
	tol := dustTol * totalLoad(allProcessors(in.Platform.MultiCluster))
	clean(opt.Intra, tol)
	clean(opt.Inter, tol)
	mixed := mixedClusters(m, opt)
	var e *multicluster.Expansion
	if mixed == 0 {
		e, err = expandPaper(m, opt)
	} else {
		e, err = expandMixed(m, opt, tol)
	}
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
		"lp_bound":            opt.T,
		"mixed_clusters":      float64(mixed),
		"R":                   float64(R),
		"transfers_per_round": float64(len(e.Transfers)),
		"slots":               float64(e.NumSlots(R)),
		"alpha_round":         e.AlphaRound(),
		"paper_makespan":      e.PaperMakespan(R),
	}
	s.Warnings = ruleWarnings(in.Platform, allProcessors(in.Platform.MultiCluster))
	if w := floorWarning(in.Platform, m, opt); w != "" {
		s.Warnings = append(s.Warnings, w)
	}
	return s, multicluster.Compact(ctx, in.Platform, s)
}

// floorWarning names the processors of round r that send and receive in
// ways whose rate losses add up to more than their rate: the platform
// floors their rate at 0 while both run, above the linear rate the
// program assumes, so T is achieved but a lower one may exist.
func floorWarning(pl *models.Platform, m *multicluster.Model, r *optround.MultiClusterRound) string {
	var names []string
	for i, a := range r.Amounts {
		rate := m.Procs[i].Rate
		floored := false
		for _, snd := range [][2]int{{optround.SendIntra, 1}, {optround.SendInter, 4}} { // amount, kind bit
			for _, rcv := range [][2]int{{optround.RecvIntra, 2}, {optround.RecvInter, 8}} {
				floored = floored || a[snd[0]] > 0 && a[rcv[0]] > 0 && rate[snd[1]]+rate[rcv[1]] < rate[0]
			}
		}
		if floored {
			names = append(names, pl.NodeName(i))
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	return fmt.Sprintf("%s send and receive in the optimal round in ways whose rate losses add up to more than their rate: "+
		"the platform floors their rate at 0, above the linear rate the program assumes, so T is achieved but a lower one may exist",
		strings.Join(names, ", "))
}

// allProcessors lists the processors of every cluster in index order.
func allProcessors(mc *models.MultiCluster) []models.Processor {
	var out []models.Processor
	for _, c := range mc.Clusters {
		out = append(out, c.Processors...)
	}
	return out
}

// mixedClusters counts the clusters of round r that both send and
// receive across clusters.
func mixedClusters(m *multicluster.Model, r *optround.MultiClusterRound) int {
	n := 0
	for _, c := range m.Clusters {
		out, in := false, false
		for i := c.First; i < c.First+c.N; i++ {
			out, in = out || r.Inter[i] < 0, in || r.Inter[i] > 0
		}
		if out && in {
			n++
		}
	}
	return n
}

// expandPaper lays out round r, in which every cluster only sends or
// only receives across clusters, by paper 001's layout (§4), its flows
// balanced, and prepares its expansion.
func expandPaper(m *multicluster.Model, r *optround.MultiClusterRound) (*multicluster.Expansion, error) {
	round := &multicluster.Round{T: r.T, Intra: r.Intra, Inter: r.Inter, ClusterInter: make([]float64, len(m.Clusters)), Relays: true}
	for _, c := range m.Clusters {
		optround.Balance(r.Intra[c.First : c.First+c.N])
	}
	optround.Balance(r.Inter)
	for i := range m.Procs {
		round.ClusterInter[m.Procs[i].Cluster] += r.Inter[i]
	}
	trs, _, err := multicluster.RoundLayout(m, round)
	if err != nil {
		return nil, fmt.Errorf("laying out the round of T = %g: %w", r.T, err)
	}
	return multicluster.NewExpansion(m, round, trs)
}

// expandMixed lays out round r, in which some cluster both sends and
// receives across clusters, by layoutMixed, and prepares its expansion.
func expandMixed(m *multicluster.Model, r *optround.MultiClusterRound, dust float64) (*multicluster.Expansion, error) {
	trs, err := layoutMixed(m, r, dust)
	if err != nil {
		return nil, fmt.Errorf("laying out the round of T = %g: %w", r.T, err)
	}
	round := &multicluster.Round{T: r.T, Intra: r.Intra, Inter: r.Inter, ClusterInter: make([]float64, len(m.Clusters)), Relays: true}
	for i := range m.Procs {
		round.ClusterInter[m.Procs[i].Cluster] += r.Inter[i]
	}
	return multicluster.NewExpansion(m, round, trs)
}

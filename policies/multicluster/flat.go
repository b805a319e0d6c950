package multicluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// flatPlanner is the mmdl-flat policy: what a user without paper 001's
// model would do. It plans with paper 000's mmdl (package mmdl) on
// FlatView, the whole system as one crossbar at the inter-cluster β, and
// then times that plan on the real multi-cluster: an ordered replay
// (replay.Replay, Ordered) starts every action as soon as its predecessors
// and the ports and uplinks it needs allow, in the plan's order, and its
// starts and ends become the schedule's planned times and its makespan the
// claim. Intra-cluster transfers are faster than planned; inter-cluster
// ones wait for their clusters' uplinks. Like mmdl, it times with the
// consistent-degradation rule's rates; explicit combined rates that break
// the rule show as a miss in the replay (mmdl warns). (This package imports
// policies/mmdl, so mmdl is registered.)
type flatPlanner struct{}

// Plan plans with mmdl on FlatView and times the plan on the platform.
func (flatPlanner) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	const name = "mmdl-flat"
	flat, err := FlatView(in.Platform)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	entry, ok := policies.Lookup("mmdl")
	if !ok {
		return nil, fmt.Errorf("%s: policy mmdl is not registered", name)
	}
	s, err := entry.Planner.Plan(ctx, policies.Instance{Platform: flat, Problem: in.Problem, Options: in.Options, Seed: in.Seed})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	flatClaim := s.Claimed
	res, err := runInOrder(ctx, in.Platform, s)
	if err != nil {
		return nil, fmt.Errorf("%s: timing the plan on the multi-cluster: %w", name, err)
	}
	setTimes(s, res)
	s.Policy = name
	for i := range in.Platform.NumNodes() {
		c, k, _ := in.Platform.MultiCluster.Locate(i)
		p := in.Platform.MultiCluster.Clusters[c].Processors[k] // a copy: ConsistentlyDegrading swaps Combined while it looks
		if !p.ConsistentlyDegrading() {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: combined rates are not consistent degradation; "+
				"the plan assumes the rule's rates, and the replay shows how far it misses its claim", in.Platform.NodeName(i)))
		}
	}
	if s.Metrics == nil {
		s.Metrics = map[string]float64{}
	}
	s.Metrics["flat_claimed"] = flatClaim
	s.Metrics["flat_beta"] = flat.Crossbar.Beta
	return s, nil
}

// runInOrder replays s in Ordered mode on pl with the consistent-
// degradation rule's rates (explicit combined rates left out, as the
// plans assume: where they differ, the replay on pl itself shows the
// miss): every action as soon as its predecessors and resources allow, in
// the schedule's order on each resource. It fails if the order deadlocks.
func runInOrder(ctx context.Context, pl *models.Platform, s *sim.Schedule) (*sim.Result, error) {
	res, err := replay.Replay(ctx, ruleRates(pl), s, sim.Ordered)
	if err != nil {
		return nil, err
	}
	if len(res.Violations) > 0 {
		return nil, errors.New(res.Violations[0].String())
	}
	for j := range s.Actions {
		if math.IsInf(res.Ends[j], 1) {
			return nil, fmt.Errorf("action %d never ends", j)
		}
	}
	return res, nil
}

// ruleRates is pl without explicit combined rates (pl itself if it has
// none).
func ruleRates(pl *models.Platform) *models.Platform {
	mc := pl.MultiCluster
	has := false
	for _, c := range mc.Clusters {
		for _, p := range c.Processors {
			has = has || len(p.Combined) > 0
		}
	}
	if !has {
		return pl
	}
	cp := *mc
	cp.Clusters = make([]models.Cluster, len(mc.Clusters))
	for j, c := range mc.Clusters {
		cp.Clusters[j] = c
		cp.Clusters[j].Processors = make([]models.Processor, len(c.Processors))
		for k, p := range c.Processors {
			p.Combined = nil
			cp.Clusters[j].Processors[k] = p
		}
	}
	return &models.Platform{MultiCluster: &cp}
}

// setTimes makes the times of an ordered replay the schedule's plan, and
// its makespan the claim.
func setTimes(s *sim.Schedule, res *sim.Result) {
	for j := range s.Actions {
		s.Actions[j].Start, s.Actions[j].End = s.Time(res.Starts[j]), s.Time(res.Ends[j])
	}
	s.Claimed = res.Makespan
}

// FlatView is the multi-cluster seen as one crossbar (paper 000's
// platform) at the slow network's speed: β is the largest of β and the
// β_j, every processor keeps its index, γ and load, and its rates while
// sending and receiving are those of inter-cluster traffic; ports are full
// duplex, as on the multi-cluster.
func FlatView(pl *models.Platform) (*models.Platform, error) {
	mc := pl.MultiCluster
	if mc == nil {
		return nil, &models.FieldError{Path: "platform", Msg: fmt.Sprintf("needs a multicluster platform, not %q", pl.Kind())}
	}
	cb := &models.Crossbar{Beta: mc.Beta, Alpha: mc.Alpha, Duplex: models.FullDuplex}
	for _, c := range mc.Clusters {
		cb.Beta = max(cb.Beta, c.Beta)
		for _, p := range c.Processors {
			q := models.Processor{Name: p.Name, Gamma: p.Gamma, Load: p.Load}
			for kind, from := range map[string]string{models.KindSend: models.KindInterSend, models.KindRecv: models.KindInterRecv} {
				if g := p.OverlapGamma(from); !math.IsInf(g, 1) {
					if q.Overlap == nil {
						q.Overlap = map[string]float64{}
					}
					q.Overlap[kind] = g
				}
			}
			cb.Processors = append(cb.Processors, q)
		}
	}
	return &models.Platform{Crossbar: cb}, nil
}

package multicluster

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/mmdl"
	"github.com/netsched/netsched/sim"
)

// DefaultMaxRounds caps R when it is chosen automatically (option
// max_rounds): without start-up latency more rounds always help. It is
// paper 000's cap, so that mmdl-flat and multicluster compare at equal R.
const DefaultMaxRounds = mmdl.DefaultMaxRounds

// optForce is the option force of paper 001's policies.
var optForce = policies.Option{Name: "force", Type: policies.TypeBool, Default: false,
	Doc:    "plan even when the instance breaks an assumption of paper 001 (a warning instead of an error)",
	Source: "paper 001 §2: its results hold only under its assumptions"}

func init() {
	for _, p := range []planner{
		{name: "multicluster", relays: true,
			doc: "paper 001: optimal MMDL round on a multi-cluster with relays, balanced intra-cluster schedule, R = √(T/α) rounds"},
		{name: "multicluster-norelay",
			doc: "paper 001 with relays off: no processor both receives and sends"},
	} {
		policies.Register(policies.Entry{
			Name: p.name, Family: models.FamilyDivisible, Doc: p.doc, Planner: p,
			Platforms: []string{models.KindMultiCluster},
			Options:   []policies.Option{optForce, mmdl.OptMaxRounds},
		})
	}
	policies.Register(policies.Entry{
		Name: "mmdl-flat", Family: models.FamilyDivisible, Planner: flatPlanner{},
		Doc:       "paper 000's mmdl planned on the multi-cluster seen as one crossbar at the inter-cluster β, run in its order on the real platform",
		Platforms: []string{models.KindMultiCluster},
		Options:   []policies.Option{mmdl.OptMaxRounds},
	})
}

// planner is one of paper 001's policies.
type planner struct {
	name, doc string
	relays    bool
}

// Plan checks the paper's assumptions (an error, or with the option
// force: true a warning), computes the round (RoundTime), lays it out
// (RoundLayout) and expands it into R rounds: R from the problem, or
// BestRounds.
func (p planner) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	m := newModel(in.Platform)
	issues := m.Check(in.Platform, in.Problem)
	if len(issues) > 0 && !optForce.Bool(in.Options) {
		return nil, fmt.Errorf("%s: %w", p.name, issuesError(issues))
	}
	r, err := RoundTime(m, p.relays)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	trs, balanced, err := RoundLayout(m, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	e, err := NewExpansion(m, r, trs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	R := int(in.Problem.Divisible.Rounds)
	if R == 0 {
		R = e.BestRounds(mmdl.OptMaxRounds.Int(in.Options))
	}
	s, err := e.schedule(ctx, R, in.Recycle)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	s.Policy = p.name
	s.Metrics = e.metrics(R, len(balanced))
	s.Warnings = e.warnings(in.Platform, issues)
	if len(issues) > 0 {
		if err := reportGap(ctx, in.Platform, s); err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	if err := Compact(ctx, in.Platform, s); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return s, nil
}

// Compact lets the slots overlap: it runs the schedule in its order on
// the platform (runInOrder), each action as soon as what it follows and its
// ports and uplinks allow, and keeps those times if they end sooner. The
// slotted makespan is kept as the metric slotted_makespan. (mmdl-flat is
// timed the same way, so the two compare on equal terms.)
func Compact(ctx context.Context, pl *models.Platform, s *sim.Schedule) error {
	s.Metrics["slotted_makespan"] = s.Claimed
	res, err := runInOrder(ctx, pl, s)
	if err != nil {
		return fmt.Errorf("running the schedule in order: %w", err)
	}
	if res.Makespan < s.Claimed {
		setTimes(s, res)
	}
	return nil
}

// metrics are the figures reported beside the replay. The claim is the
// schedule's exact makespan; paper_makespan is the paper's T + T/R + Rα
// with α the per-slot start-up overhead (AlphaRound).
func (e *Expansion) metrics(R, balanced int) map[string]float64 {
	m, r := e.Model, e.Round
	own, inter := 0.0, 0.0
	var masters, workers, relays, masterClusters, workerClusters int
	for i, p := range m.Procs {
		own = max(own, p.X*p.Gamma)
		switch u, v := r.Intra[i], r.Inter[i]; {
		case u*v < 0:
			relays++
		case u+v < 0:
			masters++
		case u+v > 0:
			workers++
		}
	}
	for _, y := range r.ClusterInter {
		switch {
		case y < 0:
			masterClusters++
			inter -= y
		case y > 0:
			workerClusters++
		}
	}
	return map[string]float64{
		"T":                      r.T,
		"T_L":                    r.TL,
		"t_max":                  r.TP,
		"R":                      float64(R),
		"masters":                float64(masters),
		"workers":                float64(workers),
		"relays":                 float64(relays),
		"master_clusters":        float64(masterClusters),
		"worker_clusters":        float64(workerClusters),
		"inter_cluster_load":     inter,
		"transfers_per_round":    float64(len(e.Transfers)),
		"relay_depth":            float64(e.maxDepth),
		"slots":                  float64(e.NumSlots(R)),
		"alpha_round":            e.AlphaRound(),
		"paper_makespan":         e.PaperMakespan(R),
		"own_load_makespan":      own,
		"intra_balanced_by_flow": float64(balanced),
	}
}

// warnings name the assumptions the instance breaks (planned anyway with
// force), and processors that would relay at a rate the linear model of
// §3.2.2 underestimates.
func (e *Expansion) warnings(pl *models.Platform, issues []Issue) []string {
	var w []string
	for _, is := range issues {
		w = append(w, is.String()+" (planned anyway with force: T and the plan assume the paper's model, so T may not be optimal: "+
			"metric gap_to_lp says how far it is above the optimal round by LP, up to 100 processors; where the platform's rates differ the replay shows how far the schedule misses its claim)")
	}
	m, r := e.Model, e.Round
	var floored []string
	for i := range m.Procs {
		if r.ClusterInter[m.Procs[i].Cluster] != 0 && m.floors(i) {
			floored = append(floored, pl.NodeName(i))
		}
	}
	if len(floored) > 0 {
		names := floored
		if len(names) > 5 {
			names = append(names[:5:5], fmt.Sprintf("and %d more", len(floored)-5))
		}
		w = append(w, fmt.Sprintf("%v in clusters that exchange load cannot compute at the consistent-degradation rate "+
			"while relaying (1/γ^(I) + 1/γ^(X) < 1/γ, as without overlap; §5): the platform floors their rate at 0, "+
			"which paper 001's linear model does not use, so T is achieved but a relay through them could do better", names))
	}
	return w
}

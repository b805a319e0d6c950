// Package divisiblelp registers the policy divisible-lp: the optimal
// steady-state round of a divisible load computed by linear programming
// (package optround, gonum's simplex) for any parameters, on the crossbar
// of paper 000 and the two-level multi-cluster of paper 001, expanded into
// rounds as those papers' policies expand theirs (policies/mmdl and
// policies/multicluster, on the skeleton of policies/rounds).
//
// On a crossbar the round's net loads are matched and ordered by paper
// 000's interval matching and reverse ordering (§3.3, §3.4) and expanded
// by mmdl.Expansion: overlap, result collection and full-duplex ports as
// mmdl handles them. On a multi-cluster the round is laid out by paper
// 001's RoundLayout (§4) and expanded by multicluster.Expansion, relays
// included, and its slots are then let overlap (multicluster.Compact).
// That layout needs every cluster to only send or only receive across
// clusters; when the optimum has a cluster doing both, the policy takes
// the best round with such roles (roles fixed from the optimum's net
// flows, each cluster that then mixes fixed in turn, the first ones' both
// ways tried) and says so in a warning, with the optimum as metric
// lp_bound. Result collection on a multi-cluster is not supported (the
// multi-cluster expansion has no result phase): an error.
//
// Size and time: on a crossbar the optimal round is found by a bisection
// on T of O(P) per step (optround.Crossbar; a plan of 1,000 processors
// takes about 0.1 s of CPU). On a multi-cluster the program is solved by a
// dense simplex whose tableau takes about 32 P² bytes
// (optround.MultiClusterBytes; a scenario whose tableau is above
// --max-memory is refused before it runs) and whose time grows about as
// P³ (1 s at 200 processors, 30 s at 500). Both stop when the context is
// done (--timeout, Ctrl-C).
//
// Option: max_rounds (default 100) caps an automatic R. R is the
// problem's rounds, or √(dT/α) rounded to the better neighbour.
package divisiblelp

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/mmdl"
	"github.com/netsched/netsched/policies/optround"
	"github.com/netsched/netsched/sim"
)

// Name is the policy's name.
const Name = "divisible-lp"

func init() {
	policies.Register(policies.Entry{
		Name: Name, Family: models.FamilyDivisible, Planner: planner{}, Options: []policies.Option{mmdl.OptMaxRounds},
		Doc:       "optimal steady-state round by LP (any parameters) on a crossbar or multi-cluster, expanded into rounds as mmdl and multicluster do",
		Platforms: []string{models.KindCrossbar, models.KindMultiCluster},
		Memory:    memory,
	})
}

// memory is the simplex tableau of the multi-cluster program (the
// crossbar's search takes O(P) memory, within the schedule's).
func memory(pl *models.Platform, _ *models.Problem) (float64, string) {
	if pl.MultiCluster == nil {
		return 0, ""
	}
	return optround.MultiClusterBytes(pl.MultiCluster),
		fmt.Sprintf("the optimal round's simplex tableau on %d processors needs", pl.MultiCluster.NumProcessors())
}

// planner is the divisible-lp policy.
type planner struct{}

// Plan computes the optimal round by LP and expands it into rounds.
func (planner) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	s, err := plan(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	s.Policy = Name
	return s, nil
}

func plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	maxRounds := mmdl.OptMaxRounds.Int(in.Options)
	if in.Platform == nil || in.Problem == nil {
		return nil, fmt.Errorf("need a platform and a problem")
	}
	if in.Platform.MultiCluster != nil {
		return planMultiCluster(ctx, in, maxRounds)
	}
	return planCrossbar(ctx, in, maxRounds) // mmdl.NewModel refuses other platforms
}

// rounds is the problem's R, or choose(maxRounds).
func rounds(pr *models.Problem, maxRounds int, choose func(int) (int, error)) (int, error) {
	if R := int(pr.Divisible.Rounds); R > 0 {
		return R, nil
	}
	return choose(maxRounds)
}

// dustTol is the size, relative to the total load, below which an amount
// of the LP's solution is rounding.
const dustTol = 1e-12

// clean zeroes the entries of y below tol in absolute value.
func clean(y []float64, tol float64) {
	for i, v := range y {
		if v < tol && v > -tol {
			y[i] = 0
		}
	}
}

// totalLoad is Σ x_i.
func totalLoad(ps []models.Processor) float64 {
	t := 0.0
	for _, p := range ps {
		t += p.Load
	}
	return t
}

// ruleWarnings name the processors whose explicit combined rates break
// consistent degradation: the LP assumes the rule's rates.
func ruleWarnings(pl *models.Platform, procs []models.Processor) []string {
	var w []string
	for i, p := range procs {
		if !p.ConsistentlyDegrading() { // p is a copy: ConsistentlyDegrading swaps Combined while it looks
			w = append(w, fmt.Sprintf("%s: combined rates are not consistent degradation; the LP assumes the rule's rates, "+
				"so T is not optimal for the platform's, and the replay shows how far the schedule misses its claim", pl.NodeName(i)))
		}
	}
	return w
}

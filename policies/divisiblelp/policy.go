// Package divisiblelp registers the policy divisible-lp: the optimal
// steady-state round of a divisible load computed by linear programming
// (package optround) for any parameters, on the crossbar of paper 000 and
// the two-level multi-cluster of paper 001, expanded into rounds as those
// papers' policies expand theirs (policies/mmdl and policies/multicluster,
// on the skeleton of policies/rounds).
//
// On a crossbar the round's net loads are matched and ordered by paper
// 000's interval matching and reverse ordering (§3.3, §3.4) and expanded
// by mmdl.Expansion: overlap, result collection and full-duplex ports as
// mmdl handles them. On a multi-cluster the round is laid out, expanded by
// multicluster.Expansion (relays included: data moves one hop per slot)
// and its slots are then let overlap (multicluster.Compact). A round in
// which every cluster only sends or only receives across clusters is laid
// out by paper 001's RoundLayout (§4); any other by layoutMixed (below).
// Either way the schedule's round time T is the program's optimum (metric
// T, and lp_bound, equal). Result collection on a multi-cluster is not
// supported (the multi-cluster expansion has no result phase): an error.
//
// # Any round on a multi-cluster
//
// Outside paper 001's assumptions (β_j > β, or rates that favour crossing
// clusters) the optimum can have a cluster both send and receive across
// clusters (metric mixed_clusters counts them). Such a round is always
// realisable within the platform's rules (one send and one receive port
// per processor, one uplink out and one in per cluster, no cluster
// sending to itself), and layoutMixed lays it out:
//
//   - the clusters' loads out O_j and in I_j are split into flows between
//     distinct clusters (a maximum flow; the program's rows
//     O_j + I_j ≤ Σ O are the condition for one);
//   - the flows are scheduled on the uplinks as a preemptive open shop
//     (package openshop: uplinks out on one side, in on the other, each
//     busy at most T), with an idle edge from each cluster's uplink out
//     to its own uplink in of T − β·max(O_j, I_j): while a cluster's
//     busier uplink is idle its other one is idle too, so each cluster's
//     two uplinks are used in nested times, both at once for
//     β·min(O_j, I_j);
//   - inside each cluster, an open shop of its processors' send ports and
//     its uplink in against their receive ports and its uplink out, with
//     the intra-cluster transfers (net loads paired in index order), each
//     processor's time across clusters on its uplink, and the same idle
//     edge, places everything in T with the uplinks nested in the same
//     lengths; since the rules bind only at each instant, the cluster's
//     times of each uplink state (out, in, both, neither) are carried onto
//     the pattern's times of that state, in order;
//   - the transfers across clusters pair, at every instant, the processor
//     holding the sender's uplink with the one holding the receiver's;
//     cycles of transfers between processors (which relays cannot
//     forward) are cancelled, which only shortens transfers.
//
// Every node of both open shops is busy at most T by the program's rows
// (ports, uplinks), so both exist (König's theorem in the preemptive
// form); and every processor's amounts, hence its work at the rates the
// round's communications leave it (linear, consistent degradation), are
// the program's. So the layout exists for every round of the program, and
// the tests check each one built: ports, uplinks, amounts and work within
// T, and the round time against an LP oracle written apart. What stays
// out of reach is what the program does not model: explicit combined
// rates that break consistent degradation (a warning; the replay shows
// the miss), rates floored at 0 (T is kept, a lower one may exist), and
// result collection (refused).
//
// Size and time: on a crossbar the optimal round is found by a bisection
// on T of O(P) per step (optround.Crossbar; a plan of 1,000 processors
// takes about 0.02 s of CPU). On a multi-cluster the program is solved by
// a dense simplex whose tableau takes about 32 P² bytes
// (optround.MultiClusterBytes; a scenario whose tableau is above
// --max-memory is refused before it runs) and whose time grows about as
// P³ (0.3 s of CPU at 200 processors, 7 s at 500). Both stop when the
// context is done (--timeout, Ctrl-C). docs/divisible-lp.md has the
// figures.
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
		Doc:       "optimal steady-state round by LP (any parameters, consistent degradation) on a crossbar or multi-cluster, clusters sending and receiving across at once included, expanded into rounds as mmdl and multicluster do",
		Platforms: []string{models.KindCrossbar, models.KindMultiCluster},
		Memory:    memory,
		Assumes:   assumes,
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

package multicluster

import (
	"fmt"
	"math"
	"strings"

	"github.com/netsched/netsched/models"
)

// Issue is an assumption of paper 001 that an instance breaks: the field it
// concerns (a dotted path, as models.FieldError has it) and what is wrong.
type Issue struct {
	Path, Msg string
}

func (is Issue) String() string { return is.Path + ": " + is.Msg }

// checkTol is the relative slack of the assumption checks, so that rates
// written to satisfy them exactly pass despite rounding.
const checkTol = 1e-12

// Check lists the assumptions of paper 001 that an instance breaks, in
// field order:
//
//   - β ≥ β_j for every cluster (§2.2): inter-cluster communication is the
//     slower;
//   - μ_i^(X) ≤ μ_i^(I) (§3.1.1) and ω_i^(I) ≤ ω_i^(X) (§3.1.2) for every
//     processor: a unit costs a master no less work sent out of its
//     cluster than inside it, and a worker no more received from inside
//     than from outside. The paper states them for one γ^(I) and γ^(X) and
//     calls them equivalent; with rates by direction they are two
//     conditions;
//   - consistent degradation (§3.2.2, with the erratum of
//     ../shared/papers/README.md): explicit combined rates equal the
//     rule's;
//   - no result collection (§2.1).
//
// When they hold, RoundTime's T is the optimum of the steady-state round
// (the tests check it against a linear program). When they do not, the
// policies still plan a valid schedule with the rule's rates (with the
// option force), but T may not be optimal, and with explicit combined
// rates the replay shows how far the schedule misses its claim.
func (m *Model) Check(pl *models.Platform, pr *models.Problem) []Issue {
	var out []Issue
	mc := pl.MultiCluster
	const root = "platform.multicluster"
	for j, c := range mc.Clusters {
		if c.Beta > mc.Beta*(1+checkTol) {
			out = append(out, Issue{fmt.Sprintf("%s.clusters[%d].beta", root, j), fmt.Sprintf(
				"β_%d = %g exceeds the inter-cluster β = %g; paper 001 assumes β ≥ β_j for every cluster (§2.2)", j, c.Beta, mc.Beta)})
		}
		for k := range c.Processors {
			i := m.Clusters[j].First + k
			path := fmt.Sprintf("%s.clusters[%d].processors[%d]", root, j, k)
			out = append(out, m.checkProc(i, path, pl.NodeName(i), &c.Processors[k])...)
		}
	}
	if d := pr.Divisible; d.CollectResults {
		out = append(out, Issue{"problem.divisible.collect_results",
			"paper 001 does not collect results (§2.1); they are not sent back"})
	}
	return out
}

// checkProc checks the assumptions on processor i, found at path.
func (m *Model) checkProc(i int, path, name string, mp *models.Processor) []Issue {
	var out []Issue
	p := &m.Procs[i]
	if p.MuX > p.MuI+checkTol*max(1, math.Abs(p.MuI)) {
		out = append(out, Issue{path + ".overlap", fmt.Sprintf(
			"%s: μ^(X) = %.6g > μ^(I) = %.6g: it loses less work sending a unit out of its cluster than inside it; paper 001 assumes μ^(X) ≤ μ^(I) (§3.1.1)",
			name, p.MuX, p.MuI)})
	}
	if p.OmegaI > p.OmegaX+checkTol*max(1, math.Abs(p.OmegaX)) {
		out = append(out, Issue{path + ".overlap", fmt.Sprintf(
			"%s: ω^(I) = %.6g > ω^(X) = %.6g: it loses more work receiving a unit from inside its cluster than from outside; paper 001 assumes ω^(I) ≤ ω^(X) (§3.1.2)",
			name, p.OmegaI, p.OmegaX)})
	}
	cp := *mp // ConsistentlyDegrading swaps Combined while it looks
	if !cp.ConsistentlyDegrading() {
		out = append(out, Issue{path + ".combined", fmt.Sprintf(
			"%s: combined rates are not consistent degradation, 1/γ^(D) = 1/γ^(I) + 1/γ^(X) − 1/γ (§3.2.2); the plan assumes the rule's rates", name)})
	}
	return out
}

// issuesError is the error for broken assumptions without the force option.
func issuesError(issues []Issue) error {
	parts := []string{issues[0].Msg}
	for _, is := range issues[1:] {
		parts = append(parts, is.String())
	}
	return &models.FieldError{Path: issues[0].Path, Msg: strings.Join(parts, "; ") +
		"; set the policy option force: true to plan anyway (the optimality claim then does not hold)"}
}

// floors reports whether processor i, relaying, would have its two
// transfers' rate losses exceed its rate, 1/γ^(I) + 1/γ^(X) < 1/γ (no overlap
// at all is the common case). The platform floors its rate at 0, which the
// linear model of §3.2.2 does not see: T and the schedule hold, but a relay
// through it could do better than the model says (§5).
func (m *Model) floors(i int) bool {
	p := &m.Procs[i]
	tol := checkTol * p.Rate[0]
	return p.Rate[0]-p.loss(bitIntraRecv)-p.loss(bitInterSend) < -tol ||
		p.Rate[0]-p.loss(bitInterRecv)-p.loss(bitIntraSend) < -tol
}

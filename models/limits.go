package models

import (
	"fmt"

	"github.com/netsched/netsched/internal/budget"
)

// actionBytes is the memory a run takes per action of its schedule, held by
// the schedule, its replay and its problem check, and by netsched run's
// outputs (measured: 4·10^5 actions of 100,000 rounds on 2 processors,
// about 370 B each; cmd/netsched TestEstimatesOnSafeSide), with a margin.
const actionBytes = 512

// treePairBytes is the memory the broadcast policies take per pair of tree
// nodes: the optimal search's tables of costs, rates, latencies and
// branches, ecef's candidates (measured: 1.5 GB at most on a random tree
// of 2,048 participants and 512 relays once the bound is set up, about
// 230 B per pair).
const treePairBytes = 256

// CheckSize refuses, before any policy runs, a problem whose schedules
// would need more memory than the budget b. It estimates the actions of a
// schedule from the counts that drive them: for a divisible load with a
// fixed number of rounds R on P processors, about 2RP (a computation and,
// on average, at most one transfer per processor and round, as the round's
// matchings give); for a task pool, two per task (its computation and at
// most one migration, on average). Errors are *FieldError naming the count.
//
// A broadcast on a tree platform is refused when the tables of its
// policies, which hold figures for every pair of the tree's nodes, would
// need more (see treePairBytes).
func CheckSize(pl *Platform, pr *Problem, b budget.Bytes) error {
	if pl.Tree != nil && pr.Broadcast != nil {
		n := float64(len(pl.Tree.Nodes))
		if err := b.Check(fmt.Sprintf("%.0f tree nodes make %.3g pairs, whose tables for the broadcast policies need", n, n*n), n*n*treePairBytes); err != nil {
			return fieldErr(rootPath("platform.tree.nodes"), "%v", err)
		}
	}
	field, what, actions := sizeOf(pl, pr)
	if field == "" {
		return nil
	}
	if err := b.Check(fmt.Sprintf("%s make about %.3g actions, which need", what, actions), actions*actionBytes); err != nil {
		return fieldErr(rootPath(field), "%v", err)
	}
	return nil
}

// sizeOf names the count that drives the size of a problem's schedules,
// describes it, and estimates the actions; field is "" when no count does.
func sizeOf(pl *Platform, pr *Problem) (field, what string, actions float64) {
	switch {
	case pr.Divisible != nil && pr.Divisible.Rounds > 0:
		r, p := float64(pr.Divisible.Rounds), float64(pl.NumNodes())
		return "problem.divisible.rounds", fmt.Sprintf("%.0f rounds on %.0f processors", r, p), 2 * r * p
	case pr.Balance != nil && pl.Workstations != nil:
		n := 0.0
		for i := range pl.Workstations.Processors {
			n += float64(pr.Balance.Count(i))
		}
		return "problem.balance.tasks", fmt.Sprintf("%.4g tasks", n), 2 * n
	}
	return "", "", 0
}

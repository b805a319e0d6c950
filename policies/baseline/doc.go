// Package baseline holds one plain policy per problem family, each honestly
// what its name says, so that every scenario has something to compare the
// papers' algorithms with:
//
//   - divisible load (crossbar, multi-cluster): no-redistribution and direct;
//   - task graph (delay platform): sequential and unclustered;
//   - broadcast (tree): flat-sequential.
//
// Each computes its claimed makespan by its own arithmetic and plans a start
// time for every action, so timed replay checks every step of the claim.
package baseline

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// divisibleKinds are the platforms the divisible-load baselines run on.
var divisibleKinds = []string{models.KindCrossbar, models.KindMultiCluster}

func init() {
	for _, e := range []policies.Entry{
		{Name: "no-redistribution", Family: models.FamilyDivisible, Platforms: divisibleKinds, Planner: policies.PlannerFunc(planNoRedistribution),
			Doc: "every processor computes the load it holds; no communication"},
		{Name: "direct", Family: models.FamilyDivisible, Platforms: divisibleKinds, Planner: policies.PlannerFunc(planDirect),
			Doc: "move load to shares proportional to speed, surplus to deficit in index order, each transfer as soon as its ports are free"},
		{Name: "sequential", Family: models.FamilyDAG, Platforms: []string{models.KindDelay}, Planner: policies.PlannerFunc(planSequential),
			Doc: "all tasks on one processor in topological order"},
		{Name: "unclustered", Family: models.FamilyDAG, Platforms: []string{models.KindDelay}, Planner: policies.PlannerFunc(planUnclustered),
			Assumes: []policies.Assumption{processorPerTask},
			Doc:     "every task on its own processor, as soon as its predecessors' data arrive"},
		{Name: "flat-sequential", Family: models.FamilyBroadcast, Platforms: []string{models.KindTree}, Planner: policies.PlannerFunc(planFlatSequential),
			Doc: "the first root sends to every other participant in node order, one transfer after another"},
	} {
		policies.Register(e)
	}
}

// processorPerTask is unclustered's assumption: a processor for every
// task, which a bounded delay platform may not have. The loader refuses
// such a scenario (Required).
var processorPerTask = policies.Assumption{
	Name: "a processor per task", Doc: "a processor for every task", Source: "its definition", Required: true,
	Contradicted: func(pl *models.Platform, pr *models.Problem) string {
		if d := pl.Delay; d != nil && pr.DAG != nil && d.Processors > 0 && d.Processors < len(pr.DAG.Tasks) {
			return fmt.Sprintf("platform.delay.processors is %d, for %d tasks: remove it (as many as needed) or drop unclustered", d.Processors, len(pr.DAG.Tasks))
		}
		return ""
	},
}

package broadcast

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

func init() {
	for _, e := range []policies.Entry{
		{Name: "optimal", Planner: policies.PlannerFunc(planOptimal), Options: optimalOptions,
			Doc: "paper 004: depth-first branch and bound in time order with RCut/SCut tree-isomorphism pruning and a lower bound"},
		{Name: "fnf", Planner: heuristicPolicy{name: "fnf", plan: planFNF},
			Doc: "fastest node first: receivers by fastest outgoing link, each from the holder that delivers it first"},
		{Name: "ecef", Planner: heuristicPolicy{name: "ecef", plan: planECEF},
			Doc: "earliest completing edge first: always the transfer that arrives first"},
	} {
		e.Family, e.Platforms = models.FamilyBroadcast, []string{models.KindTree}
		policies.Register(e)
	}
}

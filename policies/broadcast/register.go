package broadcast

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

func init() {
	for _, e := range []policies.Entry{
		{Name: "optimal", Planner: policies.PlannerFunc(planOptimal), Options: optimalOptions,
			Doc: "paper 004: depth-first branch and bound in time order with RCut/SCut tree-isomorphism pruning and a lower bound"},
	} {
		e.Family, e.Platforms = models.FamilyBroadcast, []string{models.KindTree}
		policies.Register(e)
	}
}

package broadcast

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

func init() {
	for _, e := range []policies.Entry{
		{Name: "optimal", Planner: policies.PlannerFunc(planOptimal), Options: optimalOptions,
			Doc: "paper 004: depth-first branch and bound in time order with RCut/SCut tree-isomorphism pruning and a lower bound"},
		{Name: "mpich-binomial", Planner: treePolicy{name: "mpich-binomial", children: binomialChildren},
			Doc: "MPICH's binomial-tree MPI_Bcast (relative ranks: the root rotates the tree)"},
		{Name: "mpich-scatter-allgather", Planner: mpichPolicy{name: "mpich-scatter-allgather"},
			Options: []policies.Option{optRule, optAllgather, optUnit},
			Doc:     "MPICH's long-message MPI_Bcast: binomial scatter, then recursive-doubling or ring allgather"},
		{Name: "mpich", Planner: mpichPolicy{name: "mpich", selects: true},
			Options: []policies.Option{optRule, optUnit},
			Doc:     "MPICH's MPI_Bcast with its algorithm selection"},
		{Name: "lam", Planner: treePolicy{name: "lam", children: lamChildren},
			Doc: "LAM/MPI 7's MPI_Bcast: the root sends to all up to 4 processes, binomial tree above"},
		{Name: "binary-tree", Planner: treePolicy{name: "binary-tree", children: binaryChildren},
			Doc: "binary-tree broadcast over relative ranks (what paper 004 says LAM uses)"},
		{Name: "fnf", Planner: heuristicPolicy{name: "fnf", plan: planFNF},
			Doc: "fastest node first: receivers by fastest outgoing link, each from the holder that delivers it first"},
		{Name: "ecef", Planner: heuristicPolicy{name: "ecef", plan: planECEF},
			Doc: "earliest completing edge first: always the transfer that arrives first"},
	} {
		e.Family, e.Platforms = models.FamilyBroadcast, []string{models.KindTree}
		policies.Register(e)
	}
}

package broadcast

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

func init() {
	for _, e := range []policies.Entry{
		{Name: "optimal", Planner: policies.PlannerFunc(planOptimal),
			Doc: "paper 004: depth-first branch and bound in time order with RCut/SCut tree-isomorphism pruning and a lower bound (options rcut, scut, bound, ties, ecef, max_nodes, max_seconds)"},
		{Name: "mpich-binomial", Planner: treePolicy{name: "mpich-binomial", children: binomialChildren},
			Doc: "MPICH's binomial-tree MPI_Bcast (relative ranks: the root rotates the tree)"},
		{Name: "mpich-scatter-allgather", Planner: mpichPolicy{name: "mpich-scatter-allgather"},
			Doc: "MPICH's long-message MPI_Bcast: binomial scatter, then recursive-doubling or ring allgather (options rule 2004|current, allgather auto|recursive-doubling|ring, unit_bytes)"},
		{Name: "mpich", Planner: mpichPolicy{name: "mpich", selects: true},
			Doc: "MPICH's MPI_Bcast with its algorithm selection (options rule 2004|current, unit_bytes)"},
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

package mpi

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

func init() {
	for _, e := range []policies.Entry{
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
	} {
		e.Family, e.Platforms = models.FamilyBroadcast, []string{models.KindTree}
		policies.Register(e)
	}
}

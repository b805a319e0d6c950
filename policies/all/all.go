// Package all imports every policy package for its side effect of
// registering its policies, so a program that imports all (the CLI) can
// run any policy a scenario names. Add one import line per new package.
package all

import (
	_ "github.com/netsched/netsched/policies/baseline"            // no-redistribution, direct, sequential, unclustered, flat-sequential
	_ "github.com/netsched/netsched/policies/broadcast"           // optimal (paper 004)
	_ "github.com/netsched/netsched/policies/broadcast/heuristic" // fnf, ecef (paper 004's comparison heuristics)
	_ "github.com/netsched/netsched/policies/broadcast/mpi"       // mpich-binomial, mpich-scatter-allgather, mpich, lam, binary-tree (paper 004 §6.2)
	_ "github.com/netsched/netsched/policies/clustering"          // cross, convex, cass2, dsc (paper 002)
	_ "github.com/netsched/netsched/policies/divisiblelp"         // divisible-lp (papers 000 and 001, optimal round by LP)
	_ "github.com/netsched/netsched/policies/heft"                // heft, cpop (Topcuoglu–Hariri–Wu 2002; task graphs on crossbar and multi-cluster)
	_ "github.com/netsched/netsched/policies/loadbalance"         // power-diff, static, none, steal (paper 003)
	_ "github.com/netsched/netsched/policies/mmdl"                // mmdl, mmdl-forward, single-round (paper 000)
	_ "github.com/netsched/netsched/policies/multicluster"        // multicluster, multicluster-norelay, mmdl-flat (paper 001)
)

// Package clustering implements the task-graph clustering algorithms of
// paper 002 (Noguchi, Ooshita, Masuzawa, "A clustering algorithm for task
// scheduling in parallel computing environments with large communication
// delays") and the baselines it is compared with, on the delay platform:
// unbounded identical processors and a uniform delay ρ between a task and a
// successor on another processor (paper 002 §2, Definition 1).
//
// A Clustering puts each task on a cluster, one cluster per processor.
// CheckConvex and CheckCross test Definitions 2 and 3 on any clustering;
// EvalPrime is the greedy eval′ of §5.1.3 that turns a clustering into a
// schedule. The policies, registered in the policy registry for the dag
// family on the delay platform:
//
//   - cross: Cross-A, the paper's CrossCL (§5.1: IndependentTasks,
//     DivideCluster, SelectBetterCluster, DivideOK), K selections per
//     cluster, the best of R randomised runs;
//   - convex: Convex-A, the convex clustering of Lepère and Trystram
//     (IPDPS 2002), in the same recursive frame;
//   - cass2: CASS-II (Liou and Palis, PACT 1998);
//   - dsc: DSC with DSRW (Yang and Gerasoulis, IEEE TPDS 5(9), 1994).
//
// On a crossbar or a multi-cluster the same four policies cluster on the
// platform's mean delay and map their clusters onto its processors
// (Mapped, MapClusters), so that they compare with HEFT and CPOP (package
// heft) on one bounded platform.
//
// Each reports the paper's time(S) (the latest start, §2) in the metric
// "time_S" and claims the makespan (the latest finish). Exact solves the
// problem exhaustively for small graphs, restricted to any, convex or cross
// clusterings. Prepare prepares a graph once for several algorithms and
// delays. Package reproduce/clustering runs the paper's experiments
// (Tables 1–9).
package clustering

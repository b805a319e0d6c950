// Package broadcast schedules a broadcast on the tree network of paper 004
// (Hourai, Nishida, Oyanagi, "Optimal Broadcast Scheduling on
// Tree-structured Networks").
//
// The network (§2) has participants and relays; every edge has a bandwidth
// and a latency per direction and is full or half duplex. A transfer of the
// message of size D from u to v runs at b = min b_i over its path and
// reserves b on link i during [s + Σ_{j≤i} d_j, s + Σ_{j≤i} d_j + D/b); it
// arrives at s + Σ d + D/b, may start only when every reservation fits, and
// only a holder sends, to a non-holder, once it has the whole message.
//
// It registers the policy optimal in the broadcast family on tree
// platforms: the depth-first branch and bound of §5 over transfers in time
// order, each starting at the earliest time it fits, with the receiver-
// and sender-side pruning by canonical tree labels of §4 (RCut, SCut) and
// a lower bound in the spirit of §4.6 (package bound), a transposition
// table of closed states, a first schedule from fnf and ecef (package
// heuristic), dives down the least bounds and a local search on transfer
// sequences (improve.go), searches with rising targets that raise the
// proven lower bound (deepen), a SAT prover on the time-indexed model of
// the instance where the solver CaDiCaL is installed (package prover, run
// from sat.go), and a budget (nodes, time) that it keeps, start-up
// included, returning the best schedule and the least bound the searches
// leave open (see Options).
//
// The rest of the wing: the tree network model, its calendar and
// PlaceSequence (package treenet), the lower bound (package bound), the
// SAT prover (package prover), the heuristics fnf and ecef (package
// heuristic) and the MPI baselines of Tables 5–6 (package mpi) are
// packages of their own.
//
// Every schedule lists transfers with their planned start; a transfer
// follows (After) the transfer that delivered the data its sender forwards.
// The claimed makespan is the last arrival, computed by the policy on the
// same reservation calendar (sim.Reservations) that replay uses.
//
// treenet.PlaceSequence times a given transfer order, such as the schedule
// the paper lists for Fig. 14. Package reproduce/broadcast runs paper 004's
// Tables 1–4 and 5–6 on the networks of trees.StarTree, DualCPUTree,
// ClusterOfClustersTree and UnequalClustersTree.
package broadcast

// Package heuristic holds the greedy broadcast heuristics of paper 004's
// wing on the tree network (package treenet): fastest node first (FNF,
// Banikazemi et al.'s heuristic for heterogeneous nodes) and earliest
// completing edge first (ECEF), registered as the policies fnf and ecef of
// the broadcast family, and the flat schedule (Flat), every participant
// informed by a root.
//
// A Greedy adds one whole-message transfer at a time. By default each
// starts at the earliest time it fits after the last start, the placement
// of the optimal search, so its schedules lie in the search's space (the
// optimal policy starts from them); with Backfill each starts at the
// earliest time it fits the reservations made, once its sender holds the
// message, as the published heuristics and the policies place transfers.
// Try, Take and Reset let a caller decode transfer sequences on a Greedy
// (the optimal policy's local search does).
//
// It holds no search, no lower bound and no MPI baseline (packages
// broadcast, broadcast/mpi).
package heuristic

// Package heft is the list schedulers HEFT and CPOP of Topcuoglu, Hariri
// and Wu ("Performance-effective and low-complexity task scheduling for
// heterogeneous computing", IEEE TPDS 13(3), 2002) for task graphs on the
// bounded, heterogeneous platforms: crossbar clusters and two-level
// multi-clusters.
//
// Both rank the tasks by the paper's upward rank rank_u (the longest path
// to an exit task in average computation costs w̄ and average
// communication costs c̄), CPOP adding the downward rank rank_d, and place
// each task, highest priority first among the ready ones, with insertion:
// in the earliest idle slot of a processor long enough for it after its
// data is there. HEFT takes the processor of the earliest finish time;
// CPOP puts the tasks of the critical path on the one processor that
// computes them fastest, and every other task as HEFT does.
//
// The paper's model has no contention: a message costs its c and never
// waits. Here the data of an edge whose tasks run on different processors
// is a transfer through the platform's ports and uplinks, each serving
// one transfer at a time, so the placement of a task books its incoming
// transfers first, each in the earliest slot free on every port it holds
// (insertion again), in the order their data becomes ready; data on one
// processor is free, and an edge without data is a precedence only. A
// processor that computes at full speed while it communicates overlaps
// computation and communication; any other computes only while none of
// its ports is busy, so that every computation runs at its processor's
// speed. The schedule is exactly what the replay simulates.
//
// At scale (10^5 tasks on 64 processors in a few seconds), each
// resource's busy intervals are a timeline in blocks under a max-tree of
// their gaps, so that the earliest slot of a length is found in
// logarithmic time, and the processors are tried by increasing lower
// bound of the finish (the data through the ports and uplinks their
// cluster shares, then the processor's own slot), those whose bound is
// later than the best finish found not at all: the choice is the
// earliest finish, ties to the first processor, as a trial of every one.
//
// Averages: w̄ of a task is its weight times the mean time per unit γ of
// the processors; c̄ of an edge is the mean, over ordered pairs of distinct
// processors, of its transfer time α + data·β (β of the cluster, or of the
// inter-cluster network, on a multi-cluster).
package heft

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
// Averages: w̄ of a task is its weight times the mean time per unit γ of
// the processors; c̄ of an edge is the mean, over ordered pairs of distinct
// processors, of its transfer time α + data·β (β of the cluster, or of the
// inter-cluster network, on a multi-cluster).
package heft

// Package models describes what netsched simulates: platforms and workloads
// as plain data, with their validation.
//
// A platform is one of the kinds of ../shared/DESIGN.md: a crossbar cluster
// (paper 000), a two-level multi-cluster (paper 001), a tree network with
// per-link bandwidth reservation (paper 004), the delay model of task-graph
// clustering (paper 002) or a cluster of externally loaded workstations
// (paper 003). A problem is the workload scheduled on it: a divisible load,
// a task graph, a broadcast or a pool of tasks to balance.
//
// Nothing here simulates or schedules; package sim replays schedules on these
// models and the policies compute them; package formats reads them from
// files (DOT, STG, WfCommons).
package models

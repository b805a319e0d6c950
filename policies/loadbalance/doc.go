// Package loadbalance implements the dynamic load balancing of paper 003
// ("Dynamic load balancing by load parameterisation on a workstation
// cluster") as online policies of the family "balance" on the workstations
// platform. Package reproduce/loadbalance reproduces its experiment.
//
// Every processor runs the node of Fig. 1 (§2.1) on one event calendar, as
// three processes: ProcessingTask works through the ActiveQueue (tasks
// received from other processors, served first) and then the
// ScheduleQueue (its own tasks); EstimateLoad measures the processor's
// Power, the tasks it finished in the last measurement interval, and sends
// it to its neighbours in the load-information topology; CheckMessage
// handles Power, requests for tasks and task transfers. A processor ends as
// soon as both its queues are empty and no request of its own is
// unanswered (§3.1: "each processor ... ends as soon as it has no tasks").
//
// The policies are controllers of that node:
//
//   - power-diff (§2.2, the paper's method): P_i, on receiving Power_j from
//     P_j with Power_i > Power_j ≥ 0, asks P_j for Power_i − Power_j tasks;
//   - static (§2.2, the method it is compared with): the same rule, one
//     task at a time;
//   - none: no balancing at all;
//   - steal: random work stealing, the baseline users know: an idle
//     processor asks a victim chosen at random (seeded) for half its
//     ScheduleQueue, and stops asking a victim that had none.
//
// The text leaves some choices open; this package takes these. A
// processor whose ScheduleQueue is empty reports Power −1, so that the
// paper's condition Power_j ≥ 0 keeps others from asking it (only own
// tasks, from the ScheduleQueue, are handed on: a migrated task is not
// migrated again). The tasks handed on are those at the tail of the
// ScheduleQueue, and a request that finds fewer tasks gets what there is,
// possibly none (the reply still travels, so that the requester knows).
// Power and requests are messages of the platform's latency; a migration
// of n tasks takes latency + n·per-task time (../shared/papers/README.md).
//
// A run produces a trace like any engine run: its realised schedule, one
// compute action per task (Label the task, "P3/17" for the 17th own task
// of P3; Node the processor that ran it) and one transfer action per
// migration (Amount the number of tasks), each migrated task's compute
// following its transfer. The schedule's claim is the realised makespan;
// replaying it on the workstations platform in timed mode, which
// integrates each task over its processor's external load on its own,
// gives the same times with no violation: the independent check that the
// run obeyed the platform's rules. (Ordered replay starts a transfer as
// soon as its After list allows, not when its request arrived, so only
// timed replay reproduces an online run.)
//
// At the end of every run the tasks are counted: each processed exactly
// once, none left in a queue or in flight. A run that loses or duplicates
// a task is an error; the metric tasks_conserved is 1 on every schedule
// returned.
package loadbalance

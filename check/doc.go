// Package check tells whether a replayed schedule solves its problem.
//
// The replay (package replay) checks a schedule against its platform: no port
// or processor booked twice, no link over capacity, every action in its
// planned time. It trusts the schedule about the work: a schedule that
// leaves a task out, computes part of the load or forwards a message it
// never received replays without a breach. The checks here read the
// problem, never the policy that planned the schedule, and compare it with
// what the replay did (each action's simulated start and end), one check
// per problem family:
//
//   - task graph: every task of the graph is computed exactly once, for its
//     whole weight; nothing else is computed; every edge of the graph is
//     respected with the platform's rule for data between processors (the
//     delay ρ on the delay platform; on a crossbar or multi-cluster, the
//     edge's data carried from the tail's processor to the head's, after
//     the tail ends and before the head starts, free on one processor),
//     whatever the schedule's After lists say;
//   - divisible load: per processor and round, what it computes equals what
//     it owns minus what it sends plus what it receives, it never sends or
//     computes load it does not hold yet, and, when the problem collects
//     results, the results of every unit go back where it came from;
//   - broadcast: every participant receives the whole message, and every
//     transfer starts at a holder of the part it carries;
//   - load balancing: every task of the pool runs exactly once, where it
//     belongs or after the one migration that brought it.
//
// A breach is a sim.Violation of one of the kinds declared here, naming
// the task, node or processor by the scenario's name and the action by its
// index. A schedule is verified when neither the replay nor these checks
// find a violation.
//
// The schedule conventions the checks read are those of every policy of
// the project: a compute action of a task graph is labelled with the task's
// name (sim.Action.Label), a transfer of its data with the edge's
// ("<from>→<to>", a name holding → quoted: models.EdgeLabelOf); a divisible-load transfer labelled "results"
// carries results, any other carries load; a broadcast transfer carries
// the part [Offset, Offset+Amount) of the message; a load-balancing
// computation is labelled "<processor>/<k>", the k-th task (from 0) of the
// processor it belongs to.
package check

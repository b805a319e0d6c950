// Package external runs a policy written in any language as a child
// process: netsched writes the instance (platform, problem, options, seed)
// as one JSON object on the process's standard input and reads a schedule
// in the schedule-file format (package schedfile) from its standard
// output. The schedule is then replayed and checked like any built-in
// policy's.
//
// A scenario names such a policy with exec instead of a registered name:
//
//	policies:
//	  - {exec: [python3, list_sched.py], label: mine, timeout: 60s, persistent: true}
//
// By default one process runs per planning (Policy.Plan): it reads the
// whole instance, prints the schedule and exits with status 0. With
// Spec.Persistent one process serves many plannings in turn, one JSON
// object per line each way, and is started again after a failure; a
// sweep keeps one per worker.
//
// A process that exits with another status, runs past its timeout, or
// prints something that is not a schedule is an *Error carrying the last
// lines of its standard error. A timeout or a cancelled context kills the
// process's whole process group. Its output is read within the budget
// the context carries (budget.FromContext), at schedfile.BytesPerByte
// bytes a byte: more is an *Error wrapping a *budget.ExceededError.
//
// A program run this way runs with the rights of the user: the netsched
// command runs a scenario's external policies only with --allow-exec (or
// NETSCHED_ALLOW_EXEC=1); a program that uses this package itself decides
// for its users.
package external

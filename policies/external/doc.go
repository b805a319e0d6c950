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
// process's whole process group.
package external

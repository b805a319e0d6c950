// Package runs is the home of a single run: a policy of a scenario plans
// a schedule, the replay (package replay) runs it on the scenario's
// platform, the problem checks (package check) compare what it did with
// the problem, and the outcome is one Row. `netsched run`, `sweep`,
// `gantt`, `verify` and `reproduce` all make their rows here: a sweep
// (package sweep) is many runs, one Runner per worker.
package runs

// Package sweep runs a scenario's policies over a grid of parameter values:
// the cross product of axes, each a dotted path into the scenario, with
// several seeds. Points run in parallel, one engine per goroutine; finished
// rows go to a journal as they complete, so an interrupted sweep resumes
// where it stopped, and a sweep can be cut into deterministic shards for a
// cluster's job array and merged back.
//
// One Row is one policy run: plan, replay, verify. `netsched run` is a
// sweep with no axes.
package sweep

// Package prover holds the SAT prover of the optimal broadcast search: it
// decides horizons of the time-indexed model of the instance (package
// internal/timeindexed) with CaDiCaL, between the lower bound and the best
// makespan a search shares with it (Share), and reports faster schedules
// and a proven optimum as events (Events). A neighbourhood search (lns.go)
// looks for faster schedules near the best before the whole model is
// asked. A prover that runs alongside a search (New with wait) and whose
// model is too large at the first schedule waits for a faster one, which
// shrinks the model.
//
// It holds no branch and bound and no lower bound of the search's own
// (packages broadcast and bound): the search starts it, shares its best,
// and takes its events.
package prover

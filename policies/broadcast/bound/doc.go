// Package bound holds the lower bound of paper 004's optimal broadcast
// search (§4.6, made valid for every feasible schedule): a Bounder set up
// once per tree network (New) bounds the makespan of every completion of
// a search state (Lower), read from a State that the search keeps
// (ready times, the last start, the reservations made as Windows, which
// Reserve and Release follow, and the cutoff at which the bound may stop).
//
// The Bounder composes parts with one job each: the arrivals of the
// non-holders, the pairs of non-holders, the views that cut the tree into
// units fed over their ports, the splits of a port of two speeds and the
// due times of branches that hold copies; the static figures of the
// branches (cuts.go, centres.go) and the spread of the message (spread.go)
// are set up with it.
//
// It holds no search, no schedule and no policy: package broadcast's
// branch and bound calls it, and the package's tests check it against the
// exact optimum of every state of small trees (TestBoundIsValid there).
package bound

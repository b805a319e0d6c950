// Package sim is the netsched kernel: a deterministic event calendar,
// processes (coroutines) and actors (their stackless form, as fast as
// callbacks) with signals and mailboxes, the bandwidth reservation calendar
// of a set of links, and the data a run exchanges with the rest of the
// project: schedules, the results and violations of their replay, and the
// trace a run records. It knows no platform; package replay runs schedules
// on the platforms of package models.
//
// Time is a float64 in model units. Nothing here is package-level mutable
// state, so many engines run side by side, one per goroutine.
package sim

// Package sim is the netsched engine: a deterministic event calendar, the
// resources platforms are built of (ports, links with reservation calendars,
// processors with overlap-dependent compute rates), schedules and their
// replay and verification, and the trace every run records.
//
// Time is a float64 in model units. Nothing here is package-level mutable
// state, so many engines run side by side, one per goroutine.
package sim

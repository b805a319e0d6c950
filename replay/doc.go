// Package replay runs a sim.Schedule on a models.Platform through the
// kernel's event calendar and verifies it: it reports every breach of the
// platform's rules as a sim.Violation and records the trace of the run.
//
// The engine core (replay.go, events.go, ordered.go, port.go, check.go,
// trace.go) holds the calendar, the actions, their ports, the order they
// start in and the trace. How a started action runs belongs to its
// platform: a transfer model (transfer.go: transfers whose course is known
// when they start; tree.go adds the tree's bandwidth booking) and a
// compute model (compute.go: an amount as time; processor.go: compute
// rates that follow the transfers in progress). Each platform kind is one
// file that builds the kind's resources and models on the replay and
// binds every action to them, behind the Platform interface; Register
// adds a kind.
package replay

// Package replay runs a sim.Schedule on a models.Platform through the
// kernel's event calendar and verifies it: it reports every breach of the
// platform's rules as a sim.Violation and records the trace of the run.
//
// Each platform kind is one file that builds the kind's resources (ports,
// links, rated processors) on the replay and binds every action to them,
// behind the Platform interface; Register adds a kind.
package replay

// Package slowtest gates the slow, exhaustive checks of the test suite
// (bounds over every state of many trees, MILP cross-checks, large
// conformance runs) behind the environment variable NETSCHED_SLOW, so that
// `go test ./...` stays quick on a busy machine while CI still runs every
// check, in a step of its own (.ci/run: "NETSCHED_SLOW=1 go test ./...").
// It also gates the few tests that read a wall clock (a time budget
// honoured, progress lines every 2 s) behind NETSCHED_TIMING, which
// .ci/run sets for them alone in another step.
package slowtest

import (
	"os"
	"testing"
)

// TimingVar is the environment variable that runs the tests that read a
// wall clock: "1".
const TimingVar = "NETSCHED_TIMING"

// Var is the environment variable that turns the slow checks on: any value
// but "" and "0".
const Var = "NETSCHED_SLOW"

// Enabled reports whether the slow checks run.
func Enabled() bool {
	v := os.Getenv(Var)
	return v != "" && v != "0"
}

// Skip skips t unless the slow checks run, naming the variable that runs it.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("slow: set %s=1 to run it (.ci/run does, in its step of slow checks)", Var)
	}
}

// Pick returns quick, or full when the slow checks run: the size of an
// instance, a number of seeds or a node budget that a test checks in
// every run, and its exhaustive version under NETSCHED_SLOW=1.
func Pick[T any](quick, full T) T {
	if Enabled() {
		return full
	}
	return quick
}

// TimingEnabled reports whether the tests that read a wall clock run.
func TimingEnabled() bool { return os.Getenv(TimingVar) == "1" }

// Timing skips t unless NETSCHED_TIMING=1: t reads a wall clock, and its
// verdict holds only within tolerances, so it runs in a step of its own.
func Timing(t testing.TB) {
	t.Helper()
	if !TimingEnabled() {
		t.Skipf("reads a wall clock: run it alone with %s=1 (.ci/run does, in its step of timing tests)", TimingVar)
	}
}

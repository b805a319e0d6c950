// Package tooltest finds, for a test, a program from Debian's packages
// that the test runs (a solver, a trace reader): without it the test is
// skipped, or fails under CI=true, where .ci/run installs it.
package tooltest

import (
	"os"
	"testing"
)

// Path returns the path find gives, or skips t with find's error (which
// says what to install), or fails t when the environment has CI=true.
func Path(t testing.TB, find func() (string, error)) string {
	t.Helper()
	path, err := find()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%v, and CI=true", err)
		}
		t.Skip(err)
	}
	return path
}

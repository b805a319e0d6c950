// Package tooltest finds, for a test, a program that the test runs (a
// solver, a PDF or trace reader, the go command): without it the test is
// skipped, or fails when the environment has CI=true, where .ci/run
// installs it.
package tooltest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// Path returns the path find gives, or skips t with find's error (which
// says what to install), or fails t under CI=true.
func Path(t testing.TB, find func() (string, error)) string {
	t.Helper()
	path, err := find()
	if err != nil {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("%v, and CI=true", err)
		}
		t.Skip(err)
	}
	return path
}

// Command is Path for a command on PATH from a Debian package ("" when it
// comes with the toolchain, as go does).
func Command(t testing.TB, name, debianPackage string) string {
	t.Helper()
	return Path(t, func() (string, error) {
		path, err := exec.LookPath(name)
		switch {
		case err == nil:
			return path, nil
		case debianPackage == "":
			return "", fmt.Errorf("%s is not on PATH: %w", name, err)
		}
		return "", fmt.Errorf("%s is not installed (Debian package %s): %w", name, debianPackage, err)
	})
}

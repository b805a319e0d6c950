// Package shareddata finds the project's shared data sets (the Standard Task
// Graph Set) for tests, which skip with a clear message when they are absent.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// STGDir returns the directory of the Standard Task Graph Set, found as
// shared/data/stg in the working directory or any directory above it
// (the checkout's ../shared/data/stg in this project's layout). It skips
// the test when there is none.
func STGDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		cand := filepath.Join(dir, "shared", "data", "stg")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("STG data absent: no shared/data/stg above the package directory")
		}
		dir = parent
	}
}

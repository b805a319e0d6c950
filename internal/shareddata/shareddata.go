// Package shareddata finds the project's shared data sets (the Standard Task
// Graph Set, WfCommons workflow instances, flow instances) for tests, which skip with a
// clear message when they are absent.
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
	return find(t, "stg", "STG data")
}

// WfCommonsDir returns the directory of the WfCommons workflow instances,
// found as shared/data/wfcommons like STGDir's set. It skips the test when
// there is none.
func WfCommonsDir(t testing.TB) string {
	t.Helper()
	return find(t, "wfcommons", "WfCommons instances")
}

// FlowsDir returns the directory of the flow instances with hand-checked
// end times (network.ReadFile's format, keys expected and expected_cm02),
// found as shared/data/flows like STGDir's set. It skips the test when
// there is none.
func FlowsDir(t testing.TB) string {
	t.Helper()
	return find(t, "flows", "flow instances")
}

// find returns shared/data/name in the working directory or the nearest
// directory above it that has one, or skips the test naming what.
func find(t testing.TB, name, what string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		cand := filepath.Join(dir, "shared", "data", name)
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("%s absent: no shared/data/%s above the package directory", what, name)
		}
		dir = parent
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadOptions: an unknown option, a value of the wrong type, one out of
// range, a duplicate label, and a sweep axis on an option or a variant the
// scenario lacks stop run and sweep before anything runs: exit 2, the
// file, line and field named, and no output written.
func TestBadOptions(t *testing.T) {
	for _, tc := range []struct {
		file string
		want string
	}{
		{"option-unknown", `testdata/option-unknown.yaml: line 8: policies[0].kk: unknown option "kk"; did you mean k? (cross takes k, runs, select`},
		{"option-type", "testdata/option-type.yaml: line 8: policies[1].runs: want a whole number >= 1, got 2.5"},
		{"option-range", "testdata/option-range.yaml: line 8: policies[0].k: want a whole number >= 1, got 0"},
		{"duplicate-label", `testdata/duplicate-label.yaml: line 7: policies[1].label: "cross-k5" already names the policy at line 6`},
		{"axis-missing-option", `testdata/axis-missing-option.yaml: line 9: sweep.cross-k5.kk: policy cross-k5: unknown option "kk": cross takes k, runs, select`},
		{"axis-missing-label", `testdata/axis-missing-label.yaml: line 9: sweep.cross-k9.k: `}, // the reason: TestBadInput
	} {
		for _, cmd := range []string{"run", "sweep"} {
			t.Run(tc.file+"/"+cmd, func(t *testing.T) {
				dir := t.TempDir()
				args := []string{cmd, "testdata/" + tc.file + ".yaml", "--out", filepath.Join(dir, "out")}
				if cmd == "sweep" {
					args = []string{cmd, "testdata/" + tc.file + ".yaml", "-q", "-o", filepath.Join(dir, "out.csv")}
				}
				code, out, errs := netsched(t, args...)
				if code != 2 || !strings.Contains(errs, tc.want) {
					t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tc.want)
				}
				if out != "" {
					t.Errorf("stdout: %q", out)
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 0 {
					t.Errorf("written: %v", entries)
				}
			})
		}
	}
}

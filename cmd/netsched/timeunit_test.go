package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/plots"
)

// TestSweepTimeUnit checks that a plot reads its sweep's platform kind from
// the results' manifest: task times for a bundled delay-platform scenario,
// seconds otherwise or when the scenario cannot be found.
func TestSweepTimeUnit(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		manifest string // "" for none
		want     string
	}{
		{"delay platform", `{"scenario": "ablation-cross-k"}`, plots.TaskTimes},
		{"delay platform, small", `{"scenario": "delay-small"}`, plots.TaskTimes},
		{"crossbar", `{"scenario": "crossbar-hetero"}`, ""},
		{"tree", `{"scenario": "tree-small"}`, ""},
		{"scenario file", `{"scenario": "my-own"}`, ""},
		{"no manifest", "", ""},
		{"broken manifest", `{"scenario": `, ""},
	} {
		csv := filepath.Join(dir, tc.name+".csv")
		if tc.manifest != "" {
			if err := os.WriteFile(csv+".sweep.json", []byte(tc.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := sweepTimeUnit(csv); got != tc.want {
			t.Errorf("%s: sweepTimeUnit = %q, want %q", tc.name, got, tc.want)
		}
	}
}

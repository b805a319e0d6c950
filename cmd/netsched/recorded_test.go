package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
)

// TestReplayRecordedByHand replays testdata/recorded-fork.json, worked
// out by hand: a (2 s) on n1's first core; b (3 s) after it there, its
// data free; c on n2 (γ = 2000/1000, 4 s as recorded) once a's 200 MB
// reach it at 10^8 bytes/s, [2, 4]; c's 100 MB back to n1 during [8, 9];
// d (1 s) then ends at 10, against the 12 recorded.
func TestReplayRecordedByHand(t *testing.T) {
	code, out, errs := netsched(t, "replay-recorded", "testdata/recorded-fork.json", "--bandwidth", "1e8")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "| recorded-fork.json | 4 | 2 (3) | document | 12.0 | 10.0 | -16.7 % | 7.0, 3 | 0.7 | 10.0 | yes |") {
		t.Errorf("unexpected table:\n%s", out)
	}
}

// TestReplayRecordedShared replays every shared instance: each replay is
// verified (exit 0, every row ends in yes).
func TestReplayRecordedShared(t *testing.T) {
	dir := shareddata.WfCommonsDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 8 {
		t.Fatalf("%d instances in %s, want 8", len(files), dir)
	}
	code, out, errs := netsched(t, append([]string{"replay-recorded"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if rows := regexp.MustCompile(`(?m)\.json \|.* yes \|$`).FindAllString(out, -1); len(rows) != 8 {
		t.Errorf("%d verified rows:\n%s", len(rows), out)
	}
}

// TestReplayRecordedBadInput: a malformed instance names its JSON path,
// a bad flag its value; both exit 2.
func TestReplayRecordedBadInput(t *testing.T) {
	data, err := os.ReadFile("testdata/recorded-fork.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), `"parents": ["a"], "children": ["d"], "inputFiles": ["f1"]`,
		`"parents": ["x"], "children": ["d"], "inputFiles": ["f1"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{bad}, "workflow.specification.tasks[1].parents[0]"},
		{[]string{"testdata/recorded-fork.json", "--bandwidth", "0"}, "--bandwidth must be a finite number > 0"},
		{[]string{filepath.Join(dir, "none.json")}, "none.json"},
		{nil, "want at least one"},
	} {
		code, _, errs := netsched(t, append([]string{"replay-recorded"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestPlatformFromWfCommons runs HEFT on a scenario whose platform and
// task graph both come from testdata/recorded-fork.json: three cores,
// named by machine, at the bandwidth given.
func TestPlatformFromWfCommons(t *testing.T) {
	file, err := filepath.Abs("testdata/recorded-fork.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	scen := filepath.Join(dir, "fork.yaml")
	yaml := "platform: {from: {wfcommons: " + file + ", bandwidth: 1e8}}\nproblem: {dag: {from: {wfcommons: " + file + "}}}\npolicies: [heft, cpop, dsc]\n"
	if err := os.WriteFile(scen, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := netsched(t, "run", scen)
	if code != 0 || regexp.MustCompile(`(?m) (NO|ERROR)$`).MatchString(out) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if err := os.WriteFile(scen, []byte("platform: {from: {wfcommons: "+file+"}}\nproblem: {dag: {tasks: [{weight: 1}]}}\npolicies: [heft]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := netsched(t, "run", scen); code != 2 || !strings.Contains(errs, "platform.from.bandwidth") {
		t.Errorf("no bandwidth: exit %d, %s", code, errs)
	}
}

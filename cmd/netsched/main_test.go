package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/netsched/netsched/plots/sweepplot"
	"github.com/netsched/netsched/sweep"
)

// netsched runs the CLI in-process and returns its exit code and outputs.
func netsched(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunBundledScenarios(t *testing.T) {
	for _, name := range []string{"crossbar-hetero", "multicluster-two", "tree-small", "delay-small"} {
		t.Run(name, func(t *testing.T) {
			code, out, errs := netsched(t, "run", name)
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			// The verified column is the last: a failed run's line ends in NO or ERROR.
			if !strings.Contains(out, "verified") || regexp.MustCompile(`(?m) (NO|ERROR)$`).MatchString(out) {
				t.Errorf("unexpected table:\n%s", out)
			}
		})
	}
}

func TestRunOutDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if code, out, errs := netsched(t, "run", "delay-small", "--out", dir, "--gantt", "svg"); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, f := range []string{"results.csv", "results.json", "sequential.schedule.json", "unclustered.gantt.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing output: %v", err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".netsched-tmp") {
			t.Errorf("temporary directory left behind: %s", e.Name())
		}
	}
	// the schedule written by run verifies
	code, out, errs := netsched(t, "verify", "-s", "delay-small", filepath.Join(dir, "unclustered.schedule.json"))
	if code != 0 {
		t.Fatalf("verify: exit %d\n%s\n%s", code, out, errs)
	}
}

func TestRunDeterministicCSV(t *testing.T) {
	_, a, _ := netsched(t, "run", "crossbar-hetero", "--format", "csv")
	_, b, _ := netsched(t, "run", "crossbar-hetero", "--format", "csv", "--jobs", "1")
	if a != b || a == "" {
		t.Fatalf("CSV differs between runs:\n%s\n---\n%s", a, b)
	}
}

// TestBadInput: each bad input exits 2 with an error naming the file and
// line or field, and writes no output file.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown key", []string{"run", "testdata/unknown-key.yaml"}, []string{"testdata/unknown-key.yaml", "line 9", "speed"}},
		{"beta zero", []string{"run", "testdata/beta-zero.yaml"}, []string{"testdata/beta-zero.yaml", "line 4", "platform.crossbar.beta"}},
		{"tree cycle", []string{"run", "testdata/tree-cycle.yaml"}, []string{"testdata/tree-cycle.yaml", "line 8", "cycle"}},
		{"schedule names a missing processor", []string{"verify", "-s", "crossbar-hetero", "testdata/bad-node.schedule.json"},
			[]string{"bad-node.schedule.json", "actions[1].to", "17"}},
		{"schedule is null", []string{"verify", "-s", "crossbar-hetero", "testdata/null.schedule.json"},
			[]string{"null.schedule.json:1:1:", "got null"}},
		{"schedule names no node", []string{"verify", "-s", "crossbar-hetero", "testdata/bad-name.schedule.json"},
			[]string{"bad-name.schedule.json:5:49: actions[1].to:", `no node is named "P99"`, "fast0"}},
		{"missing scenario", []string{"run", "no-such-scenario"}, []string{"no-such-scenario"}},
		{"unknown flag", []string{"run", "--frobnicate", "delay-small"}, []string{"frobnicate"}},
		{"bad format", []string{"run", "delay-small", "--format", "xml"}, []string{"--format"}},
		{"bad trace format", []string{"run", "delay-small", "--trace", "xml"}, []string{"--trace", "xml"}},
		{"unknown command", []string{"frob"}, []string{"unknown command"}},
		{"axis names no field", []string{"sweep", "delay-small", "--set", "platform.delay.rhoo=1,2"}, []string{"rhoo"}},
		{"range with step 0", []string{"sweep", "delay-small", "--set", "rho=0:3:0"}, []string{"step"}},
		{"duplicate label", []string{"run", "testdata/duplicate-label.yaml"},
			[]string{"testdata/duplicate-label.yaml: line 7: policies[1].label:", `"cross-k5" already names the policy at line 6`}},
		{"file axis on a missing label", []string{"run", "testdata/axis-missing-label.yaml"},
			[]string{"testdata/axis-missing-label.yaml: line 9: sweep.cross-k9.k:", `no policy of the scenario is labelled or named "cross-k9"`, "cross-k5"}},
		{"sweep of a missing label", []string{"sweep", "testdata/labels.yaml", "--set", "cross-k9.k=1:3:1", "-o", "OUT"},
			[]string{"testdata/labels.yaml: --set cross-k9.k:", `no policy of the scenario is labelled or named "cross-k9"`}},
		{"sweep of an option the policy does not have", []string{"sweep", "testdata/labels.yaml", "--set", "cross-k5.kk=1:3:1", "-o", "OUT"},
			[]string{"testdata/labels.yaml: --set cross-k5.kk: policy cross-k5:", `unknown option "kk": cross takes k, runs, select`}},
		{"sweep of an option out of its range", []string{"sweep", "testdata/labels.yaml", "--set", "cross-k5.k=0:3:1", "-o", "OUT"},
			[]string{"testdata/labels.yaml: --set cross-k5.k", "cross-k5.k = 0: want a whole number >= 1, got 0"}},
		{"file sweep of an option out of its range", []string{"sweep", "testdata/axis-bad-option-value.yaml", "-o", "OUT"},
			[]string{"axis-bad-option-value.yaml: line 10: sweep.cross-k5.k[1] = 2.5: want a whole number >= 1"}},
		{"sweep of an option that is a word", []string{"sweep", "testdata/axis-word-option.yaml", "-o", "OUT"},
			[]string{"axis-word-option.yaml: line 8: sweep.cross-cp.select:", "option select is one of cp, random, largest, not a number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append(append([]string(nil), tt.args...), "--out", dir)
			if tt.args[0] == "verify" || tt.args[0] == "frob" || tt.args[0] == "sweep" {
				args = append([]string(nil), tt.args...)
				for i, a := range args {
					if a == "OUT" {
						args[i] = dir
					}
				}
			}
			code, out, errs := netsched(t, args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("error does not mention %q:\n%s", w, errs)
				}
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("output directory was created despite bad input")
			}
		})
	}
}

// TestTraceFiles writes traces with run --trace, gantt --trace and verify
// --trace, and refuses a trace without a place or a format.
func TestTraceFiles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	tests := []struct {
		name  string
		args  []string
		code  int
		files []string // files that must exist, or a text the error must hold
	}{
		{"run", []string{"run", "delay-small", "--out", out, "--gantt", "none", "--trace", "paje"}, 0,
			[]string{filepath.Join(out, "sequential.trace.paje"), filepath.Join(out, "unclustered.trace.paje")}},
		{"gantt without -o", []string{"gantt", "tree-small", "-p", "fnf", "--trace", filepath.Join(dir, "g.json")}, 0,
			[]string{filepath.Join(dir, "g.json")}},
		{"verify", []string{"verify", "-s", "delay-small", filepath.Join(out, "unclustered.schedule.json"), "--trace", filepath.Join(dir, "v.paje")}, 0,
			[]string{filepath.Join(dir, "v.paje")}},
		{"run without --out", []string{"run", "delay-small", "--trace", "json"}, 2, []string{"--out"}},
		{"gantt with a .txt", []string{"gantt", "tree-small", "--trace", filepath.Join(dir, "g.txt")}, 2, []string{"g.txt", ".paje"}},
		{"gantt with neither", []string{"gantt", "tree-small"}, 2, []string{"-o FILE"}},
	}
	for _, tt := range tests { // in order: verify reads run's schedule
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, errs := netsched(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, errs)
			}
			for _, f := range tt.files {
				if code != 0 {
					if !strings.Contains(errs, f) {
						t.Errorf("error does not mention %q:\n%s", f, errs)
					}
					continue
				}
				if b, err := os.ReadFile(f); err != nil || len(b) == 0 {
					t.Errorf("missing or empty trace %s (%v)", f, err)
				}
			}
		})
	}
}

// TestVerifyNamedSchedule verifies schedules that name their nodes: one
// written by hand for a crossbar, and those run writes for a tree with
// each node index replaced by the node's name.
func TestVerifyNamedSchedule(t *testing.T) {
	if code, out, errs := netsched(t, "verify", "-s", "crossbar-hetero", "testdata/named.schedule.json"); code != 0 {
		t.Fatalf("crossbar: exit %d\n%s\n%s", code, out, errs)
	}
	dir := t.TempDir()
	if code, out, errs := netsched(t, "run", "tree-small", "--out", dir, "--gantt", "none"); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	names := strings.NewReplacer(`"from": 0,`, `"from": "h0",`, `"to": 1,`, `"to": "h1",`, `"to": 5,`, `"to": "h3",`)
	for _, policy := range []string{"fnf", "flat-sequential"} {
		path := filepath.Join(dir, policy+".schedule.json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		named := names.Replace(string(data))
		if !strings.Contains(named, `"from": "h0"`) {
			t.Fatalf("%s: no transfer from h0 to name:\n%s", policy, data)
		}
		if err := os.WriteFile(path, []byte(named), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errs := netsched(t, "verify", "-s", "tree-small", path); code != 0 {
			t.Errorf("%s: exit %d\n%s\n%s", policy, code, out, errs)
		}
	}
}

// TestVerifyUnsolved verifies schedules that keep the platform's rules
// but do not solve their scenario's problem: exit 1, and the violation
// names the processor, task or node by the scenario's name.
func TestVerifyUnsolved(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := netsched(t, "run", "tree-small", "--out", dir, "--gantt", "none"); code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	flat, err := os.ReadFile(filepath.Join(dir, "flat-sequential.schedule.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(flat, &s); err != nil {
		t.Fatal(err)
	}
	actions := s["actions"].([]any)
	s["actions"] = actions[:len(actions)-1] // h5 never receives the message
	s["claimed_makespan"] = actions[len(actions)-1].(map[string]any)["start"]
	dropped, _ := json.Marshal(s)
	for _, tc := range []struct {
		name, scenario, schedule string
		want                     []string
	}{
		{"empty", "crossbar-hetero", `{"actions": []}`, []string{"load-not-conserved", "fast0", "owns 600"}},
		{"task left out", "delay-small", `{"claimed_makespan": 1, "actions": [{"kind": "compute", "node": 0, "amount": 1, "start": 0, "label": "src"}]}`,
			[]string{"task-missing", "task a (weight 2) is never computed"}},
		{"reception dropped", "tree-small", string(dropped), []string{"not-received", "h5 never receives the whole message"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(path, []byte(tc.schedule), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := netsched(t, "verify", "-s", tc.scenario, path)
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output does not mention %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestErrorRowOutputs runs a scenario one of whose policies fails: the
// JSON output parses, with the error and null figures, and --out writes
// the results and what succeeded.
func TestErrorRowOutputs(t *testing.T) {
	code, out, errs := netsched(t, "run", "testdata/error-row.yaml", "--format", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) != 2 || rows[1]["simulated_makespan"] != nil || !strings.Contains(rows[1]["error"].(string), "broadcasts from one root") {
		t.Errorf("rows: %v", rows)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if code, _, errs := netsched(t, "run", "testdata/error-row.yaml", "--out", dir, "--gantt", "none"); code != 1 {
		t.Fatalf("--out: exit %d, want 1\n%s", code, errs)
	}
	for _, f := range []string{"results.csv", "results.json", "flat-sequential.schedule.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestSweepOutputPath gives sweep -o paths where no file can be written:
// exit 2, a message naming the path, and nothing written.
func TestSweepOutputPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{filepath.Join(file, "x.csv"), file + " is not a directory"},
		{filepath.Join(file, "y", "x.csv"), file + " is not a directory"},
		{filepath.Join(dir, "missing", "x.csv"), "no such file or directory"},
	} {
		code, _, errs := netsched(t, "sweep", "delay-small", "-q", "-o", tc.out)
		if code != 2 || !strings.Contains(errs, "cannot write "+tc.out) || !strings.Contains(errs, tc.want) {
			t.Errorf("-o %s: exit %d, %q; want 2 and %q", tc.out, code, errs, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files written: %v", entries)
	}
}

// TestPlotWhere sweeps a decimal range and plots one of its values: the
// value is found as written, and a value no row has is an error listing
// those there are.
func TestPlotWhere(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.csv")
	if code, _, errs := netsched(t, "sweep", "crossbar-hetero", "-q", "-o", out, "--set", "beta=0.01:0.1:0.01", "--set", "alpha=0.001,0.002"); code != 0 {
		t.Fatalf("sweep: %s", errs)
	}
	if data, _ := os.ReadFile(out); !strings.Contains(string(data), ",0.06,") || strings.Contains(string(data), "0.0600000") {
		t.Errorf("beta 0.06 is not written as 0.06:\n%s", data)
	}
	png := filepath.Join(dir, "w.png")
	if code, _, errs := netsched(t, "plot", out, "-o", png, "--x", "alpha", "--where", "beta=0.06"); code != 0 {
		t.Errorf("--where beta=0.06: exit %d, %s", code, errs)
	}
	code, _, errs := netsched(t, "plot", out, "-o", png, "--x", "alpha", "--where", "beta=0.065")
	if code != 2 || !strings.Contains(errs, "0.05, 0.06, 0.07") {
		t.Errorf("--where beta=0.065: exit %d, %s; want 2 and the values", code, errs)
	}
}

// TestMemoryBudget asks for more runs than memory holds: exit 2 at once,
// naming the counts and the flag, before anything is allocated.
func TestMemoryBudget(t *testing.T) {
	for _, args := range [][]string{
		{"run", "delay-small", "--seeds", "1000000000"},
		{"sweep", "delay-small", "--set", "rho=0:99:1", "--seeds", "1000", "--max-memory", "20MB"},
	} {
		code, _, errs := netsched(t, args...)
		if code != 2 || !strings.Contains(errs, "seeds =") || !strings.Contains(errs, "--max-memory") {
			t.Errorf("%v: exit %d, %s; want 2 naming the runs and --max-memory", args, code, errs)
		}
	}
	if code, _, errs := netsched(t, "sweep", "delay-small", "--max-memory", "lots"); code != 2 || !strings.Contains(errs, "4GiB") {
		t.Errorf("--max-memory lots: exit %d, %s", code, errs)
	}
	// A budget below what netsched takes to run at all is refused as such.
	if code, _, errs := netsched(t, "run", "crossbar-hetero", "--max-memory", "1MB"); code != 2 || !strings.Contains(errs, "takes to run at all") {
		t.Errorf("--max-memory 1MB: exit %d, %s", code, errs)
	}
}

func TestSweepRefusesOtherCSV(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	if code, _, errs := netsched(t, "sweep", "delay-small", "-q", "-o", out); code != 0 {
		t.Fatalf("sweep: %s", errs)
	}
	before, _ := os.ReadFile(out)
	code, _, errs := netsched(t, "sweep", "crossbar-hetero", "-q", "-o", out)
	if code != 2 || !strings.Contains(errs, "another sweep") {
		t.Fatalf("exit %d, %s; want 2 and a message about another sweep", code, errs)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("the existing CSV was changed")
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"--version"}, {"run", "--help"}, {"sweep", "--help"}, {"list"}} {
		if code, out, errs := netsched(t, args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		} else if n := strings.Count(out, "Usage:"); n > 1 {
			t.Errorf("%v: the help is printed %d times", args, n)
		}
	}
}

// TestSweepKillResume kills a sweep process with SIGKILL half-way and
// resumes it: the final CSV equals an uninterrupted run. While the first
// runs, a second sweep on the same file is refused, naming it; the resumed
// one takes over the lock the killed one left, and leaves no file but the
// results and their manifest.
func TestSweepKillResume(t *testing.T) {
	bin := buildNetsched(t)
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"sweep", "delay-small", "--set", "rho=0:2499:1", "--seeds", "2", "--jobs", "1", "-q", "-o", out}
	}
	want := filepath.Join(dir, "want.csv")
	if out, err := exec.Command(bin, args(want)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sweep: %v\n%s", err, out)
	}

	got := filepath.Join(dir, "got.csv")
	cmd := exec.Command(bin, args(got)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := got + ".partial"
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	if !waitFor(exited, func() bool { return lines(journal) > 2000 }) {
		t.Fatalf("the sweep ended before its journal had 2000 lines")
	}
	// Stopped (SIGSTOP), the first sweep holds its lock however long the
	// second takes to start: the second stops at once, naming the first.
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	second, err := exec.Command(bin, args(got)...).CombinedOutput()
	if code := exitCode(err); code != 2 || !strings.Contains(string(second), fmt.Sprintf("another sweep (pid %d on ", cmd.Process.Pid)) {
		t.Errorf("second sweep on the same file: exit %d, %s; want 2 naming pid %d", code, second, cmd.Process.Pid)
	}
	cmd.Process.Kill() // SIGKILL: no cleanup runs, the lock file stays
	<-exited
	b, err := os.ReadFile(journal)
	if err != nil {
		t.Fatalf("no journal after kill: %v", err)
	}
	lines := bytes.Count(b, []byte("\n"))
	if lines >= 10001 {
		t.Skipf("the sweep finished before it could be killed (%d lines); nothing to resume", lines)
	}
	if out, err := exec.Command(bin, args(got)...).CombinedOutput(); err != nil {
		t.Fatalf("resumed sweep: %v\n%s", err, out)
	}
	w, _ := os.ReadFile(want)
	g, _ := os.ReadFile(got)
	if !bytes.Equal(w, g) {
		t.Fatalf("resumed sweep (killed after %d journal lines) differs from an uninterrupted one", lines-1)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 { // want and got, each with its manifest
		t.Errorf("left in the directory: %v", entries)
	}
	t.Logf("killed after %d of 10000 runs; resumed result identical", lines-1)
}

// exitCode is the exit status of a finished command's error (0 for nil).
func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestLabelsInEveryOutput runs a scenario with two labelled variants of
// one policy: the table, CSV, JSON, schedule and Gantt file names, a
// schedule file's policy, gantt -p, a sweep over one variant's option and
// its plot all name the variants by their labels.
func TestLabelsInEveryOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	code, table, errs := netsched(t, "run", "testdata/labels.yaml", "--out", out, "--gantt", "svg")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, table, errs)
	}
	labels := []string{"cross-k5", "cross-k1", "sequential"}
	for _, l := range labels {
		if !strings.Contains(table, " "+l+" ") {
			t.Errorf("table lacks %s:\n%s", l, table)
		}
		for _, f := range []string{l + ".schedule.json", l + ".gantt.svg"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("missing output: %v", err)
			}
		}
	}
	for _, f := range []string{"results.csv", "results.json"} {
		b, _ := os.ReadFile(filepath.Join(out, f))
		if !strings.Contains(string(b), "cross-k5") || !strings.Contains(string(b), "cross-k1") {
			t.Errorf("%s does not name the variants by label:\n%s", f, b)
		}
	}
	b, _ := os.ReadFile(filepath.Join(out, "cross-k1.schedule.json"))
	if !strings.Contains(string(b), `"policy": "cross-k1"`) {
		t.Errorf("schedule file does not name its variant:\n%.300s", b)
	}
	if code, o, e := netsched(t, "verify", "-s", "testdata/labels.yaml", filepath.Join(out, "cross-k1.schedule.json")); code != 0 || !strings.Contains(o, "cross-k1") {
		t.Errorf("verify: exit %d\n%s\n%s", code, o, e)
	}
	g := filepath.Join(dir, "g.svg")
	if code, o, e := netsched(t, "gantt", "testdata/labels.yaml", "-p", "cross-k1", "-o", g); code != 0 {
		t.Errorf("gantt -p cross-k1: exit %d\n%s\n%s", code, o, e)
	}
	if code, _, e := netsched(t, "gantt", "testdata/labels.yaml", "-p", "cross", "-o", g); code != 2 || !strings.Contains(e, "cross-k5, cross-k1, sequential") {
		t.Errorf("gantt -p cross (a name that has labels): exit %d\n%s", code, e)
	}
	csv := filepath.Join(dir, "k.csv")
	if code, o, e := netsched(t, "sweep", "testdata/labels.yaml", "--set", "cross-k5.k=1:3:1", "-o", csv, "-q"); code != 0 {
		t.Fatalf("sweep: exit %d\n%s\n%s", code, o, e)
	}
	b, _ = os.ReadFile(csv)
	if !strings.HasPrefix(string(b), "scenario,cross-k5.k,policy,") || strings.Count(string(b), ",cross-k5,") != 3 || strings.Count(string(b), ",cross-k1,") != 3 {
		t.Errorf("sweep CSV:\n%s", b)
	}
	if code, o, e := netsched(t, "plot", csv, "-o", filepath.Join(dir, "k.svg")); code != 0 {
		t.Errorf("plot: exit %d\n%s\n%s", code, o, e)
	}
	tab, err := sweep.ReadCSVFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	series, _, err := sweepplot.Lines(tab, sweepplot.Spec{Metric: "simulated_makespan"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range series {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, labels) {
		t.Errorf("plot lines %v, want %v", names, labels)
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/sweep"
)

// TestSweepExitStatus sweeps a scenario where one policy fails at every
// point: exit 1 after every output is written, with one line on stderr
// counting the failed runs; the same again when the finished sweep is
// rerun; and exit 0 for a sweep where every run is verified.
func TestSweepExitStatus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "e.csv")
	const failed = "netsched: 2 of 4 runs failed: see the error column\n"
	for i, args := range [][]string{
		{"sweep", "testdata/error-row.yaml", "--set", "size=1,2", "-q", "-o", out},
		{"sweep", "testdata/error-row.yaml", "--set", "size=1,2", "-q", "-o", out}, // finished: read again
		{"sweep", "testdata/error-row.yaml", "--set", "size=1,2", "--format", "csv"},
	} {
		code, stdout, stderr := netsched(t, args...)
		if code != 1 || stderr != failed {
			t.Errorf("%d: %q: exit %d, stderr %q; want 1 and %q", i, args, code, stderr, failed)
		}
		if strings.Contains(strings.Join(args, " "), "-o") {
			if want := out + ": 4 rows (2 failed verification)\n"; stdout != want {
				t.Errorf("%d: stdout %q, want %q", i, stdout, want)
			}
			csv, err := os.ReadFile(out)
			if err != nil || strings.Count(string(csv), "\n") != 5 || strings.Count(string(csv), "broadcasts from one root") != 2 {
				t.Errorf("%d: the CSV is not whole: %v\n%s", i, err, csv)
			}
			for _, leftover := range []string{out + ".partial", out + ".lock"} {
				if _, err := os.Stat(leftover); err == nil {
					t.Errorf("%d: %s left behind", i, leftover)
				}
			}
		} else if strings.Count(stdout, "\n") != 5 {
			t.Errorf("%d: stdout is not the whole table:\n%s", i, stdout)
		}
	}
	if code, _, stderr := netsched(t, "sweep", "delay-small", "--set", "rho=1,2", "-q", "-o", filepath.Join(dir, "ok.csv")); code != 0 || stderr != "" {
		t.Errorf("a verified sweep: exit %d, stderr %q", code, stderr)
	}
}

// TestSweepVerdict counts errors and unverified runs apart.
func TestSweepVerdict(t *testing.T) {
	for _, tc := range []struct {
		errors, unverified, ok int
		want                   string
	}{
		{0, 0, 3, ""},
		{3, 0, 997, "3 of 1,000 runs failed: see the error column"},
		{0, 2, 5, "2 of 7 runs failed verification: see the violations column"},
		{1, 1, 1234565, "2 of 1,234,567 runs failed: 1 with an error (see the error column), 1 not verified (see the violations column)"},
	} {
		var rows []*sweep.Row
		for range tc.errors {
			rows = append(rows, &sweep.Row{Error: "boom"})
		}
		for range tc.unverified {
			rows = append(rows, &sweep.Row{})
		}
		for range tc.ok {
			rows = append(rows, &sweep.Row{Verified: true})
		}
		err := sweepVerdict(rows)
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.want {
				t.Errorf("%+v: %q, want %q", tc, got, tc.want)
			}
		} else if tc.want != "" {
			t.Errorf("%+v: nil, want %q", tc, tc.want)
		}
	}
}

// TestHelp checks every command's --help: what the command does, a Flags
// heading only over flags, and the exit status of run and sweep.
func TestHelp(t *testing.T) {
	for name := range commands {
		code, out, _ := netsched(t, name, "--help")
		if code != 0 || !strings.HasPrefix(out, "Usage: netsched "+name) {
			t.Errorf("%s --help: exit %d\n%s", name, code, out)
		}
		if about := commandAbout(name); about == "" || !strings.Contains(out, about[1:]+".\n") {
			t.Errorf("%s --help does not say what it does (%q):\n%s", name, about, out)
		}
		if strings.Contains(out, "Flags:\n") && !strings.Contains(out, "Flags:\n  ") || strings.HasSuffix(out, "Flags:\n") {
			t.Errorf("%s --help: an empty Flags heading:\n%s", name, out)
		}
	}
	for _, name := range []string{"run", "sweep"} {
		_, out, _ := netsched(t, name, "--help")
		for _, want := range []string{"Exit status:", "  1 ", "  2 ", "  124 "} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help does not document the exit status (%q):\n%s", name, want, out)
			}
		}
	}
}

// TestNoArguments: list and doc take none, and say so (exit 2).
func TestNoArguments(t *testing.T) {
	for _, name := range []string{"list", "doc"} {
		code, out, errs := netsched(t, name, "extra")
		if want := "netsched: " + name + ` takes no arguments, got ["extra"]` + "\n"; code != 2 || out != "" || errs != want {
			t.Errorf("%s extra: exit %d, stdout %q, stderr %q; want 2 and %q", name, code, out, errs, want)
		}
	}
}

// TestMergeExitStatus merges the shards of a sweep where one policy fails
// at every point: the merged file is written whole, then merge exits 1
// with sweep's line on stderr; shards where every run is verified merge
// with exit 0 and nothing on stderr.
func TestMergeExitStatus(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		scenario string
		axis     string
		code     int
		stderr   string
	}{
		{"testdata/error-row.yaml", "size=1,2", 1, "netsched: 2 of 4 runs failed: see the error column\n"},
		{"delay-small", "rho=1,2", 0, ""},
	} {
		name := strings.TrimSuffix(filepath.Base(tc.scenario), ".yaml")
		var shards []string
		for i := range 2 {
			shard := filepath.Join(dir, fmt.Sprintf("%s-%d.csv", name, i))
			netsched(t, "sweep", tc.scenario, "--set", tc.axis, "-q", "--shard", fmt.Sprintf("%d/2", i), "-o", shard)
			shards = append(shards, shard)
		}
		out := filepath.Join(dir, name+".csv")
		code, stdout, stderr := netsched(t, append([]string{"merge", "-o", out}, shards...)...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("merge %s: exit %d, stderr %q; want %d and %q", name, code, stderr, tc.code, tc.stderr)
		}
		if want := out + ": merged 2 shards\n"; stdout != want {
			t.Errorf("merge %s: stdout %q, want %q", name, stdout, want)
		}
		csv, err := os.ReadFile(out)
		if err != nil || strings.Count(string(csv), "\n") != 5 {
			t.Errorf("merge %s: the merged file is not whole: %v\n%s", name, err, csv)
		}
	}
}

// TestIdleSeedsWarn: seeds that change nothing (a fixed generated platform,
// deterministic policies) are said so once on stderr, by run and sweep; a
// generator with per_run draws a platform per seed, and no warning.
func TestIdleSeedsWarn(t *testing.T) {
	dir := t.TempDir()
	const gen = "platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors: {count: 6, seed: 1, gamma: {uniform: [0.5, 2]}, load: {choice: [0, 100]}%s}\n" +
		"problem: {divisible: {rounds: auto}}\npolicies: [no-redistribution]\n"
	const warning = "seeds gave every policy the same result"
	for _, tc := range []struct {
		extra string
		warns bool
	}{{"", true}, {", per_run: true", false}} {
		path := filepath.Join(dir, "gen.yaml")
		if err := os.WriteFile(path, []byte(fmt.Sprintf(gen, tc.extra)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"run", path, "--seeds", "3"}, {"sweep", path, "--seeds", "3", "-q", "--format", "csv"}} {
			code, _, stderr := netsched(t, args...)
			if code != 0 || strings.Count(stderr, warning) != map[bool]int{true: 1, false: 0}[tc.warns] {
				t.Errorf("%q (generator%s): exit %d, stderr %q; want the warning %v", args, tc.extra, code, stderr, tc.warns)
			}
		}
	}
}

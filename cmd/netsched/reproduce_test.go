package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproduceMissingData: paper 002 without its STG sets names what is
// missing and where it goes, exits 2 and writes nothing, even when other
// papers are asked for with it.
func TestReproduceMissingData(t *testing.T) {
	tmp := t.TempDir()
	results := filepath.Join(tmp, "results")
	for _, args := range [][]string{{"002"}, {"000", "002"}, {}} {
		args = append([]string{"reproduce", "--results", results, "--data", filepath.Join(tmp, "data")}, args...)
		code, _, stderr := netsched(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		for _, want := range []string{"paper 002", "Standard Task Graph Set", filepath.Join(tmp, "data", "stg"), "--data"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: stderr %q lacks %q", args, stderr, want)
			}
		}
		if _, err := os.Stat(results); !os.IsNotExist(err) {
			t.Fatalf("%v: %s written (%v)", args, results, err)
		}
	}
}

// TestReproduceResultsDir reproduces paper 001 into a folder of its own:
// the README written there links no benchmarks.md, and every relative
// link of it and of the paper's SUMMARY.md resolves.
func TestReproduceResultsDir(t *testing.T) {
	results := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := netsched(t, "reproduce", "001", "--results", results); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	readme, err := os.ReadFile(filepath.Join(results, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(readme), "benchmarks.md") {
		t.Error("README.md links benchmarks.md, which is not there")
	}
	for _, md := range []string{filepath.Join(results, "README.md"), filepath.Join(results, "multicluster", "SUMMARY.md")} {
		text, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, part := range strings.Split(string(text), "](")[1:] {
			target, _, _ := strings.Cut(part, ")")
			if strings.Contains(target, "://") {
				continue
			}
			n++
			if _, err := os.Stat(filepath.Join(filepath.Dir(md), target)); err != nil {
				t.Errorf("%s links %s, which is not there", md, target)
			}
		}
		if n < 5 {
			t.Errorf("%s: only %d links", md, n)
		}
	}
}

// TestReproduceUnknownReading: an unknown --reading exits 2 listing the
// paper's readings, and a reading given to a paper without readings
// (here every paper, none named) exits 2 too; nothing is written.
func TestReproduceUnknownReading(t *testing.T) {
	results := filepath.Join(t.TempDir(), "results")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"002", "--reading", "nonsense"}, []string{`no reading "nonsense"`, "default", "combined", "cass2:join=top"}},
		{[]string{"--reading", "combined"}, []string{"paper 000", "no named readings"}},
	} {
		code, _, stderr := netsched(t, append([]string{"reproduce", "--results", results}, c.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, stderr, w)
			}
		}
		if _, err := os.Stat(results); !os.IsNotExist(err) {
			t.Fatalf("%v: %s written (%v)", c.args, results, err)
		}
	}
	_, stdout, _ := netsched(t, "reproduce", "--help")
	for _, w := range []string{"--reading", "Readings of paper 002", "global+strict", "convex:select=largest"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("reproduce --help lacks %q", w)
		}
	}
}

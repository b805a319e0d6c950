package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/tooltest"
)

// TestFigureFlags: the figure options of plot and gantt, good values
// written, bad ones refused with exit 2, the flag named, and nothing
// written.
func TestFigureFlags(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "beta.csv")
	if code, _, errs := netsched(t, "sweep", "crossbar-hetero", "-q", "-o", csv, "--set", "beta=0.01,0.02,0.05"); code != 0 {
		t.Fatalf("sweep: %s", errs)
	}
	for _, tc := range []struct {
		args []string
		want string // "" for success
	}{
		{[]string{"plot", csv, "--size", "8.5cmx6cm", "--xlabel", "β", "--ylabel", "T", "--title", "t"}, ""},
		{[]string{"plot", csv, "--size", "8.5cm×6cm", "--logx"}, ""},
		{[]string{"plot", csv, "--size", "one-column", "--speedup-over", "no-redistribution"}, ""},
		{[]string{"plot", csv, "--size", "two-column"}, ""},
		{[]string{"plot", csv, "--size", "8.5cm"}, `--size: size "8.5cm": want WIDTHxHEIGHT`},
		{[]string{"plot", csv, "--size", "8.5x6"}, `--size: size "8.5x6": width: "8.5": no unit`},
		{[]string{"plot", csv, "--size", "1mmx6cm"}, "width 0.1 cm: want 2 cm to 200 cm"},
		{[]string{"plot", csv, "--size", "8cmx6parsec"}, `unknown unit "parsec"`},
		{[]string{"gantt", "tree-small", "--size", "one-column", "--title", "tree", "--xlabel", "t (ms)"}, ""},
		{[]string{"gantt", "tree-small", "--size", "wide"}, `--size: size "wide"`},
		{[]string{"gantt", "clustering-fft", "-p", "dsc", "--lanes", "P1?,P2*", "--from", "5", "--to", "20"}, ""},
		{[]string{"gantt", "multicluster-two", "--lanes", "A"}, ""},
		{[]string{"gantt", "tree-small", "--lanes", "links", "--from", "0.01"}, ""},
		{[]string{"gantt", "tree-small", "--lanes", "nope*"}, `gantt: lanes "nope*": no lane or group has that name (lanes: h0, h1, h2`},
		{[]string{"gantt", "tree-small", "--lanes", "[x"}, `lanes "[x": bad pattern`},
		{[]string{"gantt", "tree-small", "--from", "2", "--to", "1"}, "--from 2 --to 1: want from before to"},
		{[]string{"gantt", "tree-small", "--from", "7"}, "time window from 7 to 0.0882: the schedule runs from 0 to 0.0882"},
		{[]string{"gantt", "tree-small", "--to", "abc"}, "gantt: --to: want a number, got abc"},
	} {
		out := filepath.Join(dir, "f.png")
		os.Remove(out)
		args := append(tc.args, "-o", out)
		code, _, errs := netsched(t, args...)
		_, statErr := os.Stat(out)
		switch {
		case tc.want == "" && (code != 0 || statErr != nil):
			t.Errorf("%q: exit %d, %s", tc.args, code, errs)
		case tc.want != "" && (code != 2 || !strings.Contains(errs, tc.want) || statErr == nil):
			t.Errorf("%q: exit %d, stderr %q, written %v; want 2, %q, nothing written", tc.args, code, errs, statErr == nil, tc.want)
		}
	}
}

// TestCoincidingCurves: on paper 004's Fig. 14 network LAM's broadcast is
// MPICH's binomial tree and ECEF's is FNF's; the plot lists each as "same
// as" the other, with both in the legend, and a policy keeps its style
// whatever other policies a figure shows (checked in package plots).
func TestCoincidingCurves(t *testing.T) {
	bin := tooltest.Command(t, "pdftotext", "poppler-utils")
	dir := t.TempDir()
	csv := filepath.Join(dir, "size.csv")
	if code, _, errs := netsched(t, "sweep", "broadcast-fig14", "-q", "-o", csv, "--set", "size=0.1,1,10"); code != 0 {
		t.Fatalf("sweep: %s", errs)
	}
	pdf := filepath.Join(dir, "size.pdf")
	if code, _, errs := netsched(t, "plot", csv, "-o", pdf, "--logx", "--size", "two-column"); code != 0 {
		t.Fatalf("plot: %s", errs)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"lam (same as mpich-binomial)", "ecef (same as fnf)", "message size (units)", "makespan (s)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the plot's text lacks %q:\n%s", want, text)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// integerFlag finds a flag of a whole-number type in a command's help.
var integerFlag = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([\w-]+) (u?int(?:8|16|32|64)?)\b`)

// TestWholeNumberFlags walks every command's --help for its flags of a
// whole-number type and gives each a number with a fraction, an exponent
// and one out of range: exit 2, one line naming the command, the flag and
// what it wants, and nothing written to the working directory.
func TestWholeNumberFlags(t *testing.T) {
	t.Chdir(t.TempDir())
	var found []string
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		code, help, _ := netsched(t, name, "--help")
		if code != 0 {
			t.Fatalf("%s --help: exit %d", name, code)
		}
		for _, m := range integerFlag.FindAllStringSubmatch(help, -1) {
			flag, typ := m[1], m[2]
			found = append(found, name+" --"+flag)
			cases := []struct{ value, want string }{
				{"2.5", "want a whole number, got 2.5"},
				{"-0.5", "want a whole number, got -0.5"},
				{"x", "want a whole number, got x"},
				{"1e3", "want a whole number in digits, such as 1000, got 1e3"},
				{"1e30", "want a whole number below 2^63, got 1e30"},
			}
			if strings.HasPrefix(typ, "uint") {
				cases = append(cases, struct{ value, want string }{"-1", "want a whole number >= 0, got -1"})
			}
			for _, tc := range cases {
				code, out, errs := netsched(t, name, "--"+flag+"="+tc.value)
				want := "netsched: " + name + ": --" + flag + ": " + tc.want + "\n"
				if code != 2 || errs != want || out != "" {
					t.Errorf("%s --%s=%s: exit %d, stderr %q, want exit 2 and %q", name, flag, tc.value, code, errs, want)
				}
			}
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) > 0 {
		t.Errorf("bad flags wrote %d files, such as %s", len(entries), entries[0].Name())
	}
	for _, want := range []string{"run --seeds", "run --seed", "run --jobs", "sweep --seeds", "gantt --seed", "reproduce --budget-nodes"} {
		if !slices.Contains(found, want) {
			t.Errorf("flag %s not found in the help (found %q)", want, found)
		}
	}
}

// TestFractionInScenario runs and sweeps a scenario that gives a fraction
// where a whole number belongs: exit 2, the file, line and field, and
// nothing written.
func TestFractionInScenario(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "frac.yaml")
	src := "platform: {delay: {rho: 1}}\nproblem: {dag: {from: {fft: 8}}}\npolicies: [dsc]\nseeds: 10.5\n"
	if err := os.WriteFile(scenario, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	want := "netsched: scenario " + scenario + ": line 4: seeds: want a whole number, got 10.5\n"
	for _, args := range [][]string{
		{"run", scenario, "--out", filepath.Join(dir, "out")},
		{"sweep", scenario, "-q", "-o", filepath.Join(dir, "s.csv")},
		{"gantt", scenario, "-o", filepath.Join(dir, "g.png")},
	} {
		code, out, errs := netsched(t, args...)
		if code != 2 || out != "" || errs != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", args, code, out, errs, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("written beside the scenario: %v", entries)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestLoaderWarnings: what a loader ignores reaches stderr as one warning
// per input, for every command that loads a scenario, and the command
// still succeeds.
func TestLoaderWarnings(t *testing.T) {
	const scenario = "../../scenarios/testdata/dot-styled.yaml"
	for _, args := range [][]string{
		{"run", scenario},
		{"gantt", scenario, "-p", "dsc", "-o", "OUT/g.svg"},
		{"sweep", scenario, "--set", "rho=1,2", "-q", "-o", "OUT/s.csv"},
	} {
		t.Run(args[0], func(t *testing.T) {
			dir := t.TempDir()
			for i := range args {
				args[i] = strings.Replace(args[i], "OUT", dir, 1)
			}
			code, out, errs := netsched(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			if n := strings.Count(errs, "netsched: warning: "); n != 1 {
				t.Errorf("%d warnings on stderr, want 1:\n%s", n, errs)
			}
			for _, want := range []string{"dot-styled.yaml: line 8: problem.dag.from.dot:", "styled.dot: ignoring 7 DOT attribute(s)", "(graph rankdir; node [...] shape; node label, fillcolor, style; edge color, weight)"} {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr does not say %q:\n%s", want, errs)
				}
			}
			if strings.Contains(out, "warning") {
				t.Errorf("a warning on stdout:\n%s", out)
			}
		})
	}
}

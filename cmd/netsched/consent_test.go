package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// markerScenario writes a scenario whose exec policy touches a marker
// file and then fails (it prints no schedule): the marker says whether
// the program ran. It returns the scenario's path and the marker's.
func markerScenario(t *testing.T) (string, string) {
	t.Helper()
	touch, err := exec.LookPath("touch")
	if err != nil {
		t.Skip("no touch command:", err)
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	file := filepath.Join(dir, "touch.yaml")
	scenario := "platform: {delay: {rho: 1}}\n" +
		"problem: {dag: {tasks: [{name: a, weight: 1}]}}\n" +
		"policies:\n" +
		"  - sequential\n" +
		"  - {exec: [" + touch + ", " + marker + "], label: toucher}\n"
	if err := os.WriteFile(file, []byte(scenario), 0o666); err != nil {
		t.Fatal(err)
	}
	return file, marker
}

// TestExecNeedsConsent is the harmless-marker test: without --allow-exec
// (or NETSCHED_ALLOW_EXEC=1) run, sweep and gantt refuse a scenario with
// an exec policy at load, exit 2, run nothing and write nothing, and say
// which program on which line and which flag; with it, the program runs.
func TestExecNeedsConsent(t *testing.T) {
	t.Setenv(allowExecEnv, "")
	commands := map[string]func(file, out string) []string{
		"run":   func(file, out string) []string { return []string{"run", file, "--out", out} },
		"sweep": func(file, out string) []string { return []string{"sweep", file, "-o", out} },
		"gantt": func(file, out string) []string { return []string{"gantt", file, "-p", "toucher", "-o", out} },
	}
	for name, args := range commands {
		t.Run(name, func(t *testing.T) {
			file, marker := markerScenario(t)
			out := filepath.Join(t.TempDir(), "out.svg") // run's folder, sweep's CSV, gantt's chart
			argv := args(file, out)
			code, _, errs := netsched(t, argv...)
			if code != 2 {
				t.Fatalf("without --allow-exec: exit %d, want 2\n%s", code, errs)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("without --allow-exec the program ran")
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("without --allow-exec, %s was written", out)
			}
			for _, want := range []string{"--allow-exec", allowExecEnv + "=1", file + ":5: toucher: ", "touch " + marker} {
				if !strings.Contains(errs, want) {
					t.Errorf("message does not say %q:\n%s", want, errs)
				}
			}
			code, _, errs = netsched(t, append(argv, "--allow-exec")...)
			if code == 2 {
				t.Fatalf("with --allow-exec: exit 2\n%s", errs)
			}
			if _, err := os.Stat(marker); err != nil {
				t.Errorf("with --allow-exec the program did not run: %v\n%s", err, errs)
			}
		})
	}
}

// TestExecConsentEnv: NETSCHED_ALLOW_EXEC=1 consents as --allow-exec does;
// gantt of a built-in policy of the same scenario runs no program and
// needs no consent; verify never runs a policy.
func TestExecConsentEnv(t *testing.T) {
	file, marker := markerScenario(t)
	dir := t.TempDir()
	t.Setenv(allowExecEnv, "")
	if code, _, errs := netsched(t, "gantt", file, "-p", "sequential", "-o", filepath.Join(dir, "g.svg")); code != 0 {
		t.Fatalf("gantt of a built-in policy: exit %d\n%s", code, errs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("gantt of a built-in policy ran the program")
	}
	t.Setenv(allowExecEnv, "1")
	if code, _, errs := netsched(t, "run", file); code == 2 {
		t.Fatalf("with %s=1: exit 2\n%s", allowExecEnv, errs)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("with %s=1 the program did not run: %v", allowExecEnv, err)
	}
}

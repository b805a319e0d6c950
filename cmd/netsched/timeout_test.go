package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/trees"
)

// slowScenario writes a scenario whose one run plans for many seconds:
// cross on the Gaussian elimination graph of m = 300 (45,149 tasks).
func slowScenario(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "slow.yaml")
	text := "platform: {delay: {rho: 3}}\nproblem: {dag: {from: {gauss: 300}}}\npolicies: [cross]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTimeoutRun stops a long run at --timeout, and on Ctrl-C (its
// context cancelled), with the documented exit status and message, and
// writes nothing.
func TestTimeoutRun(t *testing.T) {
	slow := slowScenario(t)
	for _, tc := range []struct {
		name      string
		timeout   string
		interrupt bool
		code      int
		want      string
	}{
		{"timeout", "300ms", false, exitTimeout, "stopped: --timeout 300ms reached; nothing written"},
		{"ctrl-c", "0", true, exitInterrupt, "interrupted; nothing written"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.interrupt {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := run(ctx, []string{"run", slow, "--timeout", tc.timeout, "--out", out}, &stdout, &stderr)
			took := time.Since(start)
			t.Logf("stopped after %v", took)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.want)
			}
			// The run plans for tens of seconds; it stops a few
			// milliseconds past 300 ms on an idle machine, in under 0.4 s
			// at load average 4 (the margin is for a much busier one).
			// A wall-clock figure: checked with NETSCHED_TIMING=1 only.
			if took > 10*time.Second && slowtest.TimingEnabled() {
				t.Errorf("stopped after %v", took)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("wrote %s", out)
			}
		})
	}
	if code, _, errs := netsched(t, "run", slow, "--timeout", "-1s"); code != 2 || !strings.Contains(errs, "--timeout") {
		t.Errorf("negative timeout: exit %d, %q; want 2 naming --timeout", code, errs)
	}
}

// TestTimeoutLoad stops the reading of a large scenario file (a YAML list
// of 200,000 processors, which takes seconds to parse) at --timeout.
func TestTimeoutLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "list.yaml")
	var b strings.Builder
	b.WriteString("platform:\n  crossbar:\n    beta: 0.01\n    duplex: full\n    processors:\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "      - {name: p%d, gamma: 0.%d, load: %d}\n", i, 1+i%9, 100*(i%4/3))
	}
	b.WriteString("problem: {divisible: {rounds: 1}}\npolicies: [no-redistribution]\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(context.Background(), []string{"run", path, "--timeout", "200ms"}, &stdout, &stderr)
	took := time.Since(start)
	t.Logf("stopped after %v", took)
	if code != exitTimeout || !strings.Contains(stderr.String(), "stopped: --timeout 200ms reached; nothing written") {
		t.Errorf("exit %d, stderr %q; want %d and the timeout", code, stderr.String(), exitTimeout)
	}
	// Reading the file takes about 2 s of CPU; stopping, a few
	// milliseconds past the timeout on an idle machine (checked with
	// NETSCHED_TIMING=1 only).
	if took > 20*time.Second && slowtest.TimingEnabled() {
		t.Errorf("stopped after %v", took)
	}
}

// TestTimeoutSweepResumes stops a sweep at --timeout, which keeps the
// journal of its finished points, and resumes it to the same result as a
// sweep never stopped.
func TestTimeoutSweepResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a sweep three times; skipped with -short")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.yaml")
	text := "platform: {delay: {rho: 3}}\nproblem: {dag: {from: {gauss: 40}}}\npolicies: [cross, dsc]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(out string, extra ...string) []string {
		return append([]string{"sweep", path, "--set", "rho=1:60:1", "--jobs", "1", "-q", "-o", out}, extra...)
	}
	want, got := filepath.Join(dir, "want.csv"), filepath.Join(dir, "got.csv")
	if code, _, errs := netsched(t, args(want)...); code != 0 {
		t.Fatalf("uninterrupted sweep: exit %d, %s", code, errs)
	}
	code, _, errs := netsched(t, args(got, "--timeout", "400ms")...)
	if code != exitTimeout || !strings.Contains(errs, "--timeout 400ms reached; finished points are kept in "+got+".partial") {
		t.Fatalf("exit %d, %q; want %d naming the journal", code, errs, exitTimeout)
	}
	if _, err := os.Stat(got); err == nil {
		t.Fatal("a stopped sweep wrote its results file")
	}
	journal, err := os.ReadFile(got + ".partial")
	if err != nil {
		t.Fatalf("no journal: %v", err)
	}
	if code, _, errs := netsched(t, args(got)...); code != 0 {
		t.Fatalf("resumed sweep: exit %d, %s", code, errs)
	}
	w, _ := os.ReadFile(want)
	g, _ := os.ReadFile(got)
	if !bytes.Equal(w, g) {
		t.Errorf("resumed sweep differs from an uninterrupted one")
	}
	t.Logf("stopped with %d journal lines of 121", bytes.Count(journal, []byte("\n")))
}

// searchScenario writes a scenario whose one run plans for minutes and
// says so on stderr: optimal without the SAT prover on a random tree with
// relays of 48 participants, which writes a progress line after 2 s of
// search (the branch and bound alone proves no such tree within minutes).
func searchScenario(t *testing.T) string {
	t.Helper()
	tr, err := trees.RandomTree(1, trees.DefaultRandomTreeConfig(48, 12))
	if err != nil {
		t.Fatal(err)
	}
	scenario, err := json.Marshal(map[string]any{ // a JSON value is a YAML one
		"platform": map[string]any{"tree": tr},
		"problem":  map[string]any{"broadcast": map[string]any{"roots": []string{"0"}, "size": 1}},
		"policies": []any{map[string]any{"name": "optimal", "sat": false}},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "search.yaml")
	if err := os.WriteFile(path, scenario, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestInterruptSignal sends SIGINT to a netsched process planning a long
// run: it stops with exit status 130 and says so, as Ctrl-C in a terminal
// would make it. The signal goes once the run has written its first
// progress line, so after its handler is installed (main's first step),
// however slowly a loaded machine starts it.
func TestInterruptSignal(t *testing.T) {
	bin := buildNetsched(t)
	cmd := exec.Command(bin, "run", searchScenario(t))
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	var stderr bytes.Buffer
	progress := make(chan struct{})
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pipe)
		for said := false; sc.Scan(); {
			stderr.WriteString(sc.Text() + "\n")
			if !said && strings.HasPrefix(sc.Text(), "optimal: ") {
				close(progress)
				said = true
			}
		}
	}()
	select {
	case <-progress:
	case <-read:
		cmd.Wait()
		t.Fatalf("the run ended before its first progress line; stderr %q", stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	<-read
	err = cmd.Wait()
	if code := exitCode(err); code != exitInterrupt || !strings.Contains(stderr.String(), "interrupted; nothing written") {
		t.Errorf("exit %d, stderr %q; want %d and the interruption", code, stderr.String(), exitInterrupt)
	}
}

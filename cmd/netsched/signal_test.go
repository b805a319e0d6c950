package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binary builds netsched once for the tests that run it as a process.
var binary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "netsched-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "netsched")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// buildNetsched returns the built netsched, skipping under -short.
func buildNetsched(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// waitFor polls until ok holds (an event in a file the process writes),
// or the process has exited; it reports whether ok held.
func waitFor(exited <-chan struct{}, ok func() bool) bool {
	for !ok() {
		select {
		case <-exited:
			return ok()
		case <-time.After(2 * time.Millisecond):
		}
	}
	return true
}

// lines counts the lines of a file (0 when it does not exist).
func lines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// TestSweepStopSignals stops a sweep with SIGTERM or SIGHUP at 10
// instants (when its journal reaches successive lengths), rerunning it
// after each: every stop exits 143 (129), says the journal is kept, and
// leaves only the journal beside the results path; the last rerun ends
// with results byte-identical to an uninterrupted sweep's.
func TestSweepStopSignals(t *testing.T) {
	bin := buildNetsched(t)
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"sweep", "delay-small", "--set", "rho=0:3999:1", "--seeds", "2", "--jobs", "1", "-q", "-o", out}
	}
	want := filepath.Join(dir, "want.csv")
	if out, err := exec.Command(bin, args(want)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sweep: %v\n%s", err, out)
	}
	total := lines(want) - 1
	got := filepath.Join(dir, "got.csv")
	journal := got + ".partial"
	stops := 0
	for k := range 10 {
		sig, code := syscall.SIGTERM, exitTerm
		if k%3 == 2 {
			sig, code = syscall.SIGHUP, exitHangup
		}
		before := lines(journal) // the new process's own lines are the event
		cmd := exec.Command(bin, args(got)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		var werr error
		go func() { werr = cmd.Wait(); close(exited) }()
		// Instant 0: the sweep holds its lock, its journal maybe not yet
		// open; then each instant a further 1/40 of the runs journaled,
		// at least one line by this process. The stops fall within the
		// first quarter of the runs: at each, three quarters of the work
		// (0.4 s of CPU) is left, so the signal finds the sweep running
		// however late a loaded machine lets this test see the journal.
		target := max(1+k*total/40, before+1)
		ready := func() bool { return lines(journal) >= target }
		if k == 0 {
			ready = func() bool { _, err := os.Stat(got + ".lock"); return err == nil }
		}
		if !waitFor(exited, ready) {
			<-exited
			t.Fatalf("stop %d: the sweep ended before its journal had %d lines: %v\n%s", k, target, werr, stderr.String())
		}
		cmd.Process.Signal(sig)
		<-exited
		if c := exitCode(werr); c == 0 {
			t.Logf("stop %d: the sweep finished before %v reached it", k, sig)
			break
		} else if c != code || !strings.Contains(stderr.String(), "finished points are kept in "+journal) {
			t.Fatalf("stop %d by %v: exit %d, stderr %q; want %d naming the journal", k, sig, c, stderr.String(), code)
		}
		stops++
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if n := e.Name(); n != "want.csv" && n != "want.csv.sweep.json" && n != "got.csv.partial" && n != "got.csv.lock" {
				t.Errorf("stop %d by %v left %s", k, sig, n)
			}
		}
	}
	if out, err := exec.Command(bin, args(got)...).CombinedOutput(); err != nil {
		t.Fatalf("resumed sweep: %v\n%s", err, out)
	}
	w, _ := os.ReadFile(want)
	g, _ := os.ReadFile(got)
	if !bytes.Equal(w, g) {
		t.Fatalf("sweep resumed after %d stops differs from an uninterrupted one", stops)
	}
	if stops < 10 {
		t.Errorf("only %d of 10 stops reached the sweep before it finished", stops)
	}
	t.Logf("%d stops of %d runs; resumed result identical", stops, total)
}

// TestRunStopWhileWriting sends SIGTERM to a run once its temporary
// output folder exists: it exits 143 and leaves nothing in --out (or, had
// it finished first, every file and no temporary folder). A temporary
// folder that a killed netsched left is removed by the next run.
func TestRunStopWhileWriting(t *testing.T) {
	bin := buildNetsched(t)
	out := filepath.Join(t.TempDir(), "out")
	host, _ := os.Hostname()
	stale := filepath.Join(out, fmt.Sprintf("%s999999999@%s-1", tmpPrefix, host)) // beyond any pid_max
	if err := os.MkdirAll(stale, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "delay-small", "--seeds", "30", "--jobs", "1", "--out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var werr error
	go func() { werr = cmd.Wait(); close(exited) }()
	writing := func() bool {
		m, _ := filepath.Glob(filepath.Join(out, tmpPrefix+"*"))
		return len(m) == 1 && m[0] != stale
	}
	waitFor(exited, writing)
	cmd.Process.Signal(syscall.SIGTERM)
	<-exited
	entries, _ := os.ReadDir(out)
	switch code := exitCode(werr); code {
	case exitTerm:
		if len(entries) != 0 || !strings.Contains(stderr.String(), "stopped by SIGTERM; nothing written") {
			t.Errorf("stopped by SIGTERM: left %v, stderr %q", entries, stderr.String())
		}
	case 0:
		t.Logf("the run finished writing before SIGTERM reached it")
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), tmpPrefix) {
				t.Errorf("left %s", e.Name())
			}
		}
	default:
		t.Errorf("exit %d, stderr %q; want %d", code, stderr.String(), exitTerm)
	}
}

// TestRunOutIsFile: --out naming a file, or a path below one, is bad
// input (exit 2) found before anything runs.
func TestRunOutIsFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{file, filepath.Join(file, "sub")} {
		code, _, errs := netsched(t, "run", "delay-small", "--out", out)
		if code != 2 || !strings.Contains(errs, "is a file, not a directory") {
			t.Errorf("--out %s: exit %d, %q; want 2 saying it is a file", out, code, errs)
		}
	}
}

// TestNohupKeepsRunning: under nohup (SIGHUP ignored), a SIGHUP does not
// stop a sweep, which ends with its complete results; SIGTERM still
// stops one cleanly.
func TestNohupKeepsRunning(t *testing.T) {
	bin := buildNetsched(t)
	if _, err := exec.LookPath("nohup"); err != nil {
		t.Skip("no nohup")
	}
	out := filepath.Join(t.TempDir(), "s.csv")
	cmd := exec.Command("nohup", bin, "sweep", "delay-small", "--set", "rho=0:999:1", "--jobs", "1", "-q", "-o", out)
	cmd.Dir = t.TempDir() // where nohup may write nohup.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var werr error
	go func() { werr = cmd.Wait(); close(exited) }()
	if waitFor(exited, func() bool { return lines(out+".partial") >= 2 }) {
		cmd.Process.Signal(syscall.SIGHUP)
	}
	<-exited
	if code := exitCode(werr); code != 0 {
		t.Fatalf("under nohup, after SIGHUP: exit %d, want the sweep to finish", code)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no results: %v", err)
	}
}

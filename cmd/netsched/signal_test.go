package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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

// rows counts the rows of a sweep's journal, its lines but the header
// comment (0 when it does not exist).
func rows(journal string) int {
	b, _ := os.ReadFile(journal)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			n++
		}
	}
	return n
}

// lines counts the lines of a file (0 when it does not exist).
func lines(path string) int {
	b, _ := os.ReadFile(path)
	return bytes.Count(b, []byte("\n"))
}

// gateScenario is a sweep of 60 runs whose one policy, a persistent
// program, answers each instance only once the test has put a file token
// beside it (or at once while a file free exists there), taking the token
// away: the sweep cannot get past a run the test has not let through, so a
// signal sent after the journal has n rows finds it waiting on run n+1,
// however loaded the machine.
const gateScenario = `platform: {delay: {rho: 1}}
problem: {dag: {tasks: [{name: t0, weight: 1}]}}
policies:
  - {exec: [sh, gate.sh], label: gated, persistent: true}
sweep:
  rho: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
        30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]
`

// gateScript is the gated policy: one schedule per instance line, each
// once it has taken the file token (unless the file free exists). It looks
// for the token every 10 ms, and leaves as soon as netsched, its parent,
// is gone, so that a gate a stopped sweep left behind never takes a token
// meant for the next one.
const gateScript = `while IFS= read -r line; do
  if [ ! -e free ]; then
    while :; do
      kill -0 $PPID 2>/dev/null || exit 1
      mv token taken 2>/dev/null && break
      sleep 0.01
    done
  fi
  echo '{"claimed_makespan": 1, "actions": [{"kind": "compute", "node": 0, "amount": 1, "start": 0, "end": 1, "label": "t0"}]}'
done
`

// TestSweepStopSignals stops a sweep with SIGTERM or SIGHUP at 10
// instants (none, then one more run journaled each time), rerunning it
// after each: every stop exits 143 (129), says the journal is kept, and
// leaves only the journal beside the results path; the last rerun ends
// with results byte-identical to an uninterrupted sweep's. The sweep's
// policy waits at a gate the test opens run by run (gateScenario), so
// every signal finds the sweep running.
func TestSweepStopSignals(t *testing.T) {
	bin := buildNetsched(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"gated.yaml": gateScenario, "gate.sh": gateScript} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	token, free := filepath.Join(dir, "token"), filepath.Join(dir, "free")
	args := func(out string) []string {
		return []string{"sweep", filepath.Join(dir, "gated.yaml"), "--allow-exec", "--jobs", "1", "-q", "-o", out}
	}
	setFree := func(on bool) {
		if on {
			if err := os.WriteFile(free, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Remove(free); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	want := filepath.Join(out, "want.csv")
	setFree(true)
	if b, err := exec.Command(bin, args(want)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sweep: %v\n%s", err, b)
	}
	setFree(false)
	got := filepath.Join(out, "got.csv")
	journal := got + ".partial"
	for k := range 10 {
		sig, code := syscall.SIGTERM, exitTerm
		if k%3 == 2 {
			sig, code = syscall.SIGHUP, exitHangup
		}
		before := rows(journal)
		cmd := exec.Command(bin, args(got)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		var werr error
		go func() { werr = cmd.Wait(); close(exited) }()
		// Stop 0 comes once the sweep holds its lock; stop k once it has
		// journaled one run more, the one the gate let through.
		ready := func() bool { _, err := os.Stat(got + ".lock"); return err == nil }
		if k > 0 {
			openGate(t, token, exited)
			ready = func() bool { return rows(journal) > before }
		}
		if !waitFor(exited, ready) {
			t.Fatalf("stop %d: the sweep ended before it was ready: %v\n%s", k, werr, stderr.String())
		}
		cmd.Process.Signal(sig)
		<-exited
		if c := exitCode(werr); c != code || !strings.Contains(stderr.String(), "finished points are kept in "+journal) {
			t.Fatalf("stop %d by %v: exit %d, stderr %q; want %d naming the journal", k, sig, c, stderr.String(), code)
		}
		if k > 0 && rows(journal) != before+1 {
			j, _ := os.ReadFile(journal)
			t.Errorf("stop %d: journal of %d rows, want %d:\n%s", k, rows(journal), before+1, j)
		}
		entries, _ := os.ReadDir(out)
		for _, e := range entries {
			if n := e.Name(); n != "want.csv" && n != "want.csv.sweep.json" && n != "got.csv.partial" && n != "got.csv.lock" {
				t.Errorf("stop %d by %v left %s", k, sig, n)
			}
		}
	}
	setFree(true)
	if b, err := exec.Command(bin, args(got)...).CombinedOutput(); err != nil {
		t.Fatalf("resumed sweep: %v\n%s", err, b)
	}
	w, _ := os.ReadFile(want)
	g, _ := os.ReadFile(got)
	if !bytes.Equal(w, g) {
		t.Fatalf("sweep resumed after 10 stops differs from an uninterrupted one")
	}
}

// openGate lets one run of gateScenario through: it puts the token in
// place (whole, by a rename) and waits until the gated policy has taken it.
// It fails the test if the sweep exits first.
func openGate(t *testing.T, token string, exited <-chan struct{}) {
	t.Helper()
	if err := os.WriteFile(token+".new", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(token+".new", token); err != nil {
		t.Fatal(err)
	}
	taken := func() bool { _, err := os.Stat(token); return errors.Is(err, fs.ErrNotExist) }
	if !waitFor(exited, taken) {
		t.Fatal("the sweep exited before its policy took the token")
	}
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

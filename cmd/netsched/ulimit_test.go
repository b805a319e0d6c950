package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
)

// hugeInputs writes the inputs of TestUnderLimits into dir: a DOT file
// of 10^7 edges, a crossbar listing 10^7 processors, and an external
// policy printing 1 GB; it returns their scenarios.
func hugeInputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	write := func(name string, fill func(w *bufio.Writer)) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		fill(w)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	const n = 10_000_000
	write("edges.dot", func(w *bufio.Writer) {
		w.WriteString("digraph g {\n")
		for i := range n {
			fmt.Fprintf(w, "t%d -> t%d;\n", i%4000, 4000+i)
		}
		w.WriteString("}\n")
	})
	write("dot.yaml", func(w *bufio.Writer) {
		w.WriteString("platform: {delay: {rho: 3}}\nproblem: {dag: {from: {dot: edges.dot}}}\npolicies: [dsc]\n")
	})
	write("processors.yaml", func(w *bufio.Writer) {
		w.WriteString("platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors:\n")
		for range n {
			w.WriteString("      - {gamma: 1}\n")
		}
		w.WriteString("problem: {divisible: {rounds: auto}}\npolicies: [mmdl]\n")
	})
	write("printer.yaml", func(w *bufio.Writer) {
		w.WriteString("platform: {crossbar: {beta: 0.01, duplex: half, processors: [{gamma: 1, load: 10}, {gamma: 1}]}}\n" +
			"problem: {divisible: {rounds: 1}}\n" +
			"policies: [{exec: [sh, -c, 'head -c 1000000000 /dev/zero'], label: printer}]\n")
	})
	return map[string]string{"dot": "dot.yaml", "processors": "processors.yaml", "printer": "printer.yaml"}
}

// TestUnderLimits runs netsched under ulimit -v 3000000 on a DOT file of
// 10^7 edges, a list of 10^7 processors and an external policy printing
// 1 GB: each ends with exit 2 and a message naming the budget and the
// limit it comes from, and no Go runtime trace. It writes 400 MB of
// inputs: set NETSCHED_SLOW=1 to run it.
func TestUnderLimits(t *testing.T) {
	slowtest.Skip(t)
	bin := buildNetsched(t)
	dir := t.TempDir()
	inputs := hugeInputs(t, dir)
	for name, scenario := range inputs {
		t.Run(name, func(t *testing.T) {
			args := []string{"run", scenario, "--allow-exec", "--out", "out"}
			cmd := exec.Command("sh", append([]string{"-c", `ulimit -v 3000000 && exec "$@"`, "sh", bin}, args...)...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			checkRefused(t, err, stderr.String(), "3/4 of what the address-space limit (ulimit -v) leaves")
			if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
				t.Errorf("wrote out/")
			}
		})
	}
}

// checkRefused checks that a netsched process ended with exit 2, saying
// it would pass the budget and naming the limit, without a Go runtime
// trace.
func checkRefused(t *testing.T, err error, stderr, limit string) {
	t.Helper()
	if code := exitCode(err); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{"above the budget of", "--max-memory", limit} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q", want)
		}
	}
	for _, trace := range []string{"fatal error", "goroutine ", "runtime.", "panic"} {
		if strings.Contains(stderr, trace) {
			t.Errorf("stderr holds a Go runtime trace (%q)", trace)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("stderr:\n%s", stderr)
	}
}

// TestUnderCgroup is TestUnderLimits under a control group's memory
// limit of 3 GB instead of ulimit: it makes a child of this process's own
// cgroup (v2 memory.max, or v1 memory.limit_in_bytes), runs netsched in
// it and removes it. Since that changes the machine's cgroup tree, it
// runs only with NETSCHED_CGROUP=1 (and NETSCHED_SLOW=1), and skips with
// a message where no cgroup can be made.
func TestUnderCgroup(t *testing.T) {
	if !slowtest.Enabled() || os.Getenv("NETSCHED_CGROUP") != "1" {
		t.Skip("makes a cgroup: set NETSCHED_SLOW=1 and NETSCHED_CGROUP=1")
	}
	group, limitFile := childCgroup(t)
	if err := os.WriteFile(filepath.Join(group, limitFile), []byte("3000000000"), 0o644); err != nil {
		t.Skipf("cannot limit the memory of cgroup %s: %v", group, err)
	}
	bin := buildNetsched(t)
	dir := t.TempDir()
	for name, scenario := range hugeInputs(t, dir) {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `echo $$ > "$0/cgroup.procs" && exec "$@"`, group, bin, "run", scenario, "--allow-exec")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			checkRefused(t, err, stderr.String(), "of what the cgroup's memory")
		})
	}
}

// childCgroup makes a cgroup below this process's own, with the memory
// controller, removed when the test ends; it returns its folder and the
// name of its memory limit's file, or skips the test.
func childCgroup(t *testing.T) (string, string) {
	t.Helper()
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Skipf("no cgroups here: %v", err)
	}
	for line := range strings.Lines(string(self)) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var base, limitFile string
		switch {
		case parts[0] == "0" && parts[1] == "":
			base, limitFile = "/sys/fs/cgroup", "memory.max"
		case strings.Contains(","+parts[1]+",", ",memory,"):
			base, limitFile = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		group := filepath.Join(base, parts[2], fmt.Sprintf("netsched-test-%d", os.Getpid()))
		if err := os.Mkdir(group, 0o755); err != nil {
			continue
		}
		t.Cleanup(func() { os.Remove(group) })
		if _, err := os.Stat(filepath.Join(group, limitFile)); err != nil {
			continue // no memory controller in this hierarchy
		}
		return group, limitFile
	}
	t.Skip("cannot make a cgroup with a memory limit below this process's own")
	return "", ""
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/internal/slowtest"
)

// hostile writes the scenario files of TestLimits into dir.
func hostile(t *testing.T, dir string) map[string]string {
	t.Helper()
	crossbar := func(processors, problem string) string {
		return "platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors:\n" + processors +
			"problem:\n  " + problem + "\npolicies: [mmdl]\n"
	}
	two := "      - {name: a, gamma: 0.05, load: 600}\n      - {name: b, gamma: 0.05}\n"
	var many strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&many, "      - {name: p%d, gamma: 0.05, load: 1}\n", i)
	}
	files := map[string]string{
		"star.yaml":      starTree(1000),
		"seeds.yaml":     crossbar(two, "divisible: {rounds: auto}") + "seeds: 1000000000\n",
		"rounds.yaml":    crossbar(two, "divisible: {rounds: 1000000000}"),
		"listed.yaml":    crossbar(many.String(), "divisible: {rounds: 1}"),
		"fft.yaml":       delayDAGFrom("fft: 1073741824"),
		"gauss.yaml":     delayDAGFrom("gauss: 200000"),
		"devzero.yaml":   delayDAGFrom("dot: /dev/zero"),
		"tasks.yaml":     "platform:\n  workstations:\n    topology: ring\n    processors: [{name: a, speed: 1}, {name: b, speed: 1}]\nproblem: {balance: {tasks: 1000000000, work: 1, interval: 1}}\npolicies: [static]\n",
		"schedule.json":  bigSchedule(30000),
		"generated.yaml": crossbar("      {count: 1e9, gamma: {uniform: [1, 4]}, load: 1}\n", "divisible: {rounds: auto}"),
		"named.yaml":     crossbar("      {count: 1e5, name: "+strings.Repeat("p", 1<<20)+", gamma: 1}\n", "divisible: {rounds: auto}"),
		"cluster.yaml": "platform:\n  multicluster:\n    beta: 1\n    clusters:\n      - {beta: 0.5, processors: [{gamma: 1}]}\n" +
			"      - {beta: 0.5, processors: {count: 2000000000, gamma: 1}}\nproblem: {divisible: {rounds: auto}}\npolicies: [multicluster]\n",
	}
	paths := map[string]string{}
	for name, text := range files {
		paths[name] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[name], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// bigSchedule is a schedule of n computations on node 0 of a crossbar.
func bigSchedule(n int) string {
	var b strings.Builder
	b.WriteString(`{"policy": "mine", "claimed_makespan": 1, "actions": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"kind": "compute", "node": 0, "amount": 1, "start": %d, "end": %d}`, i, i+1)
	}
	b.WriteString("]}\n")
	return b.String()
}

// TestLimits feeds the inputs that used to run out of memory or run for
// minutes: each must stop at once with exit 2, a message naming the field
// (or flag) and the estimate, and nothing written.
func TestLimits(t *testing.T) {
	dir := t.TempDir()
	f := hostile(t, dir)
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", f["seeds.yaml"], "--out", out}, []string{"1000000000 seeds", "--max-memory"}},
		{[]string{"sweep", "crossbar-hetero", "--seeds", "1000000000", "-o", out + ".csv"}, []string{"1000000000 seeds", "--max-memory"}},
		{[]string{"run", f["rounds.yaml"], "--out", out}, []string{"problem.divisible.rounds", "actions", "--max-memory"}},
		{[]string{"run", f["listed.yaml"], "--out", out, "--max-memory", "50MB"}, []string{"a file of", "--max-memory"}},
		{[]string{"run", f["fft.yaml"], "--out", out}, []string{"problem.dag.from.fft", "tasks need", "--max-memory"}},
		{[]string{"sweep", f["gauss.yaml"], "-o", out + ".csv"}, []string{"problem.dag.from.gauss", "tasks need"}},
		{[]string{"run", f["devzero.yaml"], "--out", out}, []string{"problem.dag.from.dot", "/dev/zero is a device"}},
		{[]string{"run", f["tasks.yaml"], "--out", out}, []string{"problem.balance.tasks", "--max-memory"}},
		{[]string{"verify", "-s", "crossbar-hetero", f["schedule.json"], "--max-memory", "20MB"}, []string{"schedule.json", "a file of", "--max-memory"}},
		{[]string{"run", f["generated.yaml"], "--out", out}, []string{"generated.yaml: line 6: platform.crossbar.processors.count", "1e+09 processors need", "--max-memory"}},
		{[]string{"run", f["named.yaml"], "--out", out}, []string{"platform.crossbar.processors.count", "1e+05 processors need", "--max-memory"}},
		{[]string{"sweep", f["cluster.yaml"], "-o", out + ".csv"}, []string{"platform.multicluster.clusters[1].processors.count", "2e+09 processors need", "--max-memory"}},
		{[]string{"run", f["star.yaml"], "--out", out, "--max-memory", "100MB"}, []string{"star.yaml: line 3: platform.tree.nodes", "1001 tree nodes", "245 MiB", "--max-memory"}},
	} {
		t.Run(filepath.Base(tc.args[1]), func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			code, _, errs := netsched(t, tc.args...)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if code != 2 {
				t.Errorf("%v: exit %d, want 2; stderr: %s", tc.args, code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%v: stderr %q does not say %q", tc.args, errs, w)
				}
			}
			// Guards against a hang or a huge allocation, with a wide margin:
			// each case takes milliseconds and kilobytes (the time, a
			// wall-clock figure, with NETSCHED_TIMING=1 only).
			if alloc := after.TotalAlloc - before.TotalAlloc; took > 5*time.Second && slowtest.TimingEnabled() || alloc > 200<<20 {
				t.Errorf("%v: took %v and allocated %d MiB before refusing", tc.args, took, alloc>>20)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%v: wrote %s", tc.args, out)
			}
			if m, _ := filepath.Glob(out + ".csv*"); len(m) > 0 {
				t.Errorf("%v: wrote %v", tc.args, m)
			}
		})
	}
}

// delayDAGFrom is a scenario of DSC on the delay platform whose task graph
// comes from the given source (from: {SOURCE}).
func delayDAGFrom(source string) string {
	return "platform: {delay: {rho: 3}}\nproblem: {dag: {from: {" + source + "}}}\npolicies: [dsc]\n"
}

// starTree is a broadcast scenario on a star of n participants around a
// switch, fnf broadcasting from p0.
func starTree(n int) string {
	var b strings.Builder
	b.WriteString("platform:\n  tree:\n    nodes:\n      - {name: s, relay: true}\n")
	for i := range n {
		fmt.Fprintf(&b, "      - {name: p%d}\n", i)
	}
	b.WriteString("    edges:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - {a: s, b: p%d, bandwidth: 1}\n", i)
	}
	b.WriteString("problem: {broadcast: {roots: [p0], size: 1}}\npolicies: [fnf]\n")
	return b.String()
}

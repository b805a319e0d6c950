package python_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/external"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
)

// TestGoPortMatchesPython checks that list_sched.py and its Go port
// (golist_test.go) give the same schedule, bit for bit, on every bundled
// task graph of the delay platform, so that the benchmark compares the
// same work.
func TestGoPortMatchesPython(t *testing.T) {
	skipWithoutPython(t)
	py := external.New(external.Spec{Command: []string{"python3", script(t, "list_sched.py")}, Persistent: true}, "list")
	defer py.Close()
	entry, _ := policies.Lookup(goListName)
	for _, name := range []string{"delay-small", "clustering-fft", "clustering-gauss"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []policies.Options{{}, {"processors": 2}} {
			in := sc.Instance(0, 1)
			in.Options = opts
			want, err := entry.Planner.Plan(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := py.Plan(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameSchedule(got, want); err != nil {
				t.Errorf("%s, options %v: Python and Go differ: %v", name, opts, err)
			}
		}
	}
}

// BenchmarkSweepExternal sweeps 1,000 runs (one point, 1,000 seeds) of
// the list scheduler on a bundled task graph: in Go, in Python as a
// persistent process per worker, and in Python as a process per run (on
// 20 runs, since each costs a Python start). ns/run is the wall time of
// one run; the overhead of Python is the difference with Go's. cpu-ns/run
// is the CPU time netsched's process spends per run, child-cpu-ns/run that
// of the Python processes (counted once they have ended, at the end of
// each sweep, so a persistent process's start is shared by its runs):
// unlike the wall time, neither grows much when other programs load the
// machine. python3 is run as the interpreter it names, not through a
// wrapper such as a pyenv shim.
func BenchmarkSweepExternal(b *testing.B) {
	skipWithoutPython(b)
	list := script(b, "list_sched.py")
	// The interpreter itself, not a wrapper that finds it (such as a
	// pyenv shim, a shell script), whose start would count as Python's.
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		b.Fatal(err)
	}
	python := strings.TrimSpace(string(out))
	for _, name := range []string{"delay-small", "clustering-gauss"} {
		for _, tc := range []struct {
			policy string
			spec   scenarios.PolicySpec
			runs   int
		}{
			{"go", scenarios.PolicySpec{Name: goListName}, 1000},
			{"python-persistent", scenarios.PolicySpec{Label: "list",
				Exec: &external.Spec{Command: []string{python, list}, Persistent: true, Timeout: time.Minute}}, 1000},
			{"python-per-run", scenarios.PolicySpec{Label: "list",
				Exec: &external.Spec{Command: []string{python, list}, Timeout: time.Minute}}, 20},
		} {
			for _, jobs := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/jobs=%d", name, tc.policy, jobs), func(b *testing.B) {
					sc, err := scenarios.Load(name)
					if err != nil {
						b.Fatal(err)
					}
					c := *sc
					c.Policies = []scenarios.PolicySpec{tc.spec}
					plan, err := sweep.NewPlan(&c, nil, tc.runs, 1, sim.Timed)
					if err != nil {
						b.Fatal(err)
					}
					cpu, child := cputime.Process(), childrenCPU()
					b.ResetTimer()
					for range b.N {
						t, err := sweep.Run(context.Background(), plan, sweep.Options{Jobs: jobs})
						if err != nil {
							b.Fatal(err)
						}
						if r := t.Rows[len(t.Rows)-1]; !r.Verified {
							b.Fatalf("not verified: %s", r.Error)
						}
					}
					runs := float64(b.N * tc.runs)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/runs, "ns/run")
					if cpu >= 0 && child >= 0 {
						b.ReportMetric((cputime.Process()-cpu)*1e9/runs, "cpu-ns/run")
						b.ReportMetric((childrenCPU()-child)*1e9/runs, "child-cpu-ns/run")
					}
				})
			}
		}
	}
}

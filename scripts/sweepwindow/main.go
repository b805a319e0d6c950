// Command sweepwindow measures sweep throughput inside a wall-clock window
// that several processes share. It runs in-memory sweeps of BenchmarkSweep's
// 1,000 small runs (500 points × 2 policies of the bundled delay-small
// scenario) from before -start until -end, and prints the runs per second
// finished inside the window and the process's CPU time per run there.
//
// scripts/sweep-speedup.sh starts one or two of these with the same window:
// two processes measured over the same wall-clock interval show what two
// independent processes get from the machine, with neither having it to
// itself at the start or the end.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
	"github.com/netsched/netsched/sweep/axis"

	_ "github.com/netsched/netsched/policies/all"
)

func main() {
	start := flag.Int64("start", 0, "window start, Unix nanoseconds")
	end := flag.Int64("end", 0, "window end, Unix nanoseconds")
	jobs := flag.Int("jobs", 1, "sweep workers")
	flag.Parse()
	if *start == 0 || *end <= *start {
		fmt.Fprintln(os.Stderr, "sweepwindow: -start and -end (Unix nanoseconds, start < end) are required")
		os.Exit(2)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400) // as cmd/netsched
	}
	rate, cpuPerRun, err := measure(time.Unix(0, *start), time.Unix(0, *end), *jobs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sweepwindow:", err)
		os.Exit(1)
	}
	fmt.Printf("%.0f %.0f\n", rate, cpuPerRun)
}

// measure sweeps until end and returns the runs per second finished from
// the first sweep that ends after start to the last that ends by end, and
// the CPU nanoseconds per run over the same interval (−1 where the system
// does not say).
func measure(start, end time.Time, jobs int) (rate, cpuPerRun float64, err error) {
	p, err := smallPlan()
	if err != nil {
		return 0, 0, err
	}
	var first, last time.Time
	var cpu0, cpu1 float64
	runs := 0
	for {
		if _, err := sweep.Run(context.Background(), p, sweep.Options{Jobs: jobs}); err != nil {
			return 0, 0, err
		}
		now := time.Now()
		switch {
		case now.After(end):
			if runs == 0 {
				return 0, 0, fmt.Errorf("the window (%v) is shorter than one sweep", end.Sub(start))
			}
			cpuPerRun = -1
			if cpu0 >= 0 {
				cpuPerRun = (cpu1 - cpu0) * 1e9 / float64(runs)
			}
			return float64(runs) / last.Sub(first).Seconds(), cpuPerRun, nil
		case first.IsZero() && now.After(start):
			first, cpu0 = now, cputime.Process()
		case !first.IsZero():
			last, cpu1 = now, cputime.Process()
			runs += 1000
		}
	}
}

// smallPlan is BenchmarkSweep's plan: rho = 0, 1, ..., 499 on delay-small.
func smallPlan() (*sweep.Plan, error) {
	sc, err := scenarios.Load("delay-small")
	if err != nil {
		return nil, err
	}
	ax, err := axis.ParseSet("rho=0:499:1")
	if err != nil {
		return nil, err
	}
	return sweep.NewPlan(sc, []axis.Axis{ax}, 1, 1, sim.Timed)
}

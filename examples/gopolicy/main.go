// Command gopolicy shows netsched used as a library from a module of its
// own: it registers an out-of-tree policy (package hlfet), loads a
// scenario that names it, and for every policy of the scenario plans a
// schedule, replays it on the platform, checks that it solves the problem
// and prints the result, optionally with a Gantt chart per policy.
//
// Usage:
//
//	go run . [-gantt DIR] [-seed N] [SCENARIO]
//
// SCENARIO is a scenario file or a bundled scenario's name; forkjoin.yaml
// (beside this file) by default. The exit status is 2 when the scenario
// cannot be loaded or a policy fails, 1 when a schedule is not verified.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all" // the built-in policies
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"

	_ "example.com/gopolicy/hlfet" // registers hlfet
)

// errNotVerified is returned when a schedule fails verification.
var errNotVerified = errors.New("a schedule is not verified")

func main() {
	gantt := flag.String("gantt", "", "directory for a Gantt chart per policy, <policy>.png")
	seed := flag.Uint64("seed", 1, "seed of the run")
	flag.Parse()
	scenario := "forkjoin.yaml"
	if flag.NArg() > 1 {
		fmt.Fprintln(os.Stderr, "usage: gopolicy [-gantt DIR] [-seed N] [SCENARIO]")
		os.Exit(2)
	}
	if flag.NArg() == 1 {
		scenario = flag.Arg(0)
	}
	err := run(context.Background(), os.Stdout, scenario, *seed, *gantt)
	switch {
	case errors.Is(err, errNotVerified):
		fmt.Fprintln(os.Stderr, "gopolicy:", err)
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "gopolicy:", err)
		os.Exit(2)
	}
}

// run loads the scenario, then plans, replays, checks and prints each of
// its policies in turn.
func run(ctx context.Context, w io.Writer, scenario string, seed uint64, ganttDir string) error {
	sc, err := scenarios.Load(scenario) // strict: names the file, line and field
	if err != nil {
		return err
	}
	if ganttDir != "" {
		if err := os.MkdirAll(ganttDir, 0o755); err != nil {
			return fmt.Errorf("-gantt: %w", err)
		}
	}
	fmt.Fprintf(w, "scenario %s: a %s problem on the %s platform\n", sc.Name, sc.Problem.Family(), sc.Platform.Kind())
	fmt.Fprintf(w, "%-18s %10s %10s %10s %s\n", "policy", "claimed", "simulated", "violations", "verified")
	allVerified := true
	for i, spec := range sc.Policies {
		entry, _ := policies.Lookup(spec.Name) // the loader checked it is registered
		s, err := entry.Planner.Plan(ctx, sc.Instance(i, seed))
		if err != nil {
			return fmt.Errorf("policy %s: %w", spec.ID(), err)
		}
		// Replay on the platform in timed mode: every action at its planned
		// start, every breach of the platform's rules a violation.
		res, err := replay.Replay(ctx, &sc.Platform, s, sim.Timed)
		if err != nil {
			return fmt.Errorf("policy %s: the engine rejects its schedule: %w", spec.ID(), err)
		}
		// Check that what the replay did solves the problem (for a task
		// graph: every task computed once, every edge kept).
		violations, err := check.Check(&sc.Platform, &sc.Problem, s, res.Starts, res.Ends)
		if err != nil {
			return fmt.Errorf("policy %s: %w", spec.ID(), err)
		}
		res.Violations = append(res.Violations, violations...)
		verified := res.OK()
		allVerified = allVerified && verified
		fmt.Fprintf(w, "%-18s %10.4g %10.4g %10d %s\n", spec.ID(), res.Claimed, res.Makespan, len(res.Violations), yesNo(verified))
		for _, v := range res.Violations {
			fmt.Fprintf(w, "  violation: %v\n", v)
		}
		if ganttDir != "" {
			path := filepath.Join(ganttDir, spec.ID()+".png")
			opt := plots.GanttOptions{Title: fmt.Sprintf("%s: %s", sc.Name, spec.ID())}
			if err := plots.SaveGantt(res.Trace, opt, path); err != nil {
				return fmt.Errorf("policy %s: %w", spec.ID(), err)
			}
		}
	}
	if !allVerified {
		return errNotVerified
	}
	return nil
}

// yesNo writes a verdict.
func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// Command milprun compares, on the random heterogeneous trees with relays
// of issue 21 (trees.RandomTree with its default configuration, parts/4
// relays, a message of 1 from participant 0), the optimal search after a
// time budget with the time-indexed MILP of package timeindexed solved by
// CBC: for each seed it prints a Markdown table row with the search's best
// makespan and lower bound, the MILP's result (its optimum, or its best
// schedule and CBC's bound when the time limit stops it) and the value of
// its LP relaxation. The MILP's horizon is the search's best makespan, and
// CBC starts from the search's best schedule (which must satisfy every
// row of the model, see Model.Check), so the MILP looks for better
// schedules; when CBC crashes on that start (CBC 2.10.8 does on some
// models) or overruns its limit by much, the row says so. "MILP order,
// earliest starts" re-times the MILP schedule's transfers, in their order,
// as the search places transfers (treenet.PlaceSequence): when it equals
// the MILP's makespan, that schedule is in the search's space. Every MILP schedule
// is replayed by package check and must have no violation.
//
//	go run ./policies/broadcast/internal/milprun -parts 16 -seeds 0-9 -budget 10s -limit 120s
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

func main() {
	parts := flag.Int("parts", 16, "participants of each random tree")
	seeds := flag.String("seeds", "0-9", "seeds, a range lo-hi or one number")
	budget := flag.Duration("budget", 10*time.Second, "time budget of the optimal search")
	limit := flag.Duration("limit", 120*time.Second, "CBC's wall-clock time limit on the MILP and on its LP relaxation")
	flag.Parse()
	lo, hi, err := seedRange(*seeds)
	if err == nil {
		err = run(*parts, lo, hi, *budget, *limit)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "milprun:", err)
		os.Exit(2)
	}
}

// seedRange parses "lo-hi" or "n".
func seedRange(s string) (lo, hi uint64, err error) {
	a, b, isRange := strings.Cut(s, "-")
	if lo, err = strconv.ParseUint(a, 10, 64); err == nil {
		hi = lo
		if isRange {
			hi, err = strconv.ParseUint(b, 10, 64)
		}
	}
	if err != nil || hi < lo {
		return 0, 0, fmt.Errorf("-seeds %q: want a seed or a range lo-hi", s)
	}
	return lo, hi, nil
}

func run(parts int, lo, hi uint64, budget, limit time.Duration) error {
	cbc, err := timeindexed.CBC()
	if err != nil {
		return err
	}
	fmt.Println("| instance | optimal best | optimal lower bound | MILP (CBC) | CBC bound | MILP order, earliest starts | LP relaxation | best / LP | binaries | MILP time (s) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	for seed := lo; seed <= hi; seed++ {
		name := fmt.Sprintf("random-%d/%d", parts, seed)
		tr, err := trees.RandomTree(seed, trees.DefaultRandomTreeConfig(parts, parts/4))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		in := policies.Instance{
			Platform: &models.Platform{Tree: tr},
			Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: []string{"0"}, Size: 1}},
		}
		opt := broadcast.DefaultOptions()
		opt.MaxTime = budget
		res, err := broadcast.Optimal(context.Background(), in, opt)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		best := res.Schedule.Claimed
		m, err := timeindexed.New(in, best)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if bad := m.Check(res.Schedule); len(bad) > 0 {
			return fmt.Errorf("%s: optimal's schedule is not a solution of the MILP: %s", name, bad[0])
		}
		lpValue, ratio := "not solved", "–"
		lp, err := m.Solve(context.Background(), cbc, limit, true)
		if err != nil {
			lpValue = "CBC failed: " + firstLine(err)
		} else if lp.Optimal {
			lpValue, ratio = fmt.Sprintf("%.4g", lp.Objective), fmt.Sprintf("%.2f", best/lp.Objective)
		}
		sol, err := m.SolveFrom(context.Background(), cbc, limit, res.Schedule)
		if err != nil { // CBC 2.10.8 can crash on a mipstart, or overrun its limit: say so, go on
			fmt.Printf("| %s | %.4g%s | %.4g | CBC failed: %s | | | %s | %s | %d | |\n", name, best, proven(res.Proven), res.LowerBound,
				firstLine(err), lpValue, ratio, m.Binaries())
			continue
		}
		milp, retimed := "no schedule", "–"
		if sol.Feasible {
			s, err := m.Schedule(sol, "milp")
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if err := replays(in, s); err != nil {
				return fmt.Errorf("%s: the MILP's schedule: %w", name, err)
			}
			seq := make([][2]string, len(s.Actions))
			for i, a := range s.Actions {
				seq[i] = [2]string{tr.Nodes[a.From].Name, tr.Nodes[a.To].Name}
			}
			placed, err := treenet.PlaceSequence(context.Background(), in, seq)
			if err != nil {
				return fmt.Errorf("%s: the MILP's transfers in start order: %w", name, err)
			}
			retimed = fmt.Sprintf("%.4g", placed.Claimed)
			milp = fmt.Sprintf("%.4g", sol.Objective)
			if !sol.Optimal {
				milp += " (not solved)"
			}
		}
		fmt.Printf("| %s | %.4g%s | %.4g | %s | %s | %s | %s | %s | %d | %.0f |\n", name, best, proven(res.Proven), res.LowerBound,
			milp, bound(sol.Bound), retimed, lpValue, ratio, m.Binaries(), sol.Elapsed.Seconds())
	}
	return nil
}

// firstLine is an error's first line, for a table cell.
func firstLine(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

func proven(p bool) string {
	if p {
		return " (proven)"
	}
	return ""
}

func bound(b float64) string {
	if math.IsNaN(b) {
		return "–"
	}
	return fmt.Sprintf("%.4g", b)
}

// replays checks a schedule by timed replay: no violation, the problem
// solved, the claimed makespan met.
func replays(in policies.Instance, s *sim.Schedule) error {
	res, err := check.Replay(context.Background(), in.Platform, in.Problem, s, sim.Timed)
	if err != nil {
		return err
	}
	if len(res.Violations) > 0 {
		return fmt.Errorf("%d violations, the first: %v", len(res.Violations), res.Violations[0])
	}
	if !res.Matches() {
		return fmt.Errorf("simulated makespan %.12g, claimed %.12g", res.Makespan, res.Claimed)
	}
	return nil
}

package broadcast

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

// TestStoppedBoundIsValid stops the search after a few nodes on small
// random trees: the lower bound it reports (the least bound of the states
// it has not closed) never exceeds the exhaustive optimum, and on some
// instances it rises above the root bound.
func TestStoppedBoundIsValid(t *testing.T) {
	trees := slowtest.Pick(30, 120)
	raised := 0
	for seed := range uint64(trees) {
		in, err := randomInstance(7000+seed, 8)
		if err != nil {
			t.Fatal(err)
		}
		want := exhaustive(in.Platform.Tree, 1, in.Problem.Broadcast.Roots)
		for _, budget := range []int64{3, 10, 40, 160} {
			opt := DefaultOptions()
			opt.MaxNodes = budget
			res, err := Optimal(context.Background(), in, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.LowerBound > want*(1+1e-9) || res.Schedule.Claimed < want*(1-1e-9) {
				t.Errorf("seed %d, %d nodes: bound %.12g, best %.12g, optimum %.12g", 7000+seed, budget, res.LowerBound, res.Schedule.Claimed, want)
			}
			if !res.Proven && res.LowerBound > res.RootBound*(1+1e-9) {
				raised++
			}
		}
	}
	if raised == 0 {
		t.Error("no stopped search raised its bound above the root bound")
	}
	t.Logf("%d stopped searches raised the bound above the root bound", raised)
}

// TestProgressLines: a search over 2 s writes progress lines with the best
// makespan and the bound; a short one writes none. (The SAT prover, off
// here, writes a line for each of its answers: TestOptimalSATProves.)
// Its lines come every 2 s of wall clock, so it runs with NETSCHED_TIMING=1
// only; a budget of 3.5 s leaves the search 1.5 s after the first line is
// due to write it, stalled as it may be on a loaded machine.
func TestProgressLines(t *testing.T) {
	slowtest.Timing(t)
	in, err := randomHardInstance(1, 24)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	opt := DefaultOptions()
	opt.MaxTime, opt.Progress, opt.SAT = 3500*time.Millisecond, &buf, false
	res, err := Optimal(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven {
		t.Skip("proven before the first progress line")
	}
	if lines := strings.Split(strings.TrimSpace(buf.String()), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "lower bound") {
		t.Errorf("progress: %q, want one line", buf.String())
	}
	buf.Reset()
	opt.MaxTime = 100 * time.Millisecond
	if _, err := Optimal(context.Background(), in, opt); err != nil || buf.Len() != 0 {
		t.Errorf("short search: %v, progress %q", err, buf.String())
	}
}

// budgetCases are the searches of the budget test: the hard families of
// issue 21 and paper 004's Fig. 13 and 14 shapes at the sizes of
// internal/hardrun (results/benchmarks.md, "The time budget"), and larger
// random trees.
func budgetCases(t *testing.T) []struct {
	name string
	in   policies.Instance
} {
	t.Helper()
	var out []struct {
		name string
		in   policies.Instance
	}
	add := func(name string, in policies.Instance, err error) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			name string
			in   policies.Instance
		}{name, in})
	}
	for _, n := range []int{16, 24, 32, 96, 128} {
		in, err := randomHardInstance(1, n)
		add(fmt.Sprintf("random-%d", n), in, err)
	}
	for _, n := range []int{32, 64} {
		smp, err := smpTree(n)
		add(fmt.Sprintf("smp-%d", n), instanceOf(smp, trees.DefaultMessageSize, "0"), err)
	}
	p := trees.DefaultNetParams()
	for _, n := range []int{64, 128} {
		coc, err := trees.ClusterOfClustersTree(n/4, p)
		add(fmt.Sprintf("fig13-%d", n), instanceOf(coc, trees.DefaultMessageSize, "0"), err)
		uc, err := trees.UnequalClustersTree(n/4, p)
		add(fmt.Sprintf("fig14-%d", n), instanceOf(uc, trees.DefaultMessageSize, "0"), err)
	}
	return out
}

// TestTimeBudgetHonoured runs every search of budgetCases with a time
// budget: each ends (start-up included) within 5 % of it, and 0.5 s that
// a loaded machine may take to run the search again once it is due to
// stop. Wall-clock on a shared machine: the figures are logged as ratios.
// The budget is 2 s:
// on a machine loaded 10 times over, building the routes of 128
// participants (the one step no budget cuts: no schedule exists without
// it) takes up to 80 ms, and an expansion at 64 up to 30 ms. hardrun
// checks the same at 10 s (results/benchmarks.md, "The time budget").
//
// Wall-clock time is only meaningful with the machine to itself: go test
// ./... runs packages side by side, so the test runs only when
// NETSCHED_TIMING=1, which .ci/run sets for it alone after the suite.
func TestTimeBudgetHonoured(t *testing.T) {
	slowtest.Timing(t)
	for _, c := range budgetCases(t) {
		const budget, slack = 2 * time.Second, 500 * time.Millisecond
		opt := DefaultOptions()
		opt.MaxTime = budget
		begin := time.Now()
		res, err := Optimal(context.Background(), c.in, opt)
		elapsed := time.Since(begin)
		if err != nil {
			t.Fatal(err)
		}
		ratio := elapsed.Seconds() / budget.Seconds()
		t.Logf("%s: %.3f of the budget, %d nodes, best %.6g, bound %.6g, proven %v", c.name, ratio, res.Nodes, res.Schedule.Claimed, res.LowerBound, res.Proven)
		if elapsed > budget*105/100+slack {
			t.Errorf("%s: ran %v, budget %v", c.name, elapsed, budget)
		}
		// The timed path (local search chains, timed probes, race) must
		// still give a complete schedule that replays at its claim.
		checktest.Verify(t, c.in.Platform, c.in.Problem, res.Schedule, sim.Timed)
		checkBroadcast(t, c.in, res.Schedule)
		if res.LowerBound > res.Schedule.Claimed*(1+1e-9) {
			t.Errorf("%s: lower bound %g above the best %g", c.name, res.LowerBound, res.Schedule.Claimed)
		}
	}
}

// TestDeadlineCutsSetUp gives the largest searches of budgetCases a budget
// far shorter than their set-up (the bound's figures and the ecef
// schedule, measured here without a budget): each still returns a
// complete schedule that verifies and a valid bound (the root's arrival
// bound at least), sooner than the set-up alone takes, the network's
// routes being the only work the deadline does not cut. That last
// comparison of two wall-clock durations is made with NETSCHED_TIMING=1
// only.
func TestDeadlineCutsSetUp(t *testing.T) {
	for _, c := range budgetCases(t) {
		nw, err := treenet.NewNetwork(context.Background(), c.in)
		if err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		s := newSearch(nw, DefaultOptions())
		if err := s.first.ecef(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		setUp := time.Since(begin)
		opt := DefaultOptions()
		opt.MaxTime = time.Millisecond
		begin = time.Now()
		res, err := Optimal(context.Background(), c.in, opt)
		elapsed := time.Since(begin)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: set-up %v, 1 ms search %v: best %.6g, bound %.6g", c.name, setUp, elapsed, res.Schedule.Claimed, res.LowerBound)
		checktest.Verify(t, c.in.Platform, c.in.Problem, res.Schedule, sim.Timed)
		if res.Proven || res.LowerBound > res.Schedule.Claimed || res.LowerBound <= 0 {
			t.Errorf("%s: proven %v, bound %g, best %g", c.name, res.Proven, res.LowerBound, res.Schedule.Claimed)
		}
		if len(nw.Parts) >= 96 && elapsed >= setUp && slowtest.TimingEnabled() {
			t.Errorf("%s: a 1 ms search ran %v, the set-up alone %v", c.name, elapsed, setUp)
		}
	}
}

// TestDeepenRaisesBound stops the search after 20,000 nodes on six random
// trees of 16 participants with and without deepening: with it, the
// searches prove more optima and their lower bounds rise further above the
// root bounds (TestStoppedBoundIsValid checks that they stay valid).
func TestDeepenRaisesBound(t *testing.T) {
	slowtest.Skip(t) // searches six trees of 16 participants twice: 2.5 s of CPU
	var proven [2]int
	var raised [2]float64
	for seed := range uint64(6) {
		in, err := randomHardInstance(seed, 16)
		if err != nil {
			t.Fatal(err)
		}
		for i, deepen := range []bool{false, true} {
			opt := DefaultOptions()
			opt.Deepen, opt.MaxNodes = deepen, 20_000
			res, err := Optimal(context.Background(), in, opt)
			if err != nil {
				t.Fatal(err)
			}
			if res.Proven {
				proven[i]++
			}
			raised[i] += res.LowerBound - res.RootBound
		}
	}
	t.Logf("proven %d → %d, bounds raised by %.3g → %.3g in all", proven[0], proven[1], raised[0], raised[1])
	if proven[1] <= proven[0] || raised[1] < 2*raised[0] {
		t.Errorf("deepening proves %d (plain %d) and raises the bounds by %.3g (plain %.3g)", proven[1], proven[0], raised[1], raised[0])
	}
}

// TestFloorDigits: a lower bound printed short is rounded down.
func TestFloorDigits(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{3.490039062490934, 3.49003}, {3.5, 3.5}, {0.3223059999, 0.322305}, {1234567, 1234560}, {0, 0},
	} {
		if got := floorDigits(c.x, 6); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("floorDigits(%v, 6) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestDiveGivesUpWhereLoose checks that a timed dive past its share of the
// budget gives up where it bounds more children per level than there are
// participants (a random tree with relays), and goes on down to a schedule
// where the bound is tight (the paper's Fig. 14 shape).
func TestDiveGivesUpWhereLoose(t *testing.T) {
	random, err := randomHardInstance(1, 24)
	if err != nil {
		t.Fatal(err)
	}
	uc, err := trees.UnequalClustersTree(16, trees.DefaultNetParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		in     policies.Instance
		gaveUp bool
	}{{"random-24", random, true}, {"fig14-64", instanceOf(uc, trees.DefaultMessageSize, "0"), false}} {
		nw, err := treenet.NewNetwork(context.Background(), c.in)
		if err != nil {
			t.Fatal(err)
		}
		opt := DefaultOptions()
		opt.MaxTime = diveShare // its share, a nanosecond, is over at once
		s := newSearch(nw, opt)
		s.begin, s.deadline = time.Now(), time.Now().Add(time.Hour) // the budget proper is not
		if err := s.prepare(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.rootBound = s.bound()
		gaveUp := s.first.dive(diveOrders()[0], false)
		if gaveUp != c.gaveUp || s.stopped || len(s.c.Moves) != 0 {
			t.Errorf("%s: gave up %v, stopped %v, %d moves left placed", c.name, gaveUp, s.stopped, len(s.c.Moves))
		}
		if found := !math.IsInf(s.best, 1) && len(s.bestMoves) == len(nw.Parts)-1; found == c.gaveUp {
			t.Errorf("%s: gave up %v, and found a schedule %v (best %g)", c.name, gaveUp, found, s.best)
		}
	}
}

// TestProbedBoundReported: a search stopped by its node budget in the
// dives after its first probe holds no open state, yet the probe left
// states open whose least bound is above the root's (random-24/0: 3.65
// against 3.15); the result reports that bound, not the root's. (TestStoppedBoundIsValid checks such bounds against the
// optimum.)
func TestProbedBoundReported(t *testing.T) {
	opt := DefaultOptions()
	opt.SAT, opt.MaxNodes = false, 2500
	res, err := Optimal(context.Background(), hardInstance(t, 0, 24), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven || !approx(res.RootBound, 3.15) || res.LowerBound < 3.65-1e-9 || res.LowerBound > res.Schedule.Claimed {
		t.Errorf("proven %v, root bound %g, lower bound %g, best %g; want unproven with a bound of at least 3.65 from the probe",
			res.Proven, res.RootBound, res.LowerBound, res.Schedule.Claimed)
	}
}

package broadcast

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/internal/tooltest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/bcheck"
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

// satDecide is bcheck.Decide.
var satDecide = bcheck.Decide

// cadicalPath returns the cadical command (see tooltest.Path).
func cadicalPath(t *testing.T) string { t.Helper(); return tooltest.Path(t, timeindexed.CaDiCaL) }

// TestSATEqualsExhaustive decides, on the small trees of
// TestOptimalEqualsExhaustive (random with relays, latencies, half duplex
// and one or two roots; symmetric, clustered, two-speed and SMP-like), the
// formula of the time-indexed model by CaDiCaL at the exhaustive optimum
// and a grid step below it. At the optimum it must give a schedule that
// replays with no violation and ends by it. A step below, the answer must
// be "none" without latencies, where the search's space holds an optimal
// feasible schedule; with latencies a grid schedule may hold a transfer
// back and beat every earliest-start one, and then it must replay too.
func TestSATEqualsExhaustive(t *testing.T) {
	cadical := cadicalPath(t)
	trees, maxParts := slowtest.Pick(10, 60), slowtest.Pick(6, 7)
	better, decided, offGrid := 0, 0, 0
	for seed := range uint64(trees) {
		in, err := randomInstance(seed, maxParts)
		if err != nil {
			t.Fatal(err)
		}
		switch seed % 5 {
		case 1:
			in = clusteredInstance(seed, maxParts)
		case 2:
			in = symmetricInstance(seed, maxParts)
		case 3:
			in = twoSpeedInstance(seed, maxParts)
		case 4:
			in = smpMiniInstance(seed, maxParts)
		}
		for _, noLatency := range []bool{false, true} {
			if noLatency {
				in = instanceOf(zeroLatencies(in.Platform.Tree), 1, in.Problem.Broadcast.Roots...)
			}
			want := exhaustive(in.Platform.Tree, 1, in.Problem.Broadcast.Roots)
			m, err := timeindexed.New(in, want)
			if err != nil {
				offGrid++ // no grid step 1/k, k ≤ 1000, for its times
				continue
			}
			decided++
			if _, ok := satDecide(t, cadical, in, want, nil); !ok {
				t.Fatalf("seed %d (no latency %v): no schedule by the exhaustive optimum %.12g", seed, noLatency, want)
			}
			s, ok := satDecide(t, cadical, in, want-m.Step()/2, nil)
			switch {
			case ok && noLatency:
				t.Errorf("seed %d: without latencies, a schedule of %.12g beats the exhaustive optimum %.12g", seed, s.Claimed, want)
			case ok:
				better++
				t.Logf("seed %d: a grid schedule of %.12g beats the exhaustive %.12g by holding a transfer back", seed, s.Claimed, want)
			}
		}
	}
	t.Logf("%d instances decided, %d off every grid; %d with latencies have a schedule faster than every earliest-start one", decided, offGrid, better)
	if decided < trees {
		t.Errorf("only %d of %d instances decided", decided, 2*trees)
	}
}

// TestOptimalSATProves runs optimal with the SAT prover on random-16/2,
// without a budget (the prover before the branch and bound goes on) and
// with a time budget (alongside it; 10 minutes, which no loaded machine
// reaches: the run ends when the prover proves): both prove the optimum
// 2.95, their schedules replay, the prover's last answer ("none by 2.9")
// is on the progress lines, and without a budget two runs give the same
// schedule.
// With the prover off and a node budget, the search is not proven, as
// before it (the branch and bound alone does not prove 2.95 within 60 s:
// its bound stays at 2.75).
func TestOptimalSATProves(t *testing.T) {
	cadicalPath(t)
	in := hardInstance(t, 2, 16)
	var first *Result
	for _, budget := range []time.Duration{0, 0, 10 * time.Minute} {
		opt := DefaultOptions()
		var progress bytes.Buffer
		opt.MaxTime, opt.Progress = budget, &progress
		res, err := Optimal(context.Background(), in, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(progress.String(), "SAT: none by 2.9 ") {
			t.Errorf("budget %v: progress %q, want the SAT prover's answer at 2.9", budget, progress.String())
		}
		t.Logf("budget %v: %.6g proven %v in %v; SAT: %s", budget, res.Schedule.Claimed, res.Proven, res.Elapsed.Round(time.Millisecond), res.SAT)
		if !res.Proven || !approx(res.Schedule.Claimed, 2.95) || !approx(res.LowerBound, 2.95) {
			t.Errorf("budget %v: %.12g, lower bound %.12g, proven %v; want 2.95 proven", budget, res.Schedule.Claimed, res.LowerBound, res.Proven)
		}
		if !strings.HasPrefix(res.SAT, "proved the optimum 2.95") {
			t.Errorf("budget %v: SAT prover %q", budget, res.SAT)
		}
		checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
		checkBroadcast(t, in, res.Schedule)
		if budget == 0 && first != nil && !reflect.DeepEqual(first.Schedule.Actions, res.Schedule.Actions) {
			t.Errorf("two runs without a budget give different schedules")
		}
		if first == nil {
			first = res
		}
	}
	opt := DefaultOptions()
	opt.SAT, opt.MaxNodes = false, 20_000
	res, err := Optimal(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Proven || res.SAT != "" {
		t.Errorf("without the prover, 20,000 nodes: proven %v (%.12g), SAT %q", res.Proven, res.Schedule.Claimed, res.SAT)
	}
}

// TestSATNotRun: the prover says why it does not run on an instance whose
// times lie on no grid 1/k, k ≤ 1000 (a latency of 0.0007), and on one
// whose model would exceed satMaxBinaries (a random tree of 96
// participants), and on one with more transfers than satMaxPairs (160);
// the search goes on without it. (The paper's shapes, with
// latencies of 10^-4 and shared memory, need a grid finer than 1/1000.)
func TestSATNotRun(t *testing.T) {
	cadicalPath(t)
	star, err := trees.StarTree(4, models.LinkParams{Bandwidth: 1, Latency: 0.0007})
	if err != nil {
		t.Fatal(err)
	}
	off := instanceOf(star, 1, "0")
	big, bigger := hardInstance(t, 0, 96), hardInstance(t, 0, 160)
	for _, tc := range []struct {
		name string
		in   policies.Instance
		want string
	}{
		{"off the grid", off, "not run: time-indexed model: no grid step"},
		{"random-96/0", big, "not run: the time-indexed model has"},
		{"random-160/0", bigger, "not run: 160 participants make 25440 transfers"},
	} {
		s := ecefSearch(t, tc.in)
		if s.sat.prove() {
			t.Errorf("%s: the prover proved it", tc.name)
		}
		if !strings.HasPrefix(s.sat.why, tc.want) {
			t.Errorf("%s: the prover says %q, want %q…", tc.name, s.sat.why, tc.want)
		}
	}
}

// TestSATStoppedWithTheSearch: when the budget ends the search before the
// prover proves anything (random-32/6, whose proof takes about a minute,
// with a budget of 1 s), the result and its warning say so, and name no
// bound the prover did not prove.
func TestSATStoppedWithTheSearch(t *testing.T) {
	cadicalPath(t)
	opt := DefaultOptions()
	opt.MaxTime = time.Second
	res, err := Optimal(context.Background(), hardInstance(t, 6, 32), opt)
	if err != nil {
		t.Fatal(err)
	}
	const want = "stopped with the search, before it proved the optimum"
	if res.Proven || res.SAT != want {
		t.Errorf("proven %v, SAT %q; want unproven and %q", res.Proven, res.SAT, want)
	}
	if !slices.Contains(res.Schedule.Warnings, "SAT prover: "+want) {
		t.Errorf("warnings %q, want the prover's", res.Schedule.Warnings)
	}
}

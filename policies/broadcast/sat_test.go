package broadcast

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
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
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/sim"
)

// cadicalPath returns the cadical command (see tooltest.Path).
func cadicalPath(t *testing.T) string { t.Helper(); return tooltest.Path(t, timeindexed.CaDiCaL) }

// satDecide reports whether a feasible schedule ends by horizon, in the
// neighbourhood nb (nil: the whole model), with that schedule, which must
// replay with no violation and end by it.
func satDecide(t *testing.T, cadical string, in policies.Instance, horizon float64, nb restriction) (*sim.Schedule, bool) {
	t.Helper()
	m, err := timeindexed.New(in, horizon)
	if err == nil && nb != nil {
		err = m.Restrict(nb)
	}
	if errors.Is(err, timeindexed.ErrHorizon) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	f, a, err := m.Decide(context.Background(), cadical)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Satisfiable() {
		if !a.Unsatisfiable() {
			t.Fatalf("horizon %g: %s", horizon, a.Status)
		}
		return nil, false
	}
	s, err := f.Schedule(a, "sat")
	if err != nil {
		t.Fatal(err)
	}
	checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
	checkBroadcast(t, in, s)
	if s.Claimed > m.Horizon()*(1+1e-9) {
		t.Errorf("horizon %g: the schedule ends at %.12g", m.Horizon(), s.Claimed)
	}
	return s, true
}

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
	star, err := models.StarTree(4, models.LinkParams{Bandwidth: 1, Latency: 0.0007})
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
		if s.proveSAT() {
			t.Errorf("%s: the prover proved it", tc.name)
		}
		if !strings.HasPrefix(s.satWhy, tc.want) {
			t.Errorf("%s: the prover says %q, want %q…", tc.name, s.satWhy, tc.want)
		}
	}
}

// TestSATWatch: a solve at horizon h goes on while the search's best
// makespan is above h and is cancelled at the first tick after it reaches
// h. The test gives the ticks: a tick sent has been taken, so the check
// of the one before is over.
func TestSATWatch(t *testing.T) {
	p := &satProver{}
	p.hi.Store(math.Float64bits(4)) // 80 slots of 1/20
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		p.watch(ctx, cancel, 79, 20, ticks)
		close(done)
	}()
	for i := range 5 {
		select {
		case ticks <- time.Time{}:
		case <-done:
			t.Fatalf("returned at tick %d while the best (80 slots) is above the horizon (79)", i)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("cancelled while the best (80 slots) is above the horizon (79)")
	}
	p.hi.Store(math.Float64bits(3.95))
	select {
	case ticks <- time.Time{}:
		<-done
	case <-done: // the check of the last tick saw the new best
	}
	if ctx.Err() == nil {
		t.Error("watch returned without cancelling")
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

// TestSATWaitsForASmallerModel: a prover running alongside the search
// whose model is too large at the first schedule (here: more start
// variables than its cap at twice random-16/2's optimum of 2.95) says so
// and waits; once the search shares a faster schedule that shrinks the
// model under the cap, it builds the model again and proves the optimum.
// The test drives the prover by its events and the better signal.
func TestSATWaitsForASmallerModel(t *testing.T) {
	cadical := cadicalPath(t)
	in := hardInstance(t, 2, 16)
	opt := DefaultOptions()
	opt.SAT, opt.MaxNodes = false, 20_000
	res, err := Optimal(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	binaries := func(horizon float64) int {
		m, err := timeindexed.New(in, horizon)
		if err != nil {
			t.Fatal(err)
		}
		return m.Binaries()
	}
	slow, fast := 2*2.95, res.Schedule.Claimed
	small, large := binaries(fast), binaries(slow)
	if small >= large {
		t.Fatalf("the model has %d start variables at %g and %d at %g", small, fast, large, slow)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &satProver{in: in, nw: networkOf(t, in), solver: cadical, events: make(chan satEvent, 16), cancel: cancel,
		rng: rand.New(rand.NewPCG(1, 2)), shared: math.Inf(1), maxBinaries: small, better: make(chan struct{}, 1)}
	p.hi.Store(math.Float64bits(slow))
	go p.run(ctx)
	ev := <-p.events
	if !ev.waiting || ev.stopped || !strings.HasPrefix(ev.why, "not run: the time-indexed model has") {
		t.Fatalf("first event %+v, want the prover waiting for a smaller model", ev)
	}
	moves := movesOf(p.nw, res.Schedule)
	p.best.Store(&moves)
	p.hi.Store(math.Float64bits(fast))
	p.better <- struct{}{}
	for ev = range p.events {
		if ev.waiting {
			t.Fatalf("still waiting at %g: %+v", fast, ev)
		}
	}
	if !ev.stopped || !approx(ev.bound, 2.95) || !strings.HasPrefix(ev.why, "proved the optimum 2.95") {
		t.Errorf("last event %+v, want the optimum 2.95 proved", ev)
	}
}

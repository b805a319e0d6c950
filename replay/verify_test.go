package replay

import (
	"bytes"
	"context"
	"errors"
	"github.com/netsched/netsched/internal/fixture"
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/schedfile"
	"github.com/netsched/netsched/sim"
)

// verify replays a crafted schedule and checks that it gives exactly the
// expected violations and is not OK.
func verify(t *testing.T, p *models.Platform, s *sim.Schedule, mode sim.Mode, want ...sim.Violation) *sim.Result {
	t.Helper()
	r := mustReplay(t, p, s, mode)
	checkViolations(t, r.Violations, want)
	if r.OK() {
		t.Errorf("OK() = true with violations %v", r.Violations)
	}
	for _, v := range r.Violations {
		if v.Detail == "" {
			t.Errorf("violation %v has no detail", v)
		}
	}
	return r
}

func TestVerifyPortBookedTwice(t *testing.T) {
	p := fixture.Crossbar(models.HalfDuplex, 1, 0, fixture.Procs(3, 1)...)
	// P1 receives from P0 during [0, 4) and sends to P2 from t = 3.
	s := &sim.Schedule{Claimed: 5, Actions: timed([]float64{0, 3}, fixture.Transfer(0, 1, 4), fixture.Transfer(1, 2, 2))}
	r := verify(t, p, s, sim.Timed, v(sim.PortConflict, 1, "P1 port", 3))
	if r.Makespan != 5 || !r.Matches() {
		t.Errorf("makespan %g, claim %g: the replay carries on as if allowed", r.Makespan, r.Claimed)
	}
}

func TestVerifyProcessorBookedTwice(t *testing.T) {
	p := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(2, 0.5)...)
	s := &sim.Schedule{Actions: timed([]float64{0, 1}, fixture.Compute(1, 4), fixture.Compute(1, 4))}
	r := verify(t, p, s, sim.Timed, v(sim.ProcessorConflict, 1, "P1 processor", 1))
	checkTimesEqual(t, "end", r.Ends, []float64{2, 3})

	d := &models.Platform{Delay: &models.Delay{Rho: 1}}
	verify(t, d, &sim.Schedule{Actions: timed([]float64{0, 2.5}, fixture.Compute(4, 3), fixture.Compute(4, 1))}, sim.Timed,
		v(sim.ProcessorConflict, 1, "P4 processor", 2.5))
}

func TestVerifyLinkOverCapacity(t *testing.T) {
	// Two transfers of rate 2 through s→x (capacity 3) at once.
	p := starTree(3, "")
	s := &sim.Schedule{Actions: timed([]float64{0, 1.5}, fixture.Transfer(0, 2, 4), fixture.Transfer(0, 3, 4))}
	verify(t, p, s, sim.Timed, v(sim.LinkOverCapacity, 1, "s→x", 1.5))
}

func TestVerifyPredecessorNotFinished(t *testing.T) {
	p := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(3, 1)...)
	// Transfer 1 forwards what P1 receives during [0, 3), but starts at 2.
	s := &sim.Schedule{Actions: timed([]float64{0, 2}, fixture.Transfer(0, 1, 3), fixture.Transfer(1, 2, 3, 0))}
	verify(t, p, s, sim.Timed, v(sim.PredecessorLate, 1, "action 0", 2))
}

func TestVerifyDataNotArrived(t *testing.T) {
	p := &models.Platform{Delay: &models.Delay{Rho: 2}}
	// Task 1 on P1 follows task 0 on P0 (ends at 1): data arrives at 3.
	s := &sim.Schedule{Actions: timed([]float64{0, 2}, fixture.Compute(0, 1), fixture.Compute(1, 1, 0))}
	verify(t, p, s, sim.Timed, v(sim.DataLate, 1, "action 0", 2))
	// On the same processor there is no delay.
	same := &sim.Schedule{Actions: timed([]float64{0, 1}, fixture.Compute(0, 1), fixture.Compute(0, 1, 0))}
	if r := mustReplay(t, p, same, sim.Timed); len(r.Violations) != 0 {
		t.Errorf("same processor: violations %v", r.Violations)
	}
}

func TestVerifyMissedEnd(t *testing.T) {
	// P0 cannot compute while it sends during [1, 3): its 2 units end at 4,
	// not at the planned 2.
	p := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(2, 1)...)
	acts := timed([]float64{0, 1}, fixture.Compute(0, 2), fixture.Transfer(0, 1, 2))
	acts[0].End = sim.Time(2)
	r := verify(t, p, &sim.Schedule{Actions: acts}, sim.Timed, v(sim.MissedEnd, 0, "P0 processor", 2))
	if r.Ends[0] != 4 {
		t.Errorf("end %g, want 4", r.Ends[0])
	}
	// Ordered replay ignores planned times, ends included.
	verify(t, p, &sim.Schedule{Actions: acts}, sim.Ordered)
}

func TestVerifyDeadlock(t *testing.T) {
	// Transfer 0 is first on P0's send port but follows transfer 1, which
	// is second on it: ordered replay can never start either.
	p := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(3, 1)...)
	s := &sim.Schedule{Actions: []sim.Action{fixture.Transfer(0, 1, 1, 1), fixture.Transfer(0, 2, 1), fixture.Compute(2, 1)}}
	r := verify(t, p, s, sim.Ordered, v(sim.NoProgress, 0, "action 1", 1), v(sim.NoProgress, 1, "P0 send port", 1))
	if !math.IsInf(r.Starts[0], 1) || !math.IsInf(r.Ends[1], 1) || r.Makespan != 1 {
		t.Errorf("starts %v ends %v makespan %g: want +Inf for the stuck actions, makespan 1", r.Starts, r.Ends, r.Makespan)
	}
	// The same on a tree: transfer 0 is first on s→x but follows transfer
	// 1, which must wait for it there.
	tree := &sim.Schedule{Actions: []sim.Action{fixture.Transfer(0, 2, 1, 1), fixture.Transfer(0, 3, 1)}}
	verify(t, starTree(2, ""), tree, sim.Ordered, v(sim.NoProgress, 0, "action 1", 0), v(sim.NoProgress, 1, "s→x", 0))
}

func TestReplayScheduleErrors(t *testing.T) {
	cross := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(8, 1)...)
	delay := &models.Platform{Delay: &models.Delay{Rho: 1}}
	bounded := &models.Platform{Delay: &models.Delay{Rho: 1, Processors: 2}}
	tree := starTree(2, "")
	ok := []sim.Action{fixture.Transfer(0, 1, 1), fixture.Compute(2, 1)}
	with := func(i int, f func(*sim.Action)) []sim.Action {
		acts := append([]sim.Action(nil), ok...)
		f(&acts[i])
		return acts
	}
	cases := []struct {
		name     string
		platform *models.Platform
		actions  []sim.Action
		mode     sim.Mode
		path     string
		msg      string
	}{
		{"node out of range", cross, append(ok, fixture.Transfer(0, 17, 1)), sim.Ordered, "actions[2].to", "node 17 does not exist (platform has 8 nodes)"},
		{"negative node", cross, append(ok, fixture.Compute(-1, 1)), sim.Ordered, "actions[2].node", "node -1 does not exist"},
		{"transfer to itself", cross, append(ok, fixture.Transfer(3, 3, 1)), sim.Ordered, "actions[2].to", "to itself"},
		{"bad kind", cross, with(1, func(a *sim.Action) { a.Kind = "sleep" }), sim.Ordered, "actions[1].kind", `got "sleep"`},
		{"negative amount", cross, with(0, func(a *sim.Action) { a.Amount = -1 }), sim.Ordered, "actions[0].amount", ">= 0"},
		{"NaN amount", cross, with(0, func(a *sim.Action) { a.Amount = math.NaN() }), sim.Ordered, "actions[0].amount", "NaN"},
		{"after out of range", cross, with(1, func(a *sim.Action) { a.After = []int{0, 5} }), sim.Ordered, "actions[1].after[1]", "action 5 does not exist (schedule has 2 actions)"},
		{"after itself", cross, with(1, func(a *sim.Action) { a.After = []int{1} }), sim.Ordered, "actions[1].after[0]", "itself"},
		{"cycle", cross, []sim.Action{fixture.Compute(0, 1, 2), fixture.Compute(1, 1, 0), fixture.Compute(2, 1, 1), fixture.Compute(3, 1)}, sim.Ordered, "actions[0].after", "0 → 2 → 1 → 0"},
		{"timed with every start", cross, timed([]float64{0, 0}, ok...), sim.Timed, "", ""},
		{"timed missing a start", cross, append(timed([]float64{0}, ok[0]), ok[1]), sim.Timed, "actions[1].start", "planned start"},
		{"negative start", cross, timed([]float64{-1, 0}, ok...), sim.Timed, "actions[0].start", ">= 0"},
		{"transfer on delay", delay, []sim.Action{fixture.Compute(0, 1), fixture.Transfer(0, 1, 1)}, sim.Ordered, "actions[1].kind", "no transfer"},
		{"negative virtual processor", delay, []sim.Action{fixture.Compute(-2, 1)}, sim.Ordered, "actions[0].node", "virtual processor -2"},
		{"bounded delay processors", bounded, []sim.Action{fixture.Compute(2, 1)}, sim.Ordered, "actions[0].node", "node 2 does not exist (platform has 2 nodes)"},
		{"compute on a tree", tree, []sim.Action{fixture.Compute(0, 1)}, sim.Ordered, "actions[0].kind", "no compute"},
		{"transfer to a relay", tree, []sim.Action{fixture.Transfer(0, 1, 1)}, sim.Ordered, "actions[0].to", "relay"},
		{"tree node out of range", tree, []sim.Action{fixture.Transfer(4, 0, 1)}, sim.Ordered, "actions[0].from", "node 4 does not exist (platform has 4 nodes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Replay(context.Background(), c.platform, &sim.Schedule{Actions: c.actions}, c.mode)
			if c.path == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var fe *models.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a *models.FieldError", err)
			}
			if fe.Path != c.path || !strings.Contains(fe.Msg, c.msg) {
				t.Errorf("error %q, want path %q and a message containing %q", err, c.path, c.msg)
			}
		})
	}
	t.Run("bad platform", func(t *testing.T) {
		bad := fixture.Crossbar(models.FullDuplex, 0, 0, fixture.Procs(2, 1)...)
		_, err := Replay(context.Background(), bad, &sim.Schedule{}, sim.Ordered)
		var fe *models.FieldError
		if !errors.As(err, &fe) || fe.Path != "platform.crossbar.beta" {
			t.Errorf("error %v, want one at platform.crossbar.beta", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Replay(ctx, cross, &sim.Schedule{Actions: ok}, sim.Ordered); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
}

// A schedule written to JSON and read back replays the same.
func TestReplayScheduleJSON(t *testing.T) {
	p := fixture.Crossbar(models.HalfDuplex, 0.5, 0.1, fixture.Procs(3, 1)...)
	s := &sim.Schedule{Policy: "hand", Claimed: 4.6}
	c := s.Add(sim.Action{Kind: sim.Compute, Node: 0, Amount: 2, Label: "t0", Round: 1, Start: sim.Time(0), End: sim.Time(2)})
	s.Add(sim.Action{Kind: sim.Transfer, From: 0, To: 2, Amount: 5, After: []int{c}, Label: "x", Round: 1, Start: sim.Time(2), End: sim.Time(4.6)})
	var buf bytes.Buffer
	if err := s.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := schedfile.Read(&buf, p)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []sim.Mode{sim.Timed, sim.Ordered} {
		want := mustReplay(t, p, s, mode)
		got := mustReplay(t, p, back, mode)
		if !got.OK() || !want.OK() {
			t.Errorf("%v: not OK: makespan %g claim %g violations %v", mode, got.Makespan, got.Claimed, got.Violations)
		}
		checkTimesEqual(t, "start", got.Starts, want.Starts)
		checkTimesEqual(t, "end", got.Ends, []float64{2, 4.6})
		if len(got.Trace.Intervals) != 3 || got.Trace.Intervals[1].Label != "x" || got.Trace.Intervals[1].Round != 1 {
			t.Errorf("%v: trace %+v", mode, got.Trace.Intervals)
		}
	}
}

package replay

import (
	"context"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/fixture"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sim"
)

// sharedFixture is two transfers out of P0 on a full-duplex crossbar
// (α = 0, β = 1) and a computation of 1 on P1 that waits for the first.
func sharedFixture() (*models.Platform, *sim.Schedule) {
	p := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(3, 1)...)
	s := &sim.Schedule{}
	s.Add(fixture.Transfer(0, 1, 2))
	s.Add(fixture.Transfer(0, 2, 2))
	s.Add(fixture.Compute(1, 1, 0))
	return p, s
}

// Under sharing, transfers out of one port share its send link instead of
// queueing on the port: both get half of 1/β and arrive at 4, and the
// computation follows its data. The ideal replay serialises them.
func TestSharedReplayShares(t *testing.T) {
	p, s := sharedFixture()
	ideal, err := Replay(context.Background(), p, s, sim.Ordered)
	if err != nil || len(ideal.Violations) > 0 {
		t.Fatal(err, ideal.Violations)
	}
	if ideal.Makespan != 4 {
		t.Fatalf("ideal makespan %v, want 4", ideal.Makespan)
	}
	r := Replayer{Mode: sim.Ordered, Sharing: network.MaxMin}
	res, err := r.Replay(context.Background(), p, s)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{4, 4, 5}
	for j, w := range want {
		if !fixture.Near(res.Ends[j], w) {
			t.Errorf("action %d ends at %v, want %v", j, res.Ends[j], w)
		}
	}
	if res.Makespan != 5 || len(res.Violations) > 0 || res.Mode != sim.Ordered {
		t.Errorf("makespan %v, violations %v, mode %v; want 5, none, ordered", res.Makespan, res.Violations, res.Mode)
	}
	lanes := strings.Join(res.Trace.Lanes, ",")
	if !strings.Contains(lanes, "P0 send") || !strings.Contains(lanes, "P2 recv") {
		t.Errorf("lanes %s: want the links the flows cross", lanes)
	}
	if len(res.Trace.Intervals) != 2*4+1 {
		t.Errorf("%d trace intervals, want a send, a receive and two links per transfer and the computation", len(res.Trace.Intervals))
	}
}

// Timed replay under sharing starts no action before its planned start:
// the second transfer, planned at 3, no longer shares the port with the
// first.
func TestSharedReplayKeepsPlannedStarts(t *testing.T) {
	p, s := sharedFixture()
	for j, at := range []float64{0, 3, 2} {
		s.Actions[j].Start = sim.Time(at)
	}
	r := Replayer{Mode: sim.Timed, Sharing: network.MaxMin}
	res, err := r.Verify(context.Background(), p, s)
	if err != nil {
		t.Fatal(err)
	}
	for j, w := range []float64{2, 5, 3} {
		if !fixture.Near(res.Ends[j], w) {
			t.Errorf("action %d ends at %v, want %v", j, res.Ends[j], w)
		}
	}
	if res.Mode != sim.Timed {
		t.Errorf("mode %v, want timed", res.Mode)
	}
	// Without After lists, the planned starts alone order the actions.
	s.Actions[2].After = nil
	res, err = r.Verify(context.Background(), p, s)
	if err != nil {
		t.Fatal(err)
	}
	for j, w := range []float64{2, 5, 3} {
		if !fixture.Near(res.Ends[j], w) {
			t.Errorf("without After: action %d ends at %v, want %v", j, res.Ends[j], w)
		}
	}
}

// The checks catch a wrong solver: one rate a little off fails the
// capacity or the bottleneck check, and the replay says so.
func TestSharedReplayCatchesAWrongRate(t *testing.T) {
	for _, factor := range []float64{1 + 1e-9, 1 - 1e-9} {
		p, s := sharedFixture()
		r := Replayer{Mode: sim.Ordered, Sharing: network.MaxMin}
		tampered := false
		r.tamper = func(a network.Allocation) {
			if len(a) > 0 {
				a[0].Rate *= factor
				tampered = true
			}
		}
		_, err := r.Replay(context.Background(), p, s)
		if !tampered || err == nil || !strings.Contains(err.Error(), "fail their check") {
			t.Errorf("rate ×%v: replay error %v, want a failed check", factor, err)
		}
	}
}

// A platform without links cannot be replayed under sharing.
func TestSharedReplayNeedsLinks(t *testing.T) {
	p := &models.Platform{Delay: &models.Delay{Rho: 1}}
	s := &sim.Schedule{}
	s.Add(fixture.Compute(0, 1))
	r := Replayer{Mode: sim.Ordered, Sharing: network.MaxMin}
	if _, err := r.Replay(context.Background(), p, s); err == nil || !strings.Contains(err.Error(), "no network") {
		t.Errorf("error %v, want one saying the platform has no network", err)
	}
}

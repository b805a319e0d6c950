package prover

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// TestSATWatch: a solve at horizon h goes on while the search's best
// makespan is above h and is cancelled at the first tick after it reaches
// h. The test gives the ticks: a tick sent has been taken, so the check
// of the one before is over.
func TestSATWatch(t *testing.T) {
	p := &Prover{}
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

// TestSATWaitsForASmallerModel: a prover running alongside the search
// whose model is too large at the first schedule (here: more start
// variables than its cap at twice random-16/2's optimum of 2.95) says so
// and waits; once the search shares a faster schedule that shrinks the
// model under the cap, it builds the model again and proves the optimum.
// The test drives the prover by its events and the better signal.
func TestSATWaitsForASmallerModel(t *testing.T) {
	cadical := cadicalPath(t)
	in := hardInstance(t, 2, 16)
	nw := networkOf(t, in)
	moves := firstSchedule(t, nw)
	binaries := func(horizon float64) int {
		m, err := timeindexed.New(in, horizon)
		if err != nil {
			t.Fatal(err)
		}
		return m.Binaries()
	}
	slow, fast := 2*2.95, treenet.Makespan(moves)
	small, large := binaries(fast), binaries(slow)
	if small >= large {
		t.Fatalf("the model has %d start variables at %g and %d at %g", small, fast, large, slow)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := New(in, nw, cadical, true)
	p.maxBinaries = small
	p.Share(slow, nil, 0)
	p.Start(ctx)
	ev := <-p.Events()
	if !ev.Waiting || ev.Stopped || !strings.HasPrefix(ev.Why, "not run: the time-indexed model has") {
		t.Fatalf("first event %+v, want the prover waiting for a smaller model", ev)
	}
	p.Share(fast, moves, 0)
	resumed := false
	for ev = range p.Events() {
		if ev.Waiting {
			t.Fatalf("still waiting at %g: %+v", fast, ev)
		}
		resumed = resumed || strings.HasPrefix(ev.Why, "runs: the time-indexed model has")
	}
	if !resumed {
		t.Error("no event said that the prover runs after its wait")
	}
	if !ev.Stopped || !approx(ev.Bound, 2.95) || !strings.HasPrefix(ev.Why, "proved the optimum 2.95") {
		t.Errorf("last event %+v, want the optimum 2.95 proved", ev)
	}
}

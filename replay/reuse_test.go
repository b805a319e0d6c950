package replay

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// randomReplayCase draws a platform of each kind in turn and a schedule on
// it: in Timed mode with random planned starts and ends, so that most
// schedules break the rules (conflicts on every kind of port, late data,
// overloaded links, missed ends), in Ordered mode as listed.
func randomReplayCase(rng *rand.Rand, trial int) (*models.Platform, *sim.Schedule, sim.Mode) {
	p, acts := randomPlatformActions(rng, trial)
	mode := sim.Mode(rng.IntN(2))
	if mode == sim.Timed {
		for j := range acts {
			start := math.Round(rng.Float64()*40) / 10
			acts[j].Start, acts[j].End = sim.Time(start), sim.Time(start+rng.Float64()*3)
		}
	}
	return p, &sim.Schedule{Actions: acts, Claimed: rng.Float64() * 10}, mode
}

// A Replayer that replays schedule after schedule, on every platform kind
// and in both modes, or only verifies them, gives exactly what a fresh
// Replay gives (Verify: all but the trace), and a result
// it returned earlier is left as it was.
func TestReplayerReusesNothingItReturned(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var r Replayer
	type run struct {
		got, want *sim.Result
	}
	var runs []run
	for trial := range 400 {
		p, s, mode := randomReplayCase(rng, trial)
		want := mustReplay(t, p, s, mode)
		r.Mode = mode
		verify := trial%4 == 3
		got, err := reusedReplay(&r, p, s, verify)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if verify {
			want = verified(want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%s, %s): reused replay differs:\ngot  %+v\nwant %+v", trial, p.Kind(), mode, got, want)
		}
		runs = append(runs, run{got, want})
	}
	violations := 0
	for i, x := range runs {
		if !reflect.DeepEqual(x.got, x.want) {
			t.Fatalf("run %d: a later replay changed its result", i)
		}
		violations += len(x.got.Violations)
	}
	if violations == 0 {
		t.Fatal("no schedule had a violation: the test does not reach the naming of resources")
	}
}

// reusedReplay replays s on r, or only verifies it.
func reusedReplay(r *Replayer, p *models.Platform, s *sim.Schedule, verify bool) (*sim.Result, error) {
	if !verify {
		return r.Replay(context.Background(), p, s)
	}
	res, err := r.Verify(context.Background(), p, s)
	// Its starts and ends are the Replayer's, overwritten by the next replay.
	res.Starts, res.Ends = slices.Clone(res.Starts), slices.Clone(res.Ends)
	return &res, err
}

// verified is want as Verify gives it: without trace.
func verified(want *sim.Result) *sim.Result {
	w := *want
	w.Trace = nil
	return &w
}

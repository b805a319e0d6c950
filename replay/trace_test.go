package replay

import (
	"github.com/netsched/netsched/internal/fixture"
	"slices"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

func TestReplayTrace(t *testing.T) {
	named := fixture.Procs(2, 1)
	named[0].Name = "master"
	cases := []struct {
		name      string
		platform  *models.Platform
		actions   []sim.Action
		lanes     []string
		intervals []sim.Interval // Amount is not compared
	}{
		{name: "crossbar", platform: fixture.Crossbar(models.FullDuplex, 1, 0, named...),
			actions: []sim.Action{{Kind: sim.Transfer, From: 0, To: 1, Amount: 2, Label: "x", Round: 2}, fixture.Compute(1, 3, 0)},
			lanes:   []string{"master", "P1"},
			intervals: []sim.Interval{
				{Lane: 0, Kind: sim.KindSend, Start: 0, End: 2, Label: "x", Round: 2, Action: 0},
				{Lane: 1, Kind: sim.KindRecv, Start: 0, End: 2, Label: "x", Round: 2, Action: 0},
				{Lane: 1, Kind: sim.KindCompute, Start: 2, End: 5, Action: 1},
			}},
		// Links a→b (d 1) and b→c (d 0.5) at rate min(2, 1) = 1.
		{name: "tree", platform: chainTree(), actions: []sim.Action{fixture.Transfer(0, 2, 4)},
			lanes: []string{"a", "b", "c", "a→b", "b→c"},
			intervals: []sim.Interval{
				{Lane: 0, Kind: sim.KindSend, Start: 0, End: 4},
				{Lane: 2, Kind: sim.KindRecv, Start: 1.5, End: 5.5},
				{Lane: 3, Kind: sim.KindLink, Start: 1, End: 5},
				{Lane: 4, Kind: sim.KindLink, Start: 1.5, End: 5.5},
			}},
		{name: "multicluster", platform: twoClusters(models.Processor{Gamma: 1}), actions: []sim.Action{fixture.Transfer(3, 1, 1)},
			lanes: []string{"P0", "P1", "P2", "P3", "C0 uplink-out", "C0 uplink-in", "C1 uplink-out", "C1 uplink-in"},
			intervals: []sim.Interval{
				{Lane: 3, Kind: sim.KindSend, Start: 0, End: 4.5},
				{Lane: 1, Kind: sim.KindRecv, Start: 0, End: 4.5},
				{Lane: 6, Kind: sim.KindLink, Start: 0, End: 4.5},
				{Lane: 5, Kind: sim.KindLink, Start: 0, End: 4.5},
			}},
		{name: "delay", platform: &models.Platform{Delay: &models.Delay{Rho: 1}},
			actions: []sim.Action{fixture.Compute(9, 1), fixture.Compute(2, 2, 0)},
			lanes:   []string{"P2", "P9"},
			intervals: []sim.Interval{
				{Lane: 1, Kind: sim.KindCompute, Start: 0, End: 1, Action: 0},
				{Lane: 0, Kind: sim.KindCompute, Start: 2, End: 4, Action: 1},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustReplay(t, c.platform, &sim.Schedule{Actions: c.actions}, sim.Ordered)
			if !slices.Equal(r.Trace.Lanes, c.lanes) {
				t.Errorf("lanes %q, want %q", r.Trace.Lanes, c.lanes)
			}
			got := slices.Clone(r.Trace.Intervals)
			for i := range got {
				got[i].Amount = 0
			}
			if !slices.Equal(got, c.intervals) {
				t.Errorf("intervals\n got  %+v\n want %+v", got, c.intervals)
			}
			if r.Trace.Makespan() != r.Makespan {
				t.Errorf("trace makespan %g, replay makespan %g", r.Trace.Makespan(), r.Makespan)
			}
		})
	}
}

// TestTraceComputeSegments: a computation suspended while its processor
// communicates (no overlap) shows as the segments during which it ran, each
// with the work it did, so a Gantt chart shows the pause.
func TestTraceComputeSegments(t *testing.T) {
	// P0 computes 10 units at γ = 1 from t = 0 and sends 2 units at β = 1
	// during [2, 4): it runs [0, 2] and [4, 12].
	p := fixture.Crossbar(models.HalfDuplex, 1, 0, fixture.Procs(2, 1)...)
	s := &sim.Schedule{Actions: timed([]float64{0, 2}, fixture.Compute(0, 10), fixture.Transfer(0, 1, 2))}
	r := mustReplay(t, p, s, sim.Timed)
	var got [][3]float64
	for _, iv := range r.Trace.Intervals {
		if iv.Kind == sim.KindCompute {
			got = append(got, [3]float64{iv.Start, iv.End, iv.Amount})
		}
	}
	want := [][3]float64{{0, 2, 2}, {4, 12, 8}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("compute segments %v, want %v", got, want)
	}
	if r.Ends[0] != 12 || r.Starts[0] != 0 {
		t.Errorf("action start/end %g/%g, want 0/12", r.Starts[0], r.Ends[0])
	}
}

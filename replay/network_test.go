package replay

import (
	"context"
	"testing"

	"github.com/netsched/netsched/internal/fixture"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/sim"
)

// dumbbell is hosts 0 and 1 on one switch, 2 and 3 on another, the
// switches joined by a link of bandwidth 1 and latency 0.5; the host
// links have bandwidth 4.
func dumbbell() *models.Platform {
	return &models.Platform{Network: &models.Network{
		Hosts:    fixture.Procs(4, 1),
		Switches: []string{"s", "t"},
		Links: []models.NetLink{
			{Name: "h0", A: "P0", B: "s", Bandwidth: 4}, {Name: "h1", A: "P1", B: "s", Bandwidth: 4},
			{Name: "h2", A: "P2", B: "t", Bandwidth: 4}, {Name: "h3", A: "P3", B: "t", Bandwidth: 4},
			{Name: "mid", A: "s", B: "t", Bandwidth: 1, Latency: 0.5},
		},
	}}
}

// Without sharing, a transfer takes the route's latency plus its amount
// over the smallest bandwidth and holds its links: two transfers across
// the middle link go one after the other, and started together in timed
// replay they conflict on it. Under sharing they share it.
func TestNetworkPlatform(t *testing.T) {
	p := dumbbell()
	s := &sim.Schedule{}
	s.Add(fixture.Transfer(0, 2, 2))
	s.Add(fixture.Transfer(1, 3, 2))
	s.Add(fixture.Compute(2, 1, 0))
	r, err := Replay(context.Background(), p, s, sim.Ordered)
	if err != nil || len(r.Violations) > 0 {
		t.Fatal(err, r.Violations)
	}
	for j, want := range []float64{2.5, 5, 3.5} { // 0.5 + 2/1; then the second; the compute after the first
		if !fixture.Near(r.Ends[j], want) {
			t.Errorf("ideal: action %d ends at %v, want %v", j, r.Ends[j], want)
		}
	}
	for j := range s.Actions {
		s.Actions[j].Start = sim.Time(0)
	}
	s.Actions[2].Start = sim.Time(2.5)
	r, err = Replay(context.Background(), p, s, sim.Timed)
	if err != nil || len(r.Violations) != 1 || r.Violations[0].Kind != sim.PortConflict || r.Violations[0].Resource != "mid" {
		t.Errorf("timed, both at once: %v %v, want one conflict on mid", err, r.Violations)
	}
	sh := Replayer{Mode: sim.Ordered, Sharing: network.MaxMin}
	r, err = sh.Replay(context.Background(), p, s)
	if err != nil || len(r.Violations) > 0 {
		t.Fatal(err, r.Violations)
	}
	for j, want := range []float64{4.5, 4.5, 5.5} { // both at 1/2 on mid after the latency
		if !fixture.Near(r.Ends[j], want) {
			t.Errorf("shared: action %d ends at %v, want %v", j, r.Ends[j], want)
		}
	}
}

// A transfer between hosts without a route is rejected, naming them.
func TestNetworkPlatformNoRoute(t *testing.T) {
	p := dumbbell()
	p.Network.Routes = []models.NetRoute{{From: "P0", To: "P2", Links: []string{"h0", "mid", "h2"}}}
	s := &sim.Schedule{}
	s.Add(fixture.Transfer(1, 3, 2))
	if _, err := Replay(context.Background(), p, s, sim.Ordered); err == nil {
		t.Error("a transfer without a route replayed")
	}
}

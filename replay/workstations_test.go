package replay

import (
	"context"
	"errors"
	"github.com/netsched/netsched/internal/fixture"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// workstations: P0 speed 2 unloaded; P1 speed 1 under a constant half
// load; P2 speed 1 under the profile "burst": share ½ until 2, 0 until 5,
// ¾ from 5 on. Messages take 0.1, each migrated task 0.2 more.
func workstationsPlatform() *models.Platform {
	return &models.Platform{Workstations: &models.Workstations{
		Processors: []models.Workstation{{Speed: 2}, {Speed: 1, Share: 0.5}, {Speed: 1, Profile: "burst"}},
		Topology:   models.TopologyTree,
		Profiles: []models.LoadProfile{{Name: "burst", Share: 0.5,
			Steps: []models.LoadStep{{At: 2, Share: 0}, {At: 5, Share: 0.75}}}},
		Latency: 0.1, PerTask: 0.2,
	}}
}

func TestReplayWorkstations(t *testing.T) {
	p := workstationsPlatform()
	// P2 from 0: 1 unit by 2 at ½, 3 more by 5 at 1, then ¼ per time unit.
	burst := []sim.Action{fixture.Compute(2, 3)}
	runCases(t, []replayCase{
		{name: "speed", platform: p, actions: []sim.Action{fixture.Compute(0, 4)}, mode: sim.Ordered, starts: []float64{0}, ends: []float64{2}},
		{name: "constant share", platform: p, actions: []sim.Action{fixture.Compute(1, 1)}, mode: sim.Ordered, ends: []float64{2}},
		{name: "share falls mid-task", platform: p, actions: burst, mode: sim.Ordered, ends: []float64{4}},
		{name: "ends on a step", platform: p, actions: []sim.Action{fixture.Compute(2, 4)}, mode: sim.Ordered, ends: []float64{5}},
		{name: "runs through two steps", platform: p, actions: []sim.Action{fixture.Compute(2, 4.5)}, mode: sim.Ordered, ends: []float64{7}},
		{name: "starts on a step", platform: p, actions: timed([]float64{2}, fixture.Compute(2, 2)), mode: sim.Timed, ends: []float64{4}},
		{name: "starts between steps", platform: p, actions: timed([]float64{4}, fixture.Compute(2, 1.5)), mode: sim.Timed, ends: []float64{7}},
		{name: "one task at a time", platform: p, actions: []sim.Action{fixture.Compute(1, 1), fixture.Compute(1, 0.5)}, mode: sim.Ordered,
			starts: []float64{0, 2}, ends: []float64{2, 3}},
		// 0.1 + 3·0.2 = 0.7; the migrated task follows its transfer.
		{name: "migration", platform: p, actions: []sim.Action{fixture.Transfer(0, 1, 3), fixture.Compute(1, 1, 0)}, mode: sim.Ordered,
			starts: []float64{0, 0.7}, ends: []float64{0.7, 2.7}},
		{name: "migrations do not contend", platform: p,
			actions: timed([]float64{0, 0, 0.05}, fixture.Transfer(0, 1, 1), fixture.Transfer(0, 2, 2), fixture.Transfer(1, 0, 1)), mode: sim.Timed,
			ends: []float64{0.3, 0.5, 0.35}},
		{name: "computing goes on while migrating", platform: p,
			actions: timed([]float64{0, 0.5}, fixture.Compute(0, 4), fixture.Transfer(1, 0, 5)), mode: sim.Timed, ends: []float64{2, 1.6}},
		{name: "two tasks at once", platform: p, actions: timed([]float64{0, 1}, fixture.Compute(1, 1), fixture.Compute(1, 1)), mode: sim.Timed,
			ends: []float64{2, 3}, violations: []sim.Violation{v(sim.ProcessorConflict, 1, "P1 processor", 1)}},
		{name: "task before its migration arrived", platform: p,
			actions: timed([]float64{0, 0.5}, fixture.Transfer(0, 1, 3), fixture.Compute(1, 1, 0)), mode: sim.Timed,
			ends: []float64{0.7, 2.5}, violations: []sim.Violation{v(sim.PredecessorLate, 1, "action 0", 0.5)}},
	})
}

func TestReplayWorkstationsBadActions(t *testing.T) {
	p := workstationsPlatform()
	for _, tc := range []struct {
		name   string
		action sim.Action
		path   string
	}{
		{"compute on a missing node", fixture.Compute(3, 1), "actions[0].node"},
		{"migration from a missing node", fixture.Transfer(-1, 1, 1), "actions[0].from"},
		{"migration to itself", fixture.Transfer(1, 1, 1), "actions[0].to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Replay(context.Background(), p, &sim.Schedule{Actions: []sim.Action{tc.action}}, sim.Ordered)
			var fe *models.FieldError
			if !errors.As(err, &fe) || fe.Path != tc.path {
				t.Fatalf("Replay error = %v, want a *models.FieldError at %s", err, tc.path)
			}
		})
	}
}

// TestReplayWorkstationsMatchesLoadFinish checks the replay's rate
// changes against models.Load.Finish, which integrates the profile
// directly, on random profiles, starts and amounts.
func TestReplayWorkstationsMatchesLoadFinish(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0))
	for trial := range 200 {
		prof := models.LoadProfile{Name: "x", Share: 0.9 * rng.Float64()}
		at := 0.0
		for range rng.IntN(5) {
			at += 0.1 + 3*rng.Float64()
			prof.Steps = append(prof.Steps, models.LoadStep{At: at, Share: 0.9 * rng.Float64()})
		}
		ws := &models.Workstations{
			Processors: []models.Workstation{{Speed: 0.5 + rng.Float64(), Profile: "x"}},
			Profiles:   []models.LoadProfile{prof}, Topology: models.TopologyComplete,
		}
		start, work := 10*rng.Float64(), 5*rng.Float64()
		s := &sim.Schedule{Actions: timed([]float64{start}, fixture.Compute(0, work))}
		r := mustReplay(t, &models.Platform{Workstations: ws}, s, sim.Timed)
		want := ws.Load(0).Finish(ws.Processors[0].Speed, start, work)
		if !fixture.Near(r.Ends[0], want) {
			t.Fatalf("trial %d: replay ends at %v, Load.Finish says %v (profile %+v, start %v, work %v)",
				trial, r.Ends[0], want, prof, start, work)
		}
	}
}

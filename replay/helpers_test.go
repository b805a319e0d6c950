package replay

import (
	"context"
	"github.com/netsched/netsched/internal/fixture"
	"slices"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Test helpers shared by the replay tests.

// timed returns the actions with planned starts set, in order.
func timed(starts []float64, actions ...sim.Action) []sim.Action {
	out := slices.Clone(actions)
	for i := range out {
		out[i].Start = sim.Time(starts[i])
	}
	return out
}

// replayCase is a hand-computed replay: the platform, the actions, the mode
// and the expected starts, ends and violations (kind, action, resource).
type replayCase struct {
	name       string
	platform   *models.Platform
	actions    []sim.Action
	mode       sim.Mode
	starts     []float64
	ends       []float64
	violations []sim.Violation // only Kind, Action, Resource and Time are compared
}

func runCases(t *testing.T, cases []replayCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustReplay(t, c.platform, &sim.Schedule{Actions: c.actions}, c.mode)
			checkTimesEqual(t, "start", r.Starts, c.starts)
			checkTimesEqual(t, "end", r.Ends, c.ends)
			checkViolations(t, r.Violations, c.violations)
		})
	}
}

func mustReplay(t *testing.T, p *models.Platform, s *sim.Schedule, mode sim.Mode) *sim.Result {
	t.Helper()
	r, err := Replay(context.Background(), p, s, mode)
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	return r
}

func checkTimesEqual(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if want == nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%d %s times, want %d", len(got), what, len(want))
	}
	for i := range want {
		if !fixture.Near(got[i], want[i]) {
			t.Errorf("action %d: %s %g, want %g", i, what, got[i], want[i])
		}
	}
}

func checkViolations(t *testing.T, got, want []sim.Violation) {
	t.Helper()
	same := len(got) == len(want)
	for i := 0; same && i < len(want); i++ {
		g, w := got[i], want[i]
		same = g.Kind == w.Kind && g.Action == w.Action && g.Resource == w.Resource && fixture.Near(g.Time, w.Time)
	}
	if !same {
		t.Errorf("violations:\n got  %v\n want %v", got, want)
	}
}

// v builds an expected violation.
func v(kind sim.ViolationKind, action int, resource string, at float64) sim.Violation {
	return sim.Violation{Kind: kind, Action: action, Resource: resource, Time: at}
}

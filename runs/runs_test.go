package runs

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"testing"

	_ "github.com/netsched/netsched/policies/all" // the registry, for the scenario
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// TestPolicyNamedOnce checks that a failed run's error names the policy
// once, whether or not the planner's own error starts with its name.
func TestPolicyNamedOnce(t *testing.T) {
	tests := []struct {
		id    string
		names []string
		err   error
		want  string
	}{
		{"unclustered", []string{"unclustered"}, errors.New("unclustered: needs one processor per task"), "policy unclustered: needs one processor per task"},
		{"cross-k5", []string{"cross"}, errors.New("cross: k must be >= 1"), "policy cross-k5: k must be >= 1"},
		{"cross-k5", []string{"cross"}, errors.New("cross-k5: k must be >= 1"), "policy cross-k5: k must be >= 1"},
		{"dsc", []string{"dsc"}, errors.New("needs a task graph"), "policy dsc: needs a task graph"},
		{"dsc", []string{"dsc"}, errors.New("dscx: a name that only looks alike"), "policy dsc: dscx: a name that only looks alike"},
		{"list", nil, errors.New("list_sched.py: exited with exit status 1"), "policy list: list_sched.py: exited with exit status 1"},
	}
	for _, tt := range tests {
		err := policyError(tt.id, tt.err, tt.names...)
		if err.Error() != tt.want {
			t.Errorf("policyError(%q, %q) = %q, want %q", tt.id, tt.err, err, tt.want)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("policyError(%q, %q) does not wrap the planner's error", tt.id, tt.err)
		}
		// A row made from it says the same, and so does one made from the
		// bare error.
		if r := Failed("s", tt.id, 1, sim.Timed, err); r.Error != tt.want {
			t.Errorf("Failed(policyError) error %q, want %q", r.Error, tt.want)
		}
	}
	if r := Failed("s", "p", 1, sim.Timed, fs.ErrNotExist); r.Error != "policy p: file does not exist" {
		t.Errorf("Failed(bare error) error %q, want it to name the policy", r.Error)
	}
}

// TestRunErrorNamesPolicyOnce runs unclustered where it cannot run (on
// fewer processors than tasks, which the loader refuses, so set after
// loading): the planner's "unclustered: needs ..." becomes "policy
// unclustered: needs ...".
func TestRunErrorNamesPolicyOnce(t *testing.T) {
	sc, err := scenarios.Parse("few.yaml", []byte(`
platform: {delay: {rho: 1, processors: 3}}
problem: {dag: {tasks: [{weight: 1}, {weight: 1}, {weight: 1}]}}
policies: [sequential, unclustered]
`))
	if err != nil {
		t.Fatal(err)
	}
	d := *sc.Platform.Delay
	d.Processors = 2
	sc.Platform.Delay = &d
	_, err = One(context.Background(), sc, 1, 1, sim.Timed)
	const want = "policy unclustered: needs one processor per task, 3 tasks but the platform has 2 processors"
	if err == nil || err.Error() != want {
		t.Fatalf("One(unclustered) = %v, want %q", err, want)
	}
	if r := Failed(sc.Name, "unclustered", 1, sim.Timed, err); r.Error != want {
		t.Errorf("row error %q, want %q", r.Error, want)
	}
}

// TestUnseededJSON leaves the seed out of a schedule made elsewhere, and
// keeps seed 0 of a run.
func TestUnseededJSON(t *testing.T) {
	for _, tt := range []struct {
		row  Row
		want bool
	}{
		{Row{Policy: "hand.json", Unseeded: true}, false},
		{Row{Policy: "dsc", Seed: 0}, true},
		{Row{Policy: "dsc", Seed: 7}, true},
	} {
		b, err := json.Marshal(tt.row)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if seed, ok := m["seed"]; ok != tt.want || ok && seed != float64(tt.row.Seed) {
			t.Errorf("%+v: seed %v (present %v), want present %v", tt.row, seed, ok, tt.want)
		}
	}
}

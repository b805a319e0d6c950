package runs

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// TestRowJSONWithError encodes an error row and a row with a metric that is
// no number: both encode, with null for the figures, and read back as JSON.
func TestRowJSONWithError(t *testing.T) {
	sc := &scenarios.Scenario{Name: "s", Policies: []scenarios.PolicySpec{{Name: "p"}}}
	bad := Failed(sc.Name, sc.Policies[0].ID(), 1, sim.Timed, errors.New("p: no such luck"))
	good := &Row{Scenario: "s", Policy: "q", Claimed: 2, Simulated: 2, Verified: true,
		Metrics: map[string]float64{"T": 1.5, "ratio": math.Inf(1), "none": math.NaN()}}
	b, err := json.Marshal([]*Row{bad, good})
	if err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if back[0]["claimed_makespan"] != nil || back[0]["gap"] != nil || !strings.Contains(back[0]["error"].(string), "no such luck") {
		t.Errorf("error row: %v", back[0])
	}
	m := back[1]["metrics"].(map[string]any)
	if back[1]["claimed_makespan"] != 2.0 || m["T"] != 1.5 || m["ratio"] != nil || m["none"] != nil {
		t.Errorf("row: %v", back[1])
	}
}

// TestRowJSONViolations checks a row's violations encode as a list, empty
// for a run without any, and as null only for a row read back from CSV
// whose violations were counted but not kept.
func TestRowJSONViolations(t *testing.T) {
	tests := []struct {
		name string
		row  Row
		want string
	}{
		{"none", Row{Verified: true}, `"violations":[]`},
		{"some", Row{Violations: []sim.Violation{{Kind: sim.DataLate, Action: 3, Detail: "late"}}}, `"violations":[{`},
		{"read back", Row{NViolations: 2}, `"violations":null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.row)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tt.want) {
				t.Errorf("got %s, want it to contain %s", b, tt.want)
			}
		})
	}
}

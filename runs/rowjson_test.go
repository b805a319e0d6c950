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

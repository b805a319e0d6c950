package runs

import (
	"encoding/json"
	"math"

	"github.com/netsched/netsched/sim"
)

// MarshalJSON writes the row with null where a figure is no finite number:
// the makespans and gap of a run that failed (Error says why), and a
// policy's metric that is NaN or infinite. JSON has no NaN, and one such
// figure would otherwise make the whole output fail. A run without
// violations has "violations": [], not null; null is left for a row read
// back from CSV with violations, whose details are not kept. A row of a
// schedule made elsewhere (Unseeded) has no "seed".
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row // without this method
	out := struct {
		plain
		Claimed    *float64            `json:"claimed_makespan"`
		Simulated  *float64            `json:"simulated_makespan"`
		Gap        *float64            `json:"gap"`
		Violations []sim.Violation     `json:"violations"`
		Metrics    map[string]*float64 `json:"metrics,omitempty"`
		Seed       *uint64             `json:"seed,omitempty"` // none for a schedule made elsewhere
	}{plain: plain(r), Claimed: finite(r.Claimed), Simulated: finite(r.Simulated), Gap: finite(r.Gap), Violations: r.Violations}
	if !r.Unseeded {
		out.Seed = &r.Seed
	}
	if out.Violations == nil && r.NViolations == 0 {
		out.Violations = []sim.Violation{}
	}
	if len(r.Metrics) > 0 {
		out.Metrics = make(map[string]*float64, len(r.Metrics))
		for k, v := range r.Metrics {
			out.Metrics[k] = finite(v)
		}
	}
	return json.Marshal(out)
}

// finite returns a pointer to v, or nil (null) if v is NaN or infinite.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

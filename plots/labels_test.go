package plots

import "testing"

func TestLookupQuantity(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"beta", "β (s per unit of load)"},
		{"rho", "ρ (task times)"},
		{"alpha", "α (s per message)"},
		{"simulated_makespan", "makespan (s)"},
		{"claimed_makespan", "claimed makespan (s)"},
		{"violations", "violations"},
		{"metric.lower_bound", "lower bound (s)"},
		{"nodes", "search nodes"},
		{"platform.crossbar.processors[2].gamma", "γ of processors[2] (s per unit of load)"},
		{"platform.delay.rho", "ρ (task times)"},
		{"cross-k5.k", "K"},
		{"time", "time (s)"},
		{"metric.something_new", "metric.something_new"},
		{"platform.crossbar.frobs", "platform.crossbar.frobs"},
	} {
		if got := LookupQuantity(tc.name).Label(); got != tc.want {
			t.Errorf("LookupQuantity(%q).Label() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLookupQuantityIn(t *testing.T) {
	for _, tc := range []struct{ name, unit, want string }{
		{"simulated_makespan", "", "makespan (s)"},
		{"simulated_makespan", TaskTimes, "makespan (task times)"},
		{"time", TaskTimes, "time (task times)"},
		{"metric.lower_bound", TaskTimes, "lower bound (task times)"},
		{"gap", TaskTimes, "simulated − claimed makespan (task times)"},
		{"plan_seconds", TaskTimes, "planning time (s of CPU)"},
		{"rho", TaskTimes, "ρ (task times)"},
		{"beta", TaskTimes, "β (s per unit of load)"},
		{"violations", TaskTimes, "violations"},
		{"cross-k.k", TaskTimes, "K"},
	} {
		if got := LookupQuantityIn(tc.name, tc.unit).Label(); got != tc.want {
			t.Errorf("LookupQuantityIn(%q, %q).Label() = %q, want %q", tc.name, tc.unit, got, tc.want)
		}
	}
}

func TestRatioLabel(t *testing.T) {
	for _, tc := range []struct {
		metric, base string
		speedup      bool
		want         string
	}{
		{"simulated_makespan", "no-redistribution", true, "speed-up over no-redistribution"},
		{"simulated_makespan", "sequential", false, "makespan relative to sequential"},
		{"plan_seconds", "sequential", true, "speed-up over sequential (planning time)"},
	} {
		if got := RatioLabel(tc.metric, tc.base, tc.speedup); got != tc.want {
			t.Errorf("RatioLabel(%q, %q, %v) = %q, want %q", tc.metric, tc.base, tc.speedup, got, tc.want)
		}
	}
}

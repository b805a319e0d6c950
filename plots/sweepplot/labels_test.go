package sweepplot

import "testing"

func TestSpecLabels(t *testing.T) {
	for _, tc := range []struct {
		spec         Spec
		x            string
		wantX, wantY string
	}{
		{Spec{Metric: "simulated_makespan"}, "beta", "β (s per unit of load)", "makespan (s)"},
		{Spec{Metric: "simulated_makespan", RatioTo: "no-redistribution", Invert: true}, "beta", "β (s per unit of load)", "speed-up over no-redistribution"},
		{Spec{Metric: "simulated_makespan", RatioTo: "sequential"}, "rho", "ρ (task times)", "makespan relative to sequential"},
		{Spec{Metric: "gap", XLabel: "my x", YLabel: "my y"}, "rho", "my x", "my y"},
	} {
		x, y := tc.spec.Labels(tc.x)
		if x != tc.wantX || y != tc.wantY {
			t.Errorf("%+v.Labels(%q) = %q, %q; want %q, %q", tc.spec, tc.x, x, y, tc.wantX, tc.wantY)
		}
	}
}

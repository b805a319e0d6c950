package sweepplot

import (
	"slices"
	"testing"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/sweep"
)

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
		{Spec{Metric: "simulated_makespan", TimeUnit: plots.TaskTimes}, "rho", "ρ (task times)", "makespan (task times)"},
		{Spec{Metric: "simulated_makespan", TimeUnit: plots.TaskTimes}, "cross-k.k", "K", "makespan (task times)"},
		{Spec{Metric: "metric.lower_bound", TimeUnit: plots.TaskTimes}, "rho", "ρ (task times)", "lower bound (task times)"},
		{Spec{Metric: "plan_seconds", TimeUnit: plots.TaskTimes}, "rho", "ρ (task times)", "planning time (s of CPU)"},
		{Spec{Metric: "simulated_makespan", RatioTo: "dsc", TimeUnit: plots.TaskTimes}, "rho", "ρ (task times)", "makespan relative to dsc"},
		{Spec{Metric: "shared_makespan"}, "beta", "β (s per unit of load)", "makespan under sharing (s)"},
		{Spec{Metric: "shared_ratio"}, "beta", "β (s per unit of load)", "makespan under sharing / ideal makespan"},
	} {
		x, y := tc.spec.Labels(tc.x)
		if x != tc.wantX || y != tc.wantY {
			t.Errorf("%+v.Labels(%q) = %q, %q; want %q, %q", tc.spec, tc.x, x, y, tc.wantX, tc.wantY)
		}
	}
}

func TestTableStylesCoverEveryPolicy(t *testing.T) {
	tab := &sweep.Table{Axes: []string{"beta"}}
	for _, p := range []string{"mmdl", "direct", "mmdl", "no-redistribution"} {
		tab.Rows = append(tab.Rows, &sweep.Row{Policy: p, Point: []float64{1}})
	}
	st := TableStyles(tab)
	if got := st.Labels(); !slices.Equal(got, []string{"direct", "mmdl", "no-redistribution"}) {
		t.Errorf("TableStyles labels = %v", got)
	}
}

// TestMetricColumns: the columns of a sweep with --sharing or --timing are
// metrics to plot, and a row without them lacks them.
func TestMetricColumns(t *testing.T) {
	shared := &sweep.Row{}
	shared.Simulated, shared.Sharing, shared.Shared, shared.SharedRatio, shared.PlanSeconds = 2, "maxmin", 3, 1.5, 0.25
	plain := &sweep.Row{}
	plain.Simulated = 2
	for _, tc := range []struct {
		row  *sweep.Row
		name string
		want float64
		ok   bool
	}{
		{shared, "shared_makespan", 3, true},
		{shared, "shared_ratio", 1.5, true},
		{shared, "plan_seconds", 0.25, true},
		{shared, "simulated_makespan", 2, true},
		{plain, "shared_makespan", 0, false},
		{plain, "shared_ratio", 0, false},
		{plain, "plan_seconds", 0, false},
	} {
		if v, ok := Metric(tc.row, tc.name); v != tc.want || ok != tc.ok {
			t.Errorf("Metric(%s) = %v, %v; want %v, %v", tc.name, v, ok, tc.want, tc.ok)
		}
	}
}

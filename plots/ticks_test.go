package plots

import (
	"slices"
	"testing"

	"gonum.org/v1/plot"
)

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		n      int
		lo, hi float64
		labels []string
	}{
		{5, 0, 48, []string{"0", "10", "20", "30", "40"}},
		{7, 0, 7.3, []string{"0", "2", "4", "6"}},
		{4, -3, 3, []string{"-2", "0", "2"}},
		{4, 0.001, 0.0042, []string{"0.001", "0.002", "0.003", "0.004"}},
		{3, 100, 100, nil},
	} {
		var labels []string
		ticks := niceTicks(tc.n).Ticks(tc.lo, tc.hi)
		for i, tk := range ticks {
			if tk.Value < tc.lo || tk.Value > tc.hi*(1+1e-12) {
				t.Errorf("niceTicks(%d) on [%g, %g]: tick %g out of range", tc.n, tc.lo, tc.hi, tk.Value)
			}
			if i > 0 && tk.Value <= ticks[i-1].Value {
				t.Errorf("niceTicks(%d) on [%g, %g]: ticks not increasing", tc.n, tc.lo, tc.hi)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if !slices.Equal(labels, tc.labels) {
			t.Errorf("niceTicks(%d) on [%g, %g]: labels %q, want %q", tc.n, tc.lo, tc.hi, labels, tc.labels)
		}
	}
}

func tickLabels(ticks []plot.Tick) (labels []string, values []float64) {
	for _, tk := range ticks {
		values = append(values, tk.Value)
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	return labels, values
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		labels []string
		minor  int // unlabelled ticks
	}{
		// Two decades and more: powers of ten only, minor ticks at 2–9.
		{0.01, 10, []string{"0.01", "0.1", "1", "10"}, 24},
		{0.005, 0.5, []string{"0.01", "0.1"}, 17},
		{1e5, 1e9, []string{"10⁵", "10⁶", "10⁷", "10⁸", "10⁹"}, 32},
		// Under two decades: 1-2-5, not padded to whole decades.
		{1e5, 3e6, []string{"10⁵", "2×10⁵", "5×10⁵", "10⁶", "2×10⁶"}, 7},
		{0.005, 0.05, []string{"0.005", "0.01", "0.02", "0.05"}, 6},
		{3, 40, []string{"5", "10", "20"}, 8},
		{1.5, 14, []string{"2", "5", "10"}, 6},
		// Too short for two 1-2-5 labels: a linear axis' labels.
		{1.1, 1.9, []string{"1.2", "1.4", "1.6", "1.8"}, 5},
		// Nothing to draw.
		{0, 10, nil, 0},
		{5, 5, nil, 0},
	} {
		ticks := logTicks{}.Ticks(tc.lo, tc.hi)
		labels, values := tickLabels(ticks)
		if !slices.Equal(labels, tc.labels) || len(ticks)-len(labels) != tc.minor {
			t.Errorf("logTicks on [%g, %g]: labels %q and %d minor ticks, want %q and %d", tc.lo, tc.hi, labels, len(ticks)-len(labels), tc.labels, tc.minor)
		}
		for i, v := range values {
			if v < tc.lo*(1-1e-12) || v > tc.hi*(1+1e-12) || (i > 0 && v <= values[i-1]) {
				t.Errorf("logTicks on [%g, %g]: ticks %v not increasing within the range", tc.lo, tc.hi, values)
				break
			}
		}
	}
}

func TestLineTicksLabelEnds(t *testing.T) {
	for _, tc := range []struct {
		n      int
		lo, hi float64
		labels []string
	}{
		// β from 0.005: the first tick is a minor one, labelled as an end.
		{6, 0.005, 0.05, []string{"0.005", "0.01", "0.02", "0.03", "0.04", "0.05"}},
		// An end more than half a step from every label gets its own.
		{6, 0, 48, []string{"0", "10", "20", "30", "40", "48"}},
		{6, 0, 44, []string{"0", "10", "20", "30", "40"}},
		{5, 1, 9.5, []string{"1", "2", "4", "6", "8", "9.5"}},
		{3, 0.005, 0.05, []string{"0.005", "0.02", "0.04", "0.05"}},
		{3, 0.00823456, 0.05, []string{"0.00823", "0.02", "0.04", "0.05"}},
		{4, 0, 2.5e6, []string{"0", "1×10⁶", "2×10⁶", "2.5×10⁶"}},
	} {
		labels, _ := tickLabels(lineTicks(tc.n).Ticks(tc.lo, tc.hi))
		if !slices.Equal(labels, tc.labels) {
			t.Errorf("lineTicks(%d) on [%g, %g]: labels %q, want %q", tc.n, tc.lo, tc.hi, labels, tc.labels)
		}
	}
}

// TestWholeTicks: on an axis of whole values (a seed, a count) no tick
// between them is labelled, and whole ones read without ".0".
func TestWholeTicks(t *testing.T) {
	inner := plot.ConstantTicks([]plot.Tick{{Value: 1, Label: "1.0"}, {Value: 1.25}, {Value: 1.5, Label: "1.5"}, {Value: 2, Label: "2.0"}, {Value: 1e6, Label: "1e+06"}})
	var labels []string
	for _, tk := range (wholeTicks{inner}).Ticks(1, 1e6) {
		labels = append(labels, tk.Label)
	}
	if want := []string{"1", "", "", "2", "1e+06"}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if allWhole([]float64{1, 2.5}) || !allWhole([]float64{1, 2, 3}) || allWhole(nil) {
		t.Error("allWhole is wrong")
	}
}

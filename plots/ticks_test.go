package plots

import (
	"slices"
	"testing"
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

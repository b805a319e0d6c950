package plots

import (
	"path/filepath"
	"testing"
)

// BenchmarkGanttLarge draws a 223-lane chart (the lane count of FFT(32)
// unclustered) to PNG, under the default height cap and without one.
func BenchmarkGanttLarge(b *testing.B) {
	tr := synthTrace(223, 0, 2, 5)
	for _, bc := range []struct {
		name string
		opt  GanttOptions
	}{
		{"capped", GanttOptions{}},
		{"uncapped", GanttOptions{MaxHeight: -1}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), "g.png")
			for b.Loop() {
				if err := SaveGantt(tr, bc.opt, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

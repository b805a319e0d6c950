package clustering

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
)

// TestRun runs paper 002's reproduction on 3 graphs of each STG set and
// the smallest FFT and Gaussian-elimination graphs: every file appears,
// and their rows of ratios.csv are the committed ones.
func TestRun(t *testing.T) {
	data := filepath.Dir(shareddata.STGDir(t))
	dir := reproducetest.Run(t, "002", reproduce.Options{Data: data, Jobs: 2, Quick: true},
		"tables.md", "ratios.csv", "stg-cross-convex.png", "stg-cross-cass2.png",
		"fft-cross-convex.png", "ge-cross-convex.png", "fft-cross-cass2.png", "ge-cross-cass2.png", "tables/table1-minmin.csv", "tables/table9.tex")
	got := reproducetest.Read(t, dir, "ratios.csv")
	committed := reproducetest.Committed(t, "clustering", "ratios.csv")
	n := 0
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "fft,") || strings.HasPrefix(line, "ge,") {
			n++
			if !strings.Contains(committed, line+"\n") {
				t.Errorf("ratios.csv row %q is not in results/clustering/ratios.csv", line)
			}
		}
	}
	if n != 12 {
		t.Errorf("%d FFT and GE rows, want 2 graphs × 6 delays", n)
	}
}

package mmdl

import (
	"testing"

	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
)

// TestRun runs paper 000's reproduction (about a second, so -short runs
// it whole): every file appears, and the sweeps are the committed ones.
func TestRun(t *testing.T) {
	var files []string
	for _, v := range []string{"no-overlap", "overlap", "results", "full-duplex"} {
		files = append(files, "mmdl-beta-"+v+".csv", "mmdl-beta-"+v+"-speedup.png")
	}
	files = append(files, "mmdl-rounds.csv", "mmdl-rounds.png", "mmdl-fig3.csv", "mmdl-fig3.png",
		"gantt-one-round.png", "gantt-multi-round.png")
	dir := reproducetest.Run(t, "000", reproduce.Options{Jobs: 2}, files...)
	for _, f := range []string{"mmdl-beta-overlap.csv", "mmdl-fig3.csv"} {
		if reproducetest.Read(t, dir, f) != reproducetest.Committed(t, "mmdl", f) {
			t.Errorf("%s differs from results/mmdl/%s", f, f)
		}
	}
}

package clustering

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
	"github.com/netsched/netsched/sweep"
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

// TestRunReading runs a reading other than the default through the
// registry (as netsched reproduce 002 --reading does): the summary and
// tables.md name it once each, and Table 6's rows are those of
// CompareTable under it.
func TestRunReading(t *testing.T) {
	data := filepath.Dir(shareddata.STGDir(t))
	dir := reproducetest.Run(t, "002", reproduce.Options{Data: data, Jobs: 2, Quick: true, Reading: "cass2:join=top"}, "tables.md", "ratios.csv")
	want := `Reading "cass2:join=top"`
	for _, f := range []string{"SUMMARY.md", "tables.md"} {
		if n := strings.Count(reproducetest.Read(t, dir, f), want); n != 1 {
			t.Errorf("%s names the reading %d times, want once", f, n)
		}
	}
	sets, err := loadSTGSets(filepath.Join(data, "stg"), 3)
	if err != nil {
		t.Fatal(err)
	}
	top, err := LookupReading("cass2:join=top")
	if err != nil {
		t.Fatal(err)
	}
	res, err := CompareTable(context.Background(), sets[0].label, sets[0].graphs, PaperRhos(), CompareOptions{Jobs: 2, Reading: top})
	if err != nil {
		t.Fatal(err)
	}
	got := reproducetest.Read(t, dir, "ratios.csv")
	for _, row := range res.Rows {
		line := fmt.Sprintf("stg,%s,%d,%s,%d,", sets[0].label, res.Tasks, sweep.FormatFloat(row.Rho), row.Graphs)
		if want := line + strings.Join([]string{sweep.FormatFloat(row.MinMinConvex), sweep.FormatFloat(row.AvgMinConvex),
			strconv.Itoa(row.ExcludedConvex), sweep.FormatFloat(row.MinCASS), strconv.Itoa(row.ExcludedCASS)}, ","); !strings.Contains(got, want+"\n") {
			t.Errorf("ratios.csv lacks %q", want)
		}
	}
}

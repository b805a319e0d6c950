// Package clustering reproduces paper 002 (Noguchi, Ooshita, Masuzawa:
// clustering under large communication delay): Tables 1, 2 and 4–9, Cross-A
// against Convex-A and CASS-II on the STG random sets of the shared data
// and on FFT and Gaussian-elimination graphs, beside the paper's values,
// as Markdown, CSV and plots. It registers itself as paper 002 in package
// reproduce.
package clustering

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/sweep"
)

func init() {
	reproduce.Register(reproduce.Paper{ID: "002", Dir: "clustering",
		Title: "Noguchi, Ooshita, Masuzawa: clustering under large communication delay", Run: Run,
		Data: []reproduce.DataSet{{Dir: "stg",
			What:  "the random graph sets of the Standard Task Graph Set, one folder of .stg files each (rand50/, rand100/, rand300/)",
			Where: "https://www.kasahara.cs.waseda.ac.jp/schedule/ (its \"random\" sets)"}},
		Others: []reproduce.Other{{File: "ablation.md",
			Title: "ablation of Cross-A's and Convex-A's settings against Tables 1 and 6 on the STG sets (issue 20; `go test ./reproduce/clustering -run TestAblationWrite -ablation -timeout 3h`)"},
			{File: "readings.md", Title: "Tables 1 and 6 under every named reading and every pairing of one reading's Cross-A with another's Convex-A or CASS-II, on every STG set (issue 42; `go test ./reproduce/clustering -run TestReadingsWrite -readings -timeout 5h`)"}},
		Readings: paperReadings()})
}

// Run runs paper 002's Tables 1, 2 and 4–9 on the STG sets under
// opt.Data/stg and the FFT and Gaussian-elimination graphs into out:
// tables.md (each table also as CSV and LaTeX), ratios.csv and a plot of
// each ratio table, ours beside the paper's values. With opt.Quick it takes the first 3
// graphs of each STG set and the smallest FFT and Gaussian-elimination
// graphs only (whose rows are then the full run's). opt.Reading names one
// of Readings (the default if empty); a reading other than the default is
// named at the head of the notes and of tables.md and in the plots' titles.
func Run(ctx context.Context, out *reproduce.Output, opt reproduce.Options) error {
	reading, err := LookupReading(opt.Reading)
	if err != nil {
		return err
	}
	co := ReproduceOptions{STGDir: filepath.Join(opt.Data, "stg"), Status: out.Progressf}
	co.Jobs, co.Reading = opt.Jobs, reading
	if opt.Quick {
		co.MaxGraphs = 3
		co.FFTPoints, co.GEMatrices = PaperFFTPoints()[:1], PaperGEMatrices()[:1]
	}
	rep, err := Reproduce(ctx, co)
	if err != nil {
		return err
	}
	parts, prefix, head := []any{}, "paper 002, ", ""
	if reading.Name != DefaultReading {
		head = fmt.Sprintf("Reading %q of the points the paper leaves open, not the default: %s.\n\n", reading.Name, reading.Hypothesis)
		parts, prefix = append(parts, head), fmt.Sprintf("paper 002 (reading %s), ", reading.Name)
	}
	for _, t := range rep.Tables() {
		parts = append(parts, t)
	}
	tables, err := out.Document("tables.md", parts...)
	if err != nil {
		return err
	}
	if err := out.Write("ratios.csv", func(w io.Writer) error { return writeClusteringCSV(w, rep) }); err != nil {
		return err
	}
	paper := PaperTables()
	for _, p := range []struct {
		file, title string
		sets        []*CompareResult
		paper       []PaperTable
		value       func(CompareRow) float64
	}{
		{"stg-cross-convex.png", "Table 1: Cross-A / Convex-A (Min/Min), STG", rep.STG, []PaperTable{paper["1min"]}, func(c CompareRow) float64 { return c.MinMinConvex }},
		{"stg-cross-cass2.png", "Table 6: Cross-A / CASS-II, STG", rep.STG, []PaperTable{paper["6"]}, func(c CompareRow) float64 { return c.MinCASS }},
		{"fft-cross-convex.png", "Table 4: Cross-A / Convex-A (Min/Min), FFT", rep.FFT, []PaperTable{paper["4"]}, func(c CompareRow) float64 { return c.MinMinConvex }},
		{"ge-cross-convex.png", "Table 5: Cross-A / Convex-A (Min/Min), Gaussian elimination", rep.GE, []PaperTable{paper["5"]}, func(c CompareRow) float64 { return c.MinMinConvex }},
		{"fft-cross-cass2.png", "Table 8: Cross-A / CASS-II, FFT", rep.FFT, []PaperTable{paper["8"]}, func(c CompareRow) float64 { return c.MinCASS }},
		{"ge-cross-cass2.png", "Table 9: Cross-A / CASS-II, Gaussian elimination", rep.GE, []PaperTable{paper["9"]}, func(c CompareRow) float64 { return c.MinCASS }},
	} {
		opt := plots.LineOptions{Title: prefix + p.title, XLabel: "ρ (task times)", YLabel: "ratio (below 1: Cross-A better)", TicksAtData: true}
		if err := plots.SaveLines(ratioSeries(p.sets, p.paper, p.value), opt, out.Path(p.file)); err != nil {
			return err
		}
	}
	out.Notef("%s", head)
	out.Notef("Tables 1, 2, 4–9 of the paper beside ours, a ratio more than %.2f from the paper's marked \"!\" "+
		"(also in [tables.md](tables.md), every ratio as CSV in [ratios.csv](ratios.csv)). The plots draw the paper's "+
		"values as hollow markers in the colour of our set of the same size; the paper's 752-, 1252- and 1752-task STG "+
		"sets have no counterpart in the shared data, so only the tables show them. "+
		"The choices the paper leaves open and why ours differ where they do: %s. "+
		"Run times (Tables 2, 7) depend on the machine and its load.\n\n%s", Flag, out.Ref("NOTES.md"), strings.TrimPrefix(tables, head))
	return nil
}

// ratioSeries are the plot's lines: for each of our sets, its ratio at
// each delay, followed by the paper's values for a graph of the same
// size (from the first of paper that has it), drawn beside it.
func ratioSeries(sets []*CompareResult, paper []PaperTable, value func(CompareRow) float64) []plots.Series {
	var series []plots.Series
	for _, set := range sets {
		s := plots.Series{Name: fmt.Sprintf("%s (%d tasks)", set.Label, set.Tasks)}
		for _, row := range set.Rows {
			if v := value(row); !math.IsNaN(v) {
				s.X, s.Y, s.YErr = append(s.X, row.Rho), append(s.Y, v), append(s.YErr, 0)
			}
		}
		series = append(series, s)
		for _, pt := range paper {
			i := slices.Index(pt.Sizes, set.Tasks)
			if i < 0 {
				continue
			}
			series = append(series, plots.Series{Name: fmt.Sprintf("paper, %d tasks", set.Tasks), X: PaperRhos(),
				Y: slices.Clone(pt.Values[i]), Beside: s.Name})
			break
		}
	}
	return series
}

// writeClusteringCSV writes one row per graph set and delay: the ratios
// of paper 002's tables and the graphs left out of each.
func writeClusteringCSV(w io.Writer, rep *Reproduction) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"family", "set", "tasks", "rho", "graphs", "minmin_convex", "avgmin_convex", "left_out_convex", "min_cass2", "left_out_cass2"})
	f := sweep.FormatFloat
	for _, group := range []struct {
		name string
		sets []*CompareResult
	}{{"stg", rep.STG}, {"fft", rep.FFT}, {"ge", rep.GE}} {
		for _, set := range group.sets {
			for _, row := range set.Rows {
				cw.Write([]string{group.name, set.Label, strconv.Itoa(set.Tasks), f(row.Rho), strconv.Itoa(row.Graphs),
					f(row.MinMinConvex), f(row.AvgMinConvex), strconv.Itoa(row.ExcludedConvex),
					f(row.MinCASS), strconv.Itoa(row.ExcludedCASS)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

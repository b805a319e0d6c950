package clustering

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/netsched/netsched/models"
)

// Reproduction holds paper 002's experiments as netsched ran them: one
// CompareResult per STG random set, per FFT size and per Gaussian
// elimination size.
type Reproduction struct {
	STG, FFT, GE []*CompareResult
}

// ReproduceOptions say what Reproduce runs.
type ReproduceOptions struct {
	CompareOptions
	// STGDir holds the STG random sets, one subdirectory of .stg files
	// each ("" skips them).
	STGDir string
	// MaxGraphs, if positive, keeps the first MaxGraphs graphs of each
	// STG set (by file name).
	MaxGraphs int
	// FFTPoints and GEMatrices are the FFT and Gaussian-elimination sizes;
	// nil means the paper's (PaperFFTPoints, PaperGEMatrices).
	FFTPoints, GEMatrices []int
}

// Reproduce runs CompareTable at the paper's delays on the STG random sets
// under opt.STGDir (read with the dummy nodes kept and unit tasks, as the
// paper counts 302, 752, …) and on the FFT and Gaussian-elimination graphs
// of the paper's sizes: Tables 1, 2, 4–9 of paper 002 (Table 3, a one-
// minute race on 20 chosen 1252-task graphs, is not reproduced).
func Reproduce(ctx context.Context, opt ReproduceOptions) (*Reproduction, error) {
	r := &Reproduction{}
	sets, err := loadSTGSets(opt.STGDir, opt.MaxGraphs)
	if err != nil {
		return nil, err
	}
	for _, set := range sets {
		res, err := CompareTable(ctx, set.label, set.graphs, PaperRhos(), opt.CompareOptions)
		if err != nil {
			return nil, err
		}
		r.STG = append(r.STG, res)
	}
	for _, n := range orDefault(opt.FFTPoints, PaperFFTPoints()) {
		g, err := models.FFT(n)
		if err != nil {
			return nil, err
		}
		res, err := CompareTable(ctx, fmt.Sprintf("FFT(%d)", n), []*models.DAG{g}, PaperRhos(), opt.CompareOptions)
		if err != nil {
			return nil, err
		}
		r.FFT = append(r.FFT, res)
	}
	for _, m := range orDefault(opt.GEMatrices, PaperGEMatrices()) {
		g, err := models.GaussianElimination(m)
		if err != nil {
			return nil, err
		}
		res, err := CompareTable(ctx, fmt.Sprintf("GE(%d)", m), []*models.DAG{g}, PaperRhos(), opt.CompareOptions)
		if err != nil {
			return nil, err
		}
		r.GE = append(r.GE, res)
	}
	return r, nil
}

func orDefault(xs, def []int) []int {
	if xs == nil {
		return def
	}
	return xs
}

type stgSet struct {
	label  string
	graphs []*models.DAG
}

// loadSTGSets reads every subdirectory of dir that holds .stg files,
// ordered by graph size, at most max graphs of each if max > 0.
func loadSTGSets(dir string, max int) ([]stgSet, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("STG sets: %w", err)
	}
	var sets []stgSet
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*.stg"))
		if len(files) == 0 {
			continue
		}
		if max > 0 && len(files) > max {
			files = files[:max]
		}
		set := stgSet{label: "STG " + e.Name()}
		for _, f := range files {
			s, err := models.ReadSTGFile(f, models.STGOptions{KeepDummies: true})
			if err != nil {
				return nil, err
			}
			set.graphs = append(set.graphs, s.DAG.UnitWeights())
		}
		sets = append(sets, set)
	}
	slices.SortFunc(sets, func(a, b stgSet) int {
		return cmp.Or(cmp.Compare(len(a.graphs[0].Tasks), len(b.graphs[0].Tasks)), strings.Compare(a.label, b.label))
	})
	return sets, nil
}

// Flag is the difference between ours and the paper's above which
// WriteMarkdown marks a ratio (the issue asks for an explanation there).
const Flag = 0.05

// WriteMarkdown writes the reproduced tables beside the paper's, a ratio
// more than Flag away from the paper's marked with "!".
func (r *Reproduction) WriteMarkdown(w io.Writer) error {
	paper := PaperTables()
	var b strings.Builder
	ratio := func(id, title string, ours []*CompareResult, value func(CompareRow) float64, excluded func(CompareRow) int) {
		writeRatioTable(&b, paper[id], title, ours, value, excluded)
	}
	minMin := func(c CompareRow) float64 { return c.MinMinConvex }
	avgMin := func(c CompareRow) float64 { return c.AvgMinConvex }
	minCASS := func(c CompareRow) float64 { return c.MinCASS }
	exConvex := func(c CompareRow) int { return c.ExcludedConvex }
	exCASS := func(c CompareRow) int { return c.ExcludedCASS }
	ratio("1min", "Table 1, Min/Min: Cross-A against Convex-A, STG random graphs", r.STG, minMin, exConvex)
	ratio("1avg", "Table 1, Avg/Min: Cross-A against Convex-A, STG random graphs", r.STG, avgMin, exConvex)
	ratio("6", "Table 6: Cross-A (Min) against CASS-II, STG random graphs", r.STG, minCASS, exCASS)
	ratio("4", "Table 4: Cross-A against Convex-A (Min/Min), FFT", r.FFT, minMin, exConvex)
	ratio("8", "Table 8: Cross-A (Min) against CASS-II, FFT", r.FFT, minCASS, exCASS)
	ratio("5", "Table 5: Cross-A against Convex-A (Min/Min), Gaussian elimination", r.GE, minMin, exConvex)
	ratio("9", "Table 9: Cross-A (Min) against CASS-II, Gaussian elimination", r.GE, minCASS, exCASS)
	writeTimes(&b, paper["2"], paper["7"], slices.Concat(r.STG, r.FFT, r.GE))
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRatioTable(b *strings.Builder, paper PaperTable, title string, ours []*CompareResult, value func(CompareRow) float64, excluded func(CompareRow) int) {
	fmt.Fprintf(b, "### %s\n\n| tasks | source |", title)
	for _, c := range paper.Columns {
		fmt.Fprintf(b, " ρ=%s |", c)
	}
	b.WriteString(" left out |\n|---|---|" + strings.Repeat("---|", len(paper.Columns)) + "---|\n")
	sizes := slices.Clone(paper.Sizes)
	for _, o := range ours {
		sizes = append(sizes, o.Tasks)
	}
	slices.Sort(sizes)
	for _, size := range slices.Compact(sizes) {
		pi := slices.Index(paper.Sizes, size)
		if pi >= 0 {
			fmt.Fprintf(b, "| %d | paper |", size)
			for _, v := range paper.Values[pi] {
				fmt.Fprintf(b, " %.3f |", v)
			}
			b.WriteString(" |\n")
		}
		for _, o := range ours {
			if o.Tasks != size {
				continue
			}
			fmt.Fprintf(b, "| %d | ours (%s) |", size, o.Label)
			var left []string
			for j, row := range o.Rows {
				v, mark := value(row), ""
				if pi >= 0 && j < len(paper.Values[pi]) && math.Abs(v-paper.Values[pi][j]) > Flag {
					mark = " !"
				}
				fmt.Fprintf(b, " %.3f%s |", v, mark)
				left = append(left, fmt.Sprint(excluded(row)))
			}
			fmt.Fprintf(b, " %s of %d |\n", strings.Join(left, "/"), o.Rows[0].Graphs)
		}
	}
	b.WriteString("\n")
}

func writeTimes(b *strings.Builder, t2, t7 PaperTable, ours []*CompareResult) {
	b.WriteString("### Tables 2 and 7: time of one run (ms; the paper's on a 3.2 GHz Pentium)\n\n")
	b.WriteString("| tasks | source | Convex-A | Cross-A | CASS-II |\n|---|---|---|---|---|\n")
	for i, size := range t2.Sizes {
		fmt.Fprintf(b, "| %d | paper | %.1f | %.1f (Table 7: %.1f) | %.1f |\n", size, t2.Values[i][0], t2.Values[i][1], t7.Values[i][1], t7.Values[i][0])
	}
	for _, o := range ours {
		fmt.Fprintf(b, "| %d | ours (%s) | %.2f | %.2f | %.2f |\n", o.Tasks, o.Label, o.ConvexMS, o.CrossMS, o.CASSMS)
	}
	b.WriteString("\n")
}

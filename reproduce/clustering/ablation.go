package clustering

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/netsched/netsched/sweep"
)

// AblationOptions say what Ablation runs.
type AblationOptions struct {
	STGDir    string // the STG sets, as for Reproduce
	MaxGraphs int    // if positive, the first MaxGraphs graphs of each set
	Seed      uint64 // as CompareOptions.Seed
	Jobs      int    // graphs worked on at once; 0 means GOMAXPROCS
	// Variants to run; nil means Readings().
	Variants []Reading
}

// AblationResult is one variant's Tables 1 and 6 on every STG set.
type AblationResult struct {
	Variant Reading
	Sets    []*CompareResult
}

// Ablation runs every variant on the STG sets at the paper's delays,
// scoring as CompareTable does.
func Ablation(ctx context.Context, opt AblationOptions) ([]AblationResult, error) {
	sets, err := loadSTGSets(opt.STGDir, opt.MaxGraphs)
	if err != nil {
		return nil, err
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("ablation: no STG sets under %q", opt.STGDir)
	}
	variants := opt.Variants
	if variants == nil {
		variants = Readings()
	}
	var out []AblationResult
	for _, v := range variants {
		r := AblationResult{Variant: v}
		for _, set := range sets {
			res, err := CompareTable(ctx, set.label, set.graphs, PaperRhos(), CompareOptions{Seed: opt.Seed, Jobs: opt.Jobs, Reading: v})
			if err != nil {
				return nil, fmt.Errorf("ablation %s: %w", v.Name, err)
			}
			r.Sets = append(r.Sets, res)
		}
		out = append(out, r)
	}
	return out, nil
}

// WriteAblationMarkdown writes, for each STG set, Table 1 (Min/Min) and
// Table 6 per variant and delay, with the difference from the default
// variant (the first) in parentheses.
func WriteAblationMarkdown(w io.Writer, results []AblationResult) error {
	var b strings.Builder
	for _, tbl := range []struct {
		title string
		value func(CompareRow) float64
	}{
		{"Table 1 (Min/Min), Cross-A / Convex-A", func(r CompareRow) float64 { return r.MinMinConvex }},
		{"Table 6, Cross-A (Min) / CASS-II", func(r CompareRow) float64 { return r.MinCASS }},
	} {
		for si, set := range results[0].Sets {
			fmt.Fprintf(&b, "### %s, %s (%d tasks, %d graphs)\n\n| variant |", tbl.title, set.Label, set.Tasks, set.Rows[0].Graphs)
			for _, row := range set.Rows {
				fmt.Fprintf(&b, " ρ=%g |", row.Rho)
			}
			b.WriteString("\n|---|" + strings.Repeat("---|", len(set.Rows)) + "\n")
			for _, r := range results {
				fmt.Fprintf(&b, "| %s |", r.Variant.Name)
				for j, row := range r.Sets[si].Rows {
					v, d := tbl.value(row), tbl.value(row)-tbl.value(set.Rows[j])
					if r.Variant.Name == results[0].Variant.Name {
						fmt.Fprintf(&b, " %.3f |", v)
					} else {
						fmt.Fprintf(&b, " %.3f (%+.3f) |", v, d)
					}
				}
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteAblationCSV writes one row per variant, set and delay.
func WriteAblationCSV(w io.Writer, results []AblationResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "set", "tasks", "rho", "graphs", "minmin_convex", "avgmin_convex", "left_out_convex", "min_cass2", "left_out_cass2"})
	f := sweep.FormatFloat
	for _, r := range results {
		for _, set := range r.Sets {
			for _, row := range set.Rows {
				cw.Write([]string{r.Variant.Name, set.Label, strconv.Itoa(set.Tasks), f(row.Rho), strconv.Itoa(row.Graphs),
					f(row.MinMinConvex), f(row.AvgMinConvex), strconv.Itoa(row.ExcludedConvex),
					f(row.MinCASS), strconv.Itoa(row.ExcludedCASS)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

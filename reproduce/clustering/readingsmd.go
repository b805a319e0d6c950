package clustering

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/sweep"
)

// settingReadings splits readings into those that name a distinct setting
// of Cross-A, of Convex-A and of CASS-II (the first reading with each
// setting names it). Readings that change Cross-A's effort (K, R) are
// left out of Cross-A's: the paper fixes K = R = 10 (§5.2.1).
func settingReadings(readings []Reading) (cross, convex, cass []Reading) {
	for _, r := range readings {
		r.Cross, r.Convex = defaultEffort(r.Cross), defaultEffort(r.Convex)
		if r.Cross.K == readings[0].Cross.K && r.Cross.Runs == readings[0].Cross.Runs &&
			!slices.ContainsFunc(cross, func(q Reading) bool { return q.Cross == r.Cross }) {
			cross = append(cross, r)
		}
		if !slices.ContainsFunc(convex, func(q Reading) bool { return q.Convex == r.Convex }) {
			convex = append(convex, r)
		}
		if !slices.ContainsFunc(cass, func(q Reading) bool { return q.CASS == r.CASS }) {
			cass = append(cass, r)
		}
	}
	return cross, convex, cass
}

// paperRow is the paper's row of table for a set of tasks tasks: the
// same size, else the nearest the paper has, and the size it is for.
func paperRow(table PaperTable, tasks int) ([]float64, int) {
	best := 0
	for i, size := range table.Sizes {
		if abs(size-tasks) < abs(table.Sizes[best]-tasks) {
			best = i
		}
	}
	return table.Values[best], table.Sizes[best]
}

func abs(x int) int { return max(x, -x) }

// readingsTable is one of the two ratio tables the readings file shows.
type readingsTable struct {
	title string
	paper PaperTable
	value func(CompareRow) float64
}

func readingsTables() []readingsTable {
	p := PaperTables()
	return []readingsTable{
		{"Table 1 (Min/Min), Cross-A / Convex-A", p["1min"], func(r CompareRow) float64 { return r.MinMinConvex }},
		{"Table 6, Cross-A (Min) / CASS-II", p["6"], func(r CompareRow) float64 { return r.MinCASS }},
	}
}

// WriteReadingsMarkdown writes, for each measured set (smallest first),
// Tables 1 and 6 for every reading beside the paper's values, then the
// same two tables for every pairing of one reading's Cross-A with
// another's Convex-A (Table 1) or CASS-II (Table 6), nearest to the
// paper's first, each with its largest distance from the paper's row.
func WriteReadingsMarkdown(w io.Writer, sets []*ReadingsSet, readings []Reading) error {
	var b strings.Builder
	crossR, convexR, cassR := settingReadings(readings)
	for _, s := range sets {
		tasks := sizeOf(s)
		fmt.Fprintf(&b, "## %s (%d tasks, %d graphs)\n\n", s.Label, tasks, len(s.Graphs))
		if s.CPU >= 0 {
			fmt.Fprintf(&b, "Measured in %.0f s of CPU time (every setting below).\n\n", s.CPU)
		}
		for ti, t := range readingsTables() {
			row, size := paperRow(t.paper, tasks)
			fmt.Fprintf(&b, "### %s, every reading\n\n", t.title)
			var lines []ratioLine
			for _, r := range readings {
				res, err := s.Compose(r, r, r)
				if err != nil {
					return err
				}
				lines = append(lines, newRatioLine([]string{r.Name}, res, t.value, row))
			}
			writeRatioLines(&b, []string{"reading"}, row, size, tasks, lines)
			title := "Cross-A of one reading, Convex-A of another"
			others := convexR
			if ti == 1 {
				title, others = "Cross-A of one reading, CASS-II of another", cassR
			}
			fmt.Fprintf(&b, "### %s, every pairing (%s), nearest to the paper first\n\n", t.title, title)
			lines = lines[:0]
			for _, x := range crossR {
				for _, o := range others {
					res, err := s.Compose(x, o, o)
					if err != nil {
						return err
					}
					lines = append(lines, newRatioLine([]string{x.Name, o.Name}, res, t.value, row))
				}
			}
			slices.SortStableFunc(lines, func(a, b ratioLine) int { return cmp.Compare(a.dist, b.dist) })
			second := "Convex-A"
			if ti == 1 {
				second = "CASS-II"
			}
			writeRatioLines(&b, []string{"Cross-A", second}, row, size, tasks, lines)
			within, falling := 0, 0
			for _, l := range lines {
				if l.dist <= Flag {
					within++
				}
				if trend(l.values) < 0 {
					falling++
				}
			}
			fmt.Fprintf(&b, "%d of %d pairings are within %.2f of the paper's %d-task row at every ρ; %d fall from ρ = 1.5 to ρ = 14 as the paper's rows do.\n\n",
				within, len(lines), Flag, size, falling)
		}
		if err := writeClusters(&b, s, crossR, convexR); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sizeOf is a set's tasks per graph (the mean, rounded).
func sizeOf(s *ReadingsSet) int {
	n := 0
	for _, g := range s.Graphs {
		n += len(g.Tasks)
	}
	return (n + len(s.Graphs)/2) / len(s.Graphs)
}

// ratioLine is one row of a readings table: its names, its ratio at each
// delay and its largest distance from the paper's.
type ratioLine struct {
	names  []string
	values []float64
	dist   float64
}

// trend is a row's change from the first delay to the last (the paper's
// claim: Cross-A gains on the others as ρ grows, a negative trend).
func trend(values []float64) float64 { return values[len(values)-1] - values[0] }

func newRatioLine(names []string, res *CompareResult, value func(CompareRow) float64, paper []float64) ratioLine {
	l := ratioLine{names: names}
	for j, r := range res.Rows {
		v := value(r)
		l.values = append(l.values, v)
		if j < len(paper) {
			l.dist = math.Max(l.dist, math.Abs(v-paper[j]))
		}
	}
	return l
}

// writeRatioLines writes a Markdown table: the paper's row, then lines,
// a value more than Flag from the paper's marked "!".
func writeRatioLines(b *strings.Builder, heads []string, paper []float64, size, tasks int, lines []ratioLine) {
	b.WriteString("| " + strings.Join(heads, " | ") + " |")
	for _, rho := range PaperRhos() {
		fmt.Fprintf(b, " ρ=%g |", rho)
	}
	b.WriteString(" largest \\|Δ\\| | ρ=14 − ρ=1.5 |\n|" + strings.Repeat("---|", len(heads)+len(paper)+2) + "\n")
	label := fmt.Sprintf("paper, %d tasks", size)
	if size != tasks {
		label += " (nearest size it has)"
	}
	b.WriteString("| " + label + strings.Repeat(" |", len(heads)))
	for _, v := range paper {
		fmt.Fprintf(b, " %.3f |", v)
	}
	fmt.Fprintf(b, " | %+.3f |\n", trend(paper))
	for _, l := range lines {
		b.WriteString("| " + strings.Join(l.names, " | ") + " |")
		for j, v := range l.values {
			mark := ""
			if j < len(paper) && math.Abs(v-paper[j]) > Flag {
				mark = " !"
			}
			fmt.Fprintf(b, " %.3f%s |", v, mark)
		}
		fmt.Fprintf(b, " %.3f | %+.3f |\n", l.dist, trend(l.values))
	}
	b.WriteString("\n")
}

// WriteReadingsCSV writes one row per set, pairing of settings (the
// readings naming Cross-A's, Convex-A's and CASS-II's) and delay: every
// ratio of Tables 1 and 6 and the graphs left out.
func WriteReadingsCSV(w io.Writer, sets []*ReadingsSet, readings []Reading) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"set", "tasks", "cross", "convex", "cass2", "rho", "graphs", "minmin_convex", "avgmin_convex", "left_out_convex", "min_cass2", "left_out_cass2"})
	crossR, convexR, cassR := settingReadings(readings)
	f := sweep.FormatFloat
	for _, s := range sets {
		for _, x := range crossR {
			for _, v := range convexR {
				for _, c := range cassR {
					res, err := s.Compose(x, v, c)
					if err != nil {
						return err
					}
					for _, row := range res.Rows {
						cw.Write([]string{s.Label, strconv.Itoa(res.Tasks), x.Name, v.Name, c.Name, f(row.Rho), strconv.Itoa(row.Graphs),
							f(row.MinMinConvex), f(row.AvgMinConvex), strconv.Itoa(row.ExcludedConvex), f(row.MinCASS), strconv.Itoa(row.ExcludedCASS)})
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeClusters writes the mean number of clusters of Cross-A's and
// Convex-A's best clusterings under each of their settings, by delay.
func writeClusters(b *strings.Builder, s *ReadingsSet, crossR, convexR []Reading) error {
	fmt.Fprintf(b, "### Clusters of the best clustering (mean over the %d graphs)\n\n| algorithm | setting of |", len(s.Graphs))
	for _, rho := range s.Rhos {
		fmt.Fprintf(b, " ρ=%g |", rho)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(s.Rhos)) + "\n")
	for _, part := range []struct {
		name     string
		readings []Reading
		convex   bool
	}{{"Cross-A", crossR, false}, {"Convex-A", convexR, true}} {
		for _, r := range part.readings {
			mc, err := s.MeanClusters(r, part.convex)
			if err != nil {
				return err
			}
			fmt.Fprintf(b, "| %s | %s |", part.name, r.Name)
			for _, v := range mc {
				fmt.Fprintf(b, " %.1f |", v)
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	return nil
}

package reproduce

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/netsched/netsched/internal/atomicfile"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/plots/sweepplot"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"

	_ "github.com/netsched/netsched/policies/all" // the bundled scenarios name policies of every family
)

// Output is what one paper's reproduction writes: files in its result
// folder, and Markdown notes for its section of results/README.md. Every
// file written through Path, Write or Markdown is listed in the section.
type Output struct {
	dir    string
	jobs   int
	notes  strings.Builder
	files  []string
	tables []string

	mu     sync.Mutex // guards status, which Progressf sets and the progress printer reads
	status string
}

// Path returns the path of a file of the reproduction, for a writer that
// takes a path (plots), and lists it in the section.
func (o *Output) Path(name string) string {
	o.files = append(o.files, name)
	return filepath.Join(o.dir, name)
}

// Write writes a file of the reproduction atomically, and lists it.
func (o *Output) Write(name string, render func(io.Writer) error) error {
	o.files = append(o.files, name)
	return writeFile(o.dir, name, render)
}

// Markdown writes a Markdown file of the reproduction and returns its text
// for the notes.
func (o *Output) Markdown(name string, render func(io.Writer) error) (string, error) {
	var b strings.Builder
	if err := render(&b); err != nil {
		return "", fmt.Errorf("rendering %s: %w", name, err)
	}
	text := b.String()
	return text, o.Write(name, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
}

// Table writes t as tables/<t.Name>.csv and tables/<t.Name>.tex (not
// listed among the section's files: the Markdown links them) and returns
// its Markdown, with those links under it, for tables.md and the notes.
func (o *Output) Table(t *Table) (string, error) {
	if err := t.validate(); err != nil {
		return "", err
	}
	if slices.Contains(o.tables, t.Name) {
		return "", fmt.Errorf("table %s written twice", t.Name)
	}
	o.tables = append(o.tables, t.Name)
	csvName, texName := "tables/"+t.Name+".csv", "tables/"+t.Name+".tex"
	if err := writeFile(o.dir, csvName, t.WriteCSV); err != nil {
		return "", err
	}
	if err := writeFile(o.dir, texName, t.WriteLaTeX); err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.WriteMarkdown(&b); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\nAlso as [CSV](%s) and [LaTeX](%s).\n\n", csvName, texName)
	return b.String(), nil
}

// Document writes the Markdown file name of parts in order, a string as
// it is and a *Table as Table writes it (with its CSV and LaTeX), and
// returns its text for the notes.
func (o *Output) Document(name string, parts ...any) (string, error) {
	var b strings.Builder
	for _, part := range parts {
		switch p := part.(type) {
		case string:
			b.WriteString(p)
		case *Table:
			md, err := o.Table(p)
			if err != nil {
				return "", fmt.Errorf("%s: %w", name, err)
			}
			b.WriteString(md)
		default:
			return "", fmt.Errorf("%s: part of type %T", name, part)
		}
	}
	text := b.String()
	return text, o.Write(name, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
}

// Ref refers to a file of the paper's folder that the reproduction does
// not write (NOTES.md): a link when the folder holds it, otherwise its
// place in the repository.
func (o *Output) Ref(name string) string {
	if _, err := os.Stat(filepath.Join(o.dir, name)); err == nil {
		return "[" + name + "](" + name + ")"
	}
	return "`results/" + filepath.Base(o.dir) + "/" + name + "` of the repository"
}

// Progressf says what the reproduction is doing now; while it runs for
// more than ProgressAfter, the latest of these is printed on
// Options.Progress every ProgressEvery.
func (o *Output) Progressf(format string, args ...any) {
	o.mu.Lock()
	o.status = fmt.Sprintf(format, args...)
	o.mu.Unlock()
}

// Notef adds Markdown to the paper's section of results/README.md.
func (o *Output) Notef(format string, args ...any) { fmt.Fprintf(&o.notes, format, args...) }

// SweepScenario runs a bundled scenario's own sweep into NAME.csv (and its
// manifest), always from scratch.
func (o *Output) SweepScenario(ctx context.Context, name string) (*sweep.Table, error) {
	sc, err := scenarios.Load(name)
	if err != nil {
		return nil, err
	}
	plan, err := sweep.NewPlan(sc, sc.Sweep, max(sc.Seeds, 1), 1, 0)
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", name, err)
	}
	out := o.Path(name + ".csv")
	os.Remove(out) // a reproduction always recomputes
	os.Remove(sweep.ManifestPath(out))
	t, err := sweep.Run(ctx, plan, sweep.Options{Jobs: o.jobs, Out: out})
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", name, err)
	}
	return t, nil
}

// SweepPlot draws what spec selects from a sweep's table into file, with
// the axes labelled by x and y (their names and units).
func (o *Output) SweepPlot(t *sweep.Table, spec sweepplot.Spec, x, y Column, file string) error {
	spec.XLabel, spec.YLabel = x.Header(), y.Header()
	return sweepplot.Save(t, spec, o.Path(file))
}

// Gantt draws one policy's replayed schedule on a bundled scenario, at its
// base point with the given values set, into file.
func (o *Output) Gantt(ctx context.Context, scenario, policy, colorBy, file string, set ...scenarios.Axis) error {
	sc, err := scenarios.Load(scenario)
	if err != nil {
		return err
	}
	plan, err := sweep.NewPlan(sc, set, 1, 1, sim.Timed)
	if err == nil {
		sc, err = plan.Scenario(0) // the first value of each axis
	}
	if err != nil {
		return fmt.Errorf("gantt %s: %w", scenario, err)
	}
	i := slices.IndexFunc(sc.Policies, func(p scenarios.PolicySpec) bool { return p.ID() == policy })
	if i < 0 {
		return fmt.Errorf("gantt %s: no policy %q", scenario, policy)
	}
	row, err := runs.One(ctx, sc, i, 1, sim.Timed)
	if err != nil {
		return fmt.Errorf("gantt %s, %s: %w", scenario, policy, err)
	}
	title := fmt.Sprintf("%s — %s (makespan %.4g)", scenario, policy, row.Simulated)
	opt := plots.GanttOptions{Title: title, ColorBy: colorBy, HideIdle: sc.Platform.Tree != nil} // relays never send
	return plots.SaveGantt(row.Result.Trace, opt, o.Path(file))
}

// PivotTable tabulates a one-axis sweep: a row per axis value, a column
// per policy, the mean of the metric (as sweepplot.Metric reads it) over
// seeds. x and y name the axis and the metric with their units.
func PivotTable(name, title string, t *sweep.Table, metric string, x, y Column) *Table {
	var policies []string
	var xs []float64
	sum, n := map[string]map[float64]float64{}, map[string]map[float64]int{}
	for _, row := range t.Rows {
		v, ok := sweepplot.Metric(row, metric)
		if !ok || len(row.Point) == 0 {
			continue
		}
		x := row.Point[0]
		if sum[row.Policy] == nil {
			sum[row.Policy], n[row.Policy] = map[float64]float64{}, map[float64]int{}
			policies = append(policies, row.Policy)
		}
		if !slices.Contains(xs, x) {
			xs = append(xs, x)
		}
		sum[row.Policy][x] += v
		n[row.Policy][x]++
	}
	sort.Float64s(xs)
	tab := &Table{Name: name, Title: title, Columns: []Column{x}}
	for _, p := range policies {
		tab.Columns = append(tab.Columns, Column{Name: y.Name + ", " + p, Unit: y.Unit, Clock: y.Clock})
	}
	for _, x := range xs {
		row := []Cell{Sig(x, 6)}
		for _, p := range policies {
			if n[p][x] == 0 {
				row = append(row, Empty())
				continue
			}
			row = append(row, Sig(sum[p][x]/float64(n[p][x]), 6))
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab
}

// writeFile writes dir/name whole or not at all (package atomicfile),
// making dir if it is missing. It renders into memory first, so that a
// figure that fails to render leaves no file.
func writeFile(dir, name string, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return fmt.Errorf("rendering %s: %w", name, err)
	}
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

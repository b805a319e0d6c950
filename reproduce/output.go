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
	dir   string
	jobs  int
	notes strings.Builder
	files []string
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

// PivotMarkdown tabulates a one-axis sweep: a row per axis value, a column
// per policy, the mean of the metric (as sweepplot.Metric reads it) over
// seeds.
func PivotMarkdown(t *sweep.Table, metric string) string {
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
	var b []byte
	b = fmt.Appendf(b, "| %s |", t.Axes[0])
	for _, p := range policies {
		b = fmt.Appendf(b, " %s |", p)
	}
	b = fmt.Appendf(b, "\n|---|%s\n", strings.Repeat("---|", len(policies)))
	for _, x := range xs {
		b = fmt.Appendf(b, "| %g |", x)
		for _, p := range policies {
			if n[p][x] == 0 {
				b = fmt.Appendf(b, " |")
				continue
			}
			b = fmt.Appendf(b, " %.6g |", sum[p][x]/float64(n[p][x]))
		}
		b = append(b, '\n')
	}
	return string(b)
}

// writeFile writes dir/name whole or not at all (package atomicfile),
// making dir if it is missing. It renders into memory first, so that a
// figure that fails to render leaves no file.
func writeFile(dir, name string, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return fmt.Errorf("rendering %s: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, name), func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
}

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"gonum.org/v1/gonum/stat"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sweep"
)

// cmdSweep runs a scenario's policies at every point of a parameter grid.
func cmdSweep(ctx context.Context, args []string, st streams) error {
	fs := newFlags("sweep", "sweep SCENARIO [--set NAME=VALUES]... [flags]", st.out)
	sets := fs.StringArray("set", nil, "an axis: NAME=v1,v2,... or NAME=start:stop:step; NAME is a dotted path\n(platform.crossbar.beta, platform.crossbar.processors[2].gamma) or a parameter name of the platform or problem (beta, alpha, rho, size, interval);\nrepeat for a cross product; replaces the scenario's own sweep axes")
	out := fs.StringP("out", "o", "", "results CSV, written as points finish (journal OUT.partial) and resumed on rerun")
	format := fs.String("format", "table", "output on stdout without --out: table, csv or json")
	shardSpec := fs.String("shard", "", "run only slice i/n of the points (0 ≤ i < n), e.g. $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT")
	quiet := fs.BoolP("quiet", "q", false, "no progress bar")
	common := addRunFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmtName, err := parseFormat(*format)
	if err != nil {
		return err
	}
	var shard sweep.Shard
	if *shardSpec != "" {
		if shard, err = sweep.ParseShard(*shardSpec); err != nil {
			return badInput(err)
		}
		if *out == "" {
			return badInputf("--shard needs --out: each shard writes its own file for 'netsched merge'")
		}
	}
	sc, err := loadScenarioArg(fs.Args())
	if err != nil {
		return err
	}
	axes, err := sweepAxes(*sets)
	if err != nil {
		return err
	}
	plan, err := common.plan(sc, axes)
	if err != nil {
		return err
	}
	opt := sweep.Options{Jobs: common.jobs, Shard: shard, Out: *out}
	if !*quiet && st.errIsTerminal() {
		bar := newProgressBar(st.err)
		opt.Progress = func(done, total int) { bar.ChangeMax(total); bar.Set(done) }
		defer bar.Finish()
	}
	t, err := sweep.Run(ctx, plan, opt)
	if err != nil {
		if *out != "" && ctx.Err() != nil {
			return fmt.Errorf("interrupted: finished points are kept in %s; rerun the same command to resume", sweep.JournalPath(*out))
		}
		return badInputOrRun(err)
	}
	if *out != "" {
		fmt.Fprintf(st.out, "%s: %d rows (%d failed verification)\n", *out, len(t.Rows), countUnverified(t.Rows))
		return nil
	}
	return writeRows(st.out, fmtName, t)
}

// badInputOrRun classifies a sweep error: one about its output file (a
// file or journal of another sweep, a path where none can be written) is
// bad input (exit 2); anything else a failed run.
func badInputOrRun(err error) error {
	if _, ok := errors.AsType[*sweep.OutputError](err); ok {
		return badInput(err)
	}
	return err
}

func countUnverified(rows []*sweep.Row) int {
	n := 0
	for _, r := range rows {
		if !r.Verified {
			n++
		}
	}
	return n
}

// sweepAxes reads the --set axes; none means the scenario's own.
func sweepAxes(sets []string) ([]scenarios.Axis, error) {
	var axes []scenarios.Axis
	for _, s := range sets {
		ax, err := sweep.ParseSet(s)
		if err != nil {
			return nil, badInput(err)
		}
		axes = append(axes, ax)
	}
	return axes, nil
}

func newProgressBar(w io.Writer) *progressbar.ProgressBar {
	return progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("sweep"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("runs"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// cmdMerge joins shard files.
func cmdMerge(_ context.Context, args []string, st streams) error {
	fs := newFlags("merge", "merge -o OUT.csv SHARD.csv...", st.out)
	out := fs.StringP("out", "o", "", "merged results CSV (required)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return badInputf("merge: want -o OUT.csv and the shard files")
	}
	if err := sweep.Merge(fs.Args(), *out); err != nil {
		return badInput(err)
	}
	fmt.Fprintf(st.out, "%s: merged %d shards\n", *out, fs.NArg())
	return nil
}

// cmdPlot draws a metric of a results CSV against one axis.
func cmdPlot(_ context.Context, args []string, st streams) error {
	fs := newFlags("plot", "plot RESULTS.csv -o FILE.{png,svg,pdf} [flags]", st.out)
	out := fs.StringP("output", "o", "", "output file; the extension picks PNG, SVG or PDF (required)")
	x := fs.StringP("x", "x", "", "the axis on the x axis (default: the only axis)")
	metric := fs.StringP("metric", "m", "simulated_makespan", "what to plot: simulated_makespan, claimed_makespan, gap, violations, or a policy metric (metric.NAME or NAME)")
	ratio := fs.String("ratio-to", "", "plot each policy's metric divided by this policy's at the same point and seed")
	speedup := fs.String("speedup-over", "", "plot this policy's metric divided by each policy's (a speedup) at the same point and seed")
	where := fs.StringArray("where", nil, "NAME=VALUE: keep only rows where another axis has this value (repeatable)")
	logX := fs.Bool("logx", false, "logarithmic x axis")
	title := fs.String("title", "", "plot title")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *out == "" {
		return badInputf("plot: want one RESULTS.csv and -o FILE")
	}
	if err := checkPlotPath(*out); err != nil {
		return err
	}
	t, err := sweep.ReadCSVFile(fs.Arg(0))
	if err != nil {
		return badInput(err)
	}
	if *ratio != "" && *speedup != "" {
		return badInputf("plot: --ratio-to and --speedup-over exclude each other")
	}
	spec := plotSpec{x: *x, metric: *metric, ratioTo: *ratio + *speedup, invert: *speedup != "", where: *where, logX: *logX, title: *title}
	if err := savePlot(t, spec, *out); err != nil {
		return badInputf("plot %s: %w", fs.Arg(0), err)
	}
	fmt.Fprintf(st.out, "%s written\n", *out)
	return nil
}

// savePlot draws what spec selects from a results table.
func savePlot(t *sweep.Table, spec plotSpec, out string) error {
	series, xName, err := seriesOf(t, spec)
	if err != nil {
		return err
	}
	ylabel := spec.metric
	switch {
	case spec.invert:
		ylabel = "speedup over " + spec.ratioTo + " (" + spec.metric + ")"
	case spec.ratioTo != "":
		ylabel += " / " + spec.ratioTo
	}
	return plots.SaveLines(series, plots.LineOptions{Title: spec.title, XLabel: xName, YLabel: ylabel, LogX: spec.logX}, out)
}

// plotSpec says which part of a results table to plot.
type plotSpec struct {
	x, metric, ratioTo string
	invert             bool // ratioTo's value over each policy's: a speedup
	where              []string
	logX               bool
	title              string
}

// seriesOf turns a results table into one line per policy: the mean of
// the metric over seeds at each x, with the standard deviation as error.
func seriesOf(t *sweep.Table, spec plotSpec) ([]plots.Series, string, error) {
	xi, err := xAxis(t, spec.x)
	if err != nil {
		return nil, "", err
	}
	rows, err := filterWhere(t, spec.where, xi)
	if err != nil {
		return nil, "", err
	}
	value := func(r *sweep.Row) (float64, bool) { return metricOf(r, spec.metric) }
	if spec.ratioTo != "" {
		if value, err = ratioTo(rows, spec.ratioTo, spec.metric, spec.invert); err != nil {
			return nil, "", err
		}
	}
	samples := map[string]map[float64][]float64{}
	var names []string
	for _, r := range rows {
		v, ok := value(r)
		if !ok {
			continue
		}
		if samples[r.Policy] == nil {
			samples[r.Policy] = map[float64][]float64{}
			names = append(names, r.Policy)
		}
		samples[r.Policy][r.Point[xi]] = append(samples[r.Policy][r.Point[xi]], v)
	}
	if len(names) == 0 {
		return nil, "", fmt.Errorf("no rows have a value for %q", spec.metric)
	}
	var series []plots.Series
	for _, name := range names {
		series = append(series, summarize(name, samples[name]))
	}
	return series, t.Axes[xi], nil
}

func summarize(name string, byX map[float64][]float64) plots.Series {
	s := plots.Series{Name: name}
	xs := make([]float64, 0, len(byX))
	for x := range byX {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	for _, x := range xs {
		mean, std := stat.MeanStdDev(byX[x], nil)
		if len(byX[x]) < 2 {
			std = 0
		}
		s.X, s.Y, s.YErr = append(s.X, x), append(s.Y, mean), append(s.YErr, std)
	}
	return s
}

func xAxis(t *sweep.Table, name string) (int, error) {
	if len(t.Axes) == 0 {
		return 0, fmt.Errorf("the results have no swept parameter to plot against")
	}
	if name == "" {
		if len(t.Axes) > 1 {
			return 0, fmt.Errorf("several axes (%s): choose one with --x", strings.Join(t.Axes, ", "))
		}
		return 0, nil
	}
	for i, a := range t.Axes {
		if a == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("--x %s: no such axis (have %s)", name, strings.Join(t.Axes, ", "))
}

// filterWhere keeps rows matching every NAME=VALUE, and checks that no
// axis other than x still varies.
func filterWhere(t *sweep.Table, where []string, xi int) ([]*sweep.Row, error) {
	fixed := map[int]float64{}
	for _, w := range where {
		ax, err := sweep.ParseSet(w)
		if err != nil || len(ax.Values) != 1 {
			return nil, fmt.Errorf("--where %q: want NAME=VALUE", w)
		}
		i := slices.Index(t.Axes, ax.Path)
		if i < 0 {
			return nil, fmt.Errorf("--where %s: no such axis (have %s)", ax.Path, strings.Join(t.Axes, ", "))
		}
		fixed[i] = ax.Values[0]
	}
	if err := checkWhere(t, fixed); err != nil {
		return nil, err
	}
	var rows []*sweep.Row
	seen := map[int]map[float64]bool{}
	for _, r := range t.Rows {
		keep := true
		for i, v := range fixed {
			keep = keep && sameValue(r.Point[i], v)
		}
		if !keep {
			continue
		}
		rows = append(rows, r)
		for i, v := range r.Point {
			if seen[i] == nil {
				seen[i] = map[float64]bool{}
			}
			seen[i][v] = true
		}
	}
	for i := range t.Axes {
		if i != xi && len(seen[i]) > 1 {
			return nil, fmt.Errorf("axis %s varies too: fix it with --where %s=VALUE", t.Axes[i], t.Axes[i])
		}
	}
	return rows, nil
}

// sameValue reports whether an axis value of a row is the value a --where
// names: equal to 1e-9 relative, so that 0.06 finds the
// 0.060000000000000005 of a sweep run before ranges were rounded.
func sameValue(x, v float64) bool {
	return math.Abs(x-v) <= 1e-9*math.Max(1, math.Abs(v))
}

// checkWhere fails for a --where value that no row has, listing the
// values the axis has.
func checkWhere(t *sweep.Table, fixed map[int]float64) error {
	for i, v := range fixed {
		var have []float64
		for _, r := range t.Rows {
			if sameValue(r.Point[i], v) {
				have = nil
				break
			}
			if !slices.ContainsFunc(have, func(h float64) bool { return sameValue(h, r.Point[i]) }) {
				have = append(have, r.Point[i])
			}
		}
		if have != nil {
			slices.Sort(have)
			vals := make([]string, len(have))
			for k, h := range have {
				vals[k] = strconv.FormatFloat(h, 'g', -1, 64)
			}
			return fmt.Errorf("--where %s=%g: no row has it; the values are %s", t.Axes[i], v, strings.Join(vals, ", "))
		}
	}
	return nil
}

// metricOf reads a named figure of a row.
func metricOf(r *sweep.Row, name string) (float64, bool) {
	var v float64
	switch name {
	case "simulated_makespan":
		v = r.Simulated
	case "claimed_makespan":
		v = r.Claimed
	case "gap":
		v = r.Gap
	case "violations":
		v = float64(r.ViolationCount())
	default:
		m, ok := r.Metrics[strings.TrimPrefix(name, "metric.")]
		if !ok {
			return 0, false
		}
		v = m
	}
	return v, !math.IsNaN(v)
}

// ratioTo returns a value function dividing a row's metric by the
// baseline policy's at the same point and seed, or the baseline's by the
// row's when invert is set.
func ratioTo(rows []*sweep.Row, base, metric string, invert bool) (func(*sweep.Row) (float64, bool), error) {
	key := func(r *sweep.Row) string { return fmt.Sprint(r.Point, r.Seed) }
	ref := map[string]float64{}
	for _, r := range rows {
		if r.Policy == base {
			if v, ok := metricOf(r, metric); ok {
				ref[key(r)] = v
			}
		}
	}
	if len(ref) == 0 {
		return nil, fmt.Errorf("--ratio-to %s: no rows of that policy", base)
	}
	return func(r *sweep.Row) (float64, bool) {
		v, ok := metricOf(r, metric)
		d, found := ref[key(r)]
		if !ok || !found || d == 0 || v == 0 {
			return 0, false
		}
		if invert {
			return d / v, true
		}
		return v / d, true
	}, nil
}

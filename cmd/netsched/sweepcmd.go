package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/plots/sweepplot"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sweep"
	"github.com/netsched/netsched/sweep/axis"
)

// cmdSweep runs a scenario's policies at every point of a parameter grid.
func cmdSweep(ctx context.Context, args []string, st streams) error {
	fs := newFlags("sweep", "sweep SCENARIO [--set NAME=VALUES]... [flags]", st.out)
	sets := fs.StringArray("set", nil, "an axis `NAME=VALUES`, VALUES a list v1,v2,... or a range start:stop:step; NAME is a dotted path\n(platform.crossbar.beta, platform.crossbar.processors[2].gamma) or a parameter name of the platform or problem (beta, alpha, rho, size, interval);\nrepeat for a cross product; replaces the scenario's own sweep axes")
	out := fs.StringP("out", "o", "", "results CSV `OUT.csv`, written as points finish (journal OUT.csv.partial) and resumed on rerun")
	format := fs.String("format", "table", "output on stdout without --out: table, csv or json")
	shardSpec := fs.String("shard", "", "run only slice `i/n` of the points (0 ≤ i < n), e.g. $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT")
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
	ctx, cancel, err := withTimeout(ctx, common.timeout)
	if err != nil {
		return err
	}
	defer cancel()
	sc, err := common.load(ctx, fs.Args(), st.err)
	if err != nil {
		return err
	}
	axes, err := sweepAxes(*sets)
	if err != nil {
		return err
	}
	plan, err := common.plan(sc, axes, true)
	if err != nil {
		return err
	}
	opt := sweep.Options{Jobs: common.jobs, Shard: shard, Out: *out}
	if !*quiet && st.errIsTerminal() {
		bar := newProgressBar(st.err)
		opt.Progress = func(done, total int) { bar.ChangeMax(total); bar.Set(done) }
		defer bar.Finish()
	}
	t, err := sweep.Run(common.withBudget(ctx), plan, opt)
	if err != nil {
		kept := "nothing written"
		if *out != "" {
			kept = fmt.Sprintf("finished points are kept in %s; rerun the same command to resume", sweep.JournalPath(*out))
		}
		if s := stopped(ctx, common.timeout, kept); s != nil {
			return s
		}
		return badInputOrRun(err)
	}
	warnIdleSeeds(st.err, plan, t.Rows)
	if *out != "" {
		fmt.Fprintf(st.out, "%s: %d rows (%d failed verification)\n", *out, len(t.Rows), countUnverified(t.Rows))
	} else if err := writeRows(st.out, fmtName, t); err != nil {
		return err
	}
	return sweepVerdict(t.Rows)
}

// warnIdleSeeds warns, on w, when the plan's seeds gave every policy the
// same result at every point (sweep.SeedsChangeNothing).
func warnIdleSeeds(w io.Writer, plan *sweep.Plan, rows []*sweep.Row) {
	if plan.Seeds > 1 && sweep.SeedsChangeNothing(rows) {
		fmt.Fprintf(w, "netsched: warning: the %d seeds gave every policy the same result at every point: nothing in scenario %s draws from the seed "+
			"(a processor generator draws a platform per seed with per_run: true; see docs/sweeps.md)\n", plan.Seeds, plan.Base.Name)
	}
}

// sweepVerdict is the exit status of a sweep whose outputs are written:
// nil when every run is verified, else one line that counts the runs
// that failed and says where to look (exit status 1, as run's).
func sweepVerdict(rows []*sweep.Row) error {
	errored, unverified := 0, 0
	for _, r := range rows {
		switch {
		case r.Error != "":
			errored++
		case !r.Verified:
			unverified++
		}
	}
	failed := errored + unverified
	switch {
	case failed == 0:
		return nil
	case unverified == 0:
		return fmt.Errorf("%s of %s runs failed: see the error column", thousands(failed), thousands(len(rows)))
	case errored == 0:
		return fmt.Errorf("%s of %s runs failed verification: see the violations column", thousands(failed), thousands(len(rows)))
	}
	return fmt.Errorf("%s of %s runs failed: %s with an error (see the error column), %s not verified (see the violations column)",
		thousands(failed), thousands(len(rows)), thousands(errored), thousands(unverified))
}

// thousands writes a count with a comma between groups of three digits
// (1,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// badInputOrRun classifies a sweep error: one about its output file (a
// file or journal of another sweep, a path where none can be written) or
// a run that would pass the memory budget is bad input (exit 2);
// anything else a failed run.
func badInputOrRun(err error) error {
	if _, ok := errors.AsType[*sweep.OutputError](err); ok || budget.IsExceeded(err) {
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
func sweepAxes(sets []string) ([]axis.Axis, error) {
	var axes []axis.Axis
	for _, s := range sets {
		ax, err := axis.ParseSet(s)
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

// cmdMerge joins shard files. Like sweep, it exits 1 when runs of the
// merged file failed, after writing it.
func cmdMerge(_ context.Context, args []string, st streams) error {
	fs := newFlags("merge", "merge -o OUT.csv SHARD.csv...", st.out)
	out := fs.StringP("out", "o", "", "merged results CSV `OUT.csv` (required)")
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
	// The same verdict as the sweep's, read from what was written.
	t, err := sweep.ReadCSVFile(*out)
	if err != nil {
		return fmt.Errorf("merge: reading %s back: %w", *out, err)
	}
	return sweepVerdict(t.Rows)
}

// sweepTimeUnit is the unit of model time of the sweep that wrote a
// results CSV, for the plot's labels: its manifest (OUT.sweep.json) names
// the scenario, and a bundled one says its platform kind. Without a
// manifest, or for a scenario file the manifest cannot locate, it is ""
// (seconds), as LookupQuantity reads model time.
func sweepTimeUnit(csv string) string {
	man, err := sweep.ReadManifest(csv)
	if err != nil || !slices.Contains(scenarios.Bundled(), man.Scenario) {
		return ""
	}
	sc, err := scenarios.Load(man.Scenario)
	if err != nil {
		return ""
	}
	return timeUnit(sc.Platform.Kind())
}

// cmdPlot draws a metric of a results CSV against one axis.
func cmdPlot(_ context.Context, args []string, st streams) error {
	fs := newFlags("plot", "plot RESULTS.csv -o FILE.{png,svg,pdf} [flags]", st.out)
	out := fs.StringP("output", "o", "", "output file; the extension picks PNG, SVG or PDF (required)")
	x := fs.StringP("x", "x", "", "the axis on the x axis (default: the only axis)")
	metric := fs.StringP("metric", "m", "simulated_makespan", "what to plot: simulated_makespan, claimed_makespan, gap, violations, plan_seconds (--timing), shared_makespan and shared_ratio (--sharing), or a policy metric (metric.NAME or NAME)")
	ratio := fs.String("ratio-to", "", "plot each policy's metric divided by this policy's at the same point and seed")
	speedup := fs.String("speedup-over", "", "plot this policy's metric divided by each policy's (a speedup) at the same point and seed")
	where := fs.StringArray("where", nil, "keep only the rows where another axis has a value, `NAME=VALUE` (repeatable)")
	logX := fs.Bool("logx", false, "logarithmic x axis")
	title := fs.String("title", "", "plot title")
	xlabel := fs.String("xlabel", "", "x axis label (default: the parameter's name and unit, such as \"β (s per unit of load)\")")
	ylabel := fs.String("ylabel", "", "y axis label (default: the metric's name and unit, such as \"makespan (s)\")")
	size := fs.String("size", "", sizeUsage)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *out == "" {
		return badInputf("plot: want one RESULTS.csv and -o FILE")
	}
	if err := checkPlotPath(*out); err != nil {
		return err
	}
	sz, err := parseSize(*size)
	if err != nil {
		return err
	}
	t, err := sweep.ReadCSVFile(fs.Arg(0))
	if err != nil {
		return badInput(err)
	}
	if *ratio != "" && *speedup != "" {
		return badInputf("plot: --ratio-to and --speedup-over exclude each other")
	}
	spec := sweepplot.Spec{X: *x, Metric: *metric, RatioTo: *ratio + *speedup, Invert: *speedup != "", Where: *where, LogX: *logX, Title: *title, XLabel: *xlabel, YLabel: *ylabel, Size: sz,
		TimeUnit: sweepTimeUnit(fs.Arg(0))}
	if err := sweepplot.Save(t, spec, *out); err != nil {
		return badInputf("plot %s: %w", fs.Arg(0), err)
	}
	fmt.Fprintf(st.out, "%s written\n", *out)
	return nil
}

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schedfile"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
	"github.com/netsched/netsched/sweep/axis"
	"github.com/netsched/netsched/tracefile"
)

// cmdRun runs every policy of a scenario and reports the replays.
func cmdRun(ctx context.Context, args []string, st streams) error {
	ctx = policies.WithProgress(ctx, st.err) // long optimal searches report on stderr
	fs := newFlags("run", "run SCENARIO [flags]", st.out)
	format := fs.String("format", "table", "output format: table, csv or json")
	out := fs.String("out", "", "`DIR` for results.csv, results.json, <policy>.schedule.json and Gantt charts")
	gantt := fs.String("gantt", "png", "Gantt chart format written with --out: png, svg, pdf, or none")
	traceFmt := fs.String("trace", "none", "trace file format written with --out, as <policy>.trace.json or .paje: json (Perfetto), paje (ViTE, pajeng), or none")
	common := addRunFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmtName, err := parseFormat(*format)
	if err != nil {
		return err
	}
	if *gantt != "none" && !plotFormat(*gantt) {
		return badInputf("--gantt: want png, svg, pdf or none, got %q", *gantt)
	}
	if err := checkTraceFormat(*traceFmt, *out); err != nil {
		return err
	}
	if *out != "" {
		if err := checkOutDir(*out); err != nil {
			return err
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
	plan, err := common.plan(sc, nil, false) // run runs the base values; sweep runs the axes
	if err != nil {
		return err
	}
	t, err := sweep.Run(common.withBudget(ctx), plan, sweep.Options{Jobs: common.jobs, KeepRuns: true})
	if s := stopped(ctx, common.timeout, "nothing written"); s != nil {
		return s
	}
	if err != nil {
		return badInputOrRun(err)
	}
	warnIdleSeeds(st.err, plan, t.Rows)
	if *out != "" {
		if err := writeRunDir(ctx, *out, t, plots.GanttOptions{HideIdle: relaysIdle(sc)}, *gantt, *traceFmt); err != nil {
			if s := stopped(ctx, common.timeout, "nothing written"); s != nil {
				return s
			}
			return err
		}
	}
	if err := writeRows(st.out, fmtName, t); err != nil {
		return err
	}
	return verdict(t.Rows)
}

// runFlags are the flags run and sweep share.
type runFlags struct {
	modeName  string
	maxMemory *string
	seed      uint64
	seeds     int
	jobs      int
	timing    bool
	timeout   time.Duration
	allowExec *bool
	sharing   *string
}

// load loads the scenario args name within the --max-memory budget; when
// ctx ends meanwhile (--timeout or Ctrl-C), it says so instead, with
// nothing written.
func (f *runFlags) load(ctx context.Context, args []string, warn io.Writer) (*scenarios.Scenario, error) {
	sc, err := loadScenarioArg(ctx, args, *f.maxMemory, warn)
	if s := stopped(ctx, f.timeout, "nothing written"); s != nil {
		return nil, s
	}
	if err != nil {
		return nil, err
	}
	if err := applySharing(sc, *f.sharing); err != nil {
		return nil, err
	}
	return sc, checkExec(sc, nil, execAllowed(*f.allowExec))
}

// addSharingFlag adds --sharing, which overrides the scenario's sharing.
func addSharingFlag(fs *pflag.FlagSet) *string {
	return fs.String("sharing", "", "also replay every schedule with its transfers as flows sharing the links of the platform lowered to a network: maxmin, cm02, or none (default: the scenario's sharing)")
}

// applySharing sets the sharing --sharing names on sc, if any.
func applySharing(sc *scenarios.Scenario, name string) error {
	if name == "" {
		return nil
	}
	if err := sc.SetSharing(name); err != nil {
		return badInputf("--sharing: %v", err)
	}
	return nil
}

// shown is the replay a run's charts and traces show: the one under
// bandwidth sharing when there is one.
func shown(r *sweep.Row) *sim.Result {
	if r.SharedResult != nil {
		return r.SharedResult
	}
	return r.Result
}

func addRunFlags(fs *pflag.FlagSet) *runFlags {
	f := &runFlags{}
	fs.StringVar(&f.modeName, "mode", "timed", "replay mode: timed (planned starts) or ordered (as soon as possible, in list order)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the first run; run k uses seed+k")
	fs.IntVar(&f.seeds, "seeds", 0, "runs per policy with successive seeds (default: the scenario's seeds)")
	fs.IntVarP(&f.jobs, "jobs", "j", runtime.GOMAXPROCS(0), "policy runs in parallel, one engine per goroutine; by default as many as the CPUs this process may use (affinity, cgroup quota)")
	fs.BoolVar(&f.timing, "timing", false, "record each policy's planning time (outputs then differ run to run)")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop planning and replaying after this long, such as 90s or 1h30m, with exit status 124 (Ctrl-C: 130); 0 is no limit")
	f.maxMemory = addMemoryFlag(fs)
	f.allowExec = addExecFlag(fs)
	f.sharing = addSharingFlag(fs)
	return f
}

// addMemoryFlag adds --max-memory, the budget inputs are checked against.
func addMemoryFlag(fs *pflag.FlagSet) *string {
	return fs.String("max-memory", "", "memory the command may take, such as 4GiB or 500MB; a scenario, graph or sweep estimated to need more is refused before it is read or run (default: the least of half the machine's memory and 3/4 of what ulimit -v, ulimit -d and the cgroup's memory limit leave)")
}

// memoryBudget reads --max-memory, bounded by the process's limits
// (budget.Ceiling), or the default budget, and makes it the Go runtime's
// memory limit too, so that the garbage collector works harder rather
// than let the heap grow past it.
func memoryBudget(flag string) (budget.Bytes, error) {
	b := budget.Default()
	if flag != "" {
		var err error
		if b, err = budget.Parse(flag); err != nil {
			return 0, badInputf("--max-memory %w", err)
		}
		if b < budget.Least {
			return 0, badInputf("--max-memory %s: below the %s that netsched takes to run at all", flag, budget.Format(float64(budget.Least)))
		}
		b, _ = budget.Ceiling(b)
	}
	debug.SetMemoryLimit(int64(b))
	return b, nil
}

// withBudget gives ctx each run's share of the memory budget, which an
// external policy's output is read within (budget.FromContext): the
// budget over the --jobs runs at once.
func (f *runFlags) withBudget(ctx context.Context) context.Context {
	b, err := memoryBudget(*f.maxMemory)
	if err != nil { // plan, which ran first, reported it
		return ctx
	}
	return budget.NewContext(ctx, b/budget.Bytes(max(f.jobs, 1)))
}

// plan builds the plan the flags describe: a sweep over axes (the
// scenario's own when there are none), or the runs at its base values,
// its own axes checked.
func (f *runFlags) plan(sc *scenarios.Scenario, axes []axis.Axis, sweeps bool) (*sweep.Plan, error) {
	mode, err := parseMode(f.modeName)
	if err != nil {
		return nil, err
	}
	n := f.seeds
	if n == 0 {
		n = max(sc.Seeds, 1)
	}
	if n < 1 {
		return nil, badInputf("--seeds: want at least 1, got %d", n)
	}
	if f.jobs < 1 {
		return nil, badInputf("--jobs: want at least 1, got %d", f.jobs)
	}
	var plan *sweep.Plan
	switch {
	case sweeps && len(axes) == 0:
		plan, err = sweep.NewPlan(sc, sc.Sweep, n, f.seed, mode)
	case sweeps:
		plan, err = sweep.NewPlan(sc, axes, n, f.seed, mode)
	default:
		plan, err = sweep.Base(sc, n, f.seed, mode)
	}
	if err != nil {
		return nil, badInput(err)
	}
	b, err := memoryBudget(*f.maxMemory)
	if err != nil {
		return nil, err
	}
	if err := plan.CheckMemory(b); err != nil {
		return nil, badInputf("scenario %s: %w", sc.Source, err)
	}
	plan.Timing = f.timing
	return plan, nil
}

// verdict is an error when any run failed or its schedule failed
// verification.
func verdict(rows []*sweep.Row) error {
	var failed []string
	for _, r := range rows {
		if !r.Verified {
			failed = append(failed, runName(r))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("verification failed for %s", strings.Join(failed, ", "))
	}
	return nil
}

// writeRunDir writes every output of a run into dir, all or nothing; each
// Gantt chart is drawn with gopt and its run's title.
func writeRunDir(ctx context.Context, dir string, t *sweep.Table, gopt plots.GanttOptions, ganttFmt, traceFmt string) error {
	od := &outputDir{dir: dir}
	od.addBytes("results.csv", t.WriteCSV)
	od.addBytes("results.json", func(w io.Writer) error { return writeJSON(w, t) })
	runs := map[string]int{}
	for _, r := range t.Rows {
		runs[r.Policy]++
	}
	for _, r := range t.Rows {
		if r.Schedule == nil {
			continue // the policy failed: its error is in the results
		}
		base := fileBase(r, runs[r.Policy])
		od.addBytes(base+".schedule.json", r.Schedule.WriteJSON)
		if ganttFmt != "none" {
			res, title := shown(r), r.Scenario+" — "+r.Policy
			od.add(base+".gantt."+ganttFmt, func(path string) error {
				opt := gopt
				opt.Title = title
				return plots.SaveGantt(res.Trace, opt, path)
			})
		}
		if traceFmt != "none" {
			res, title := shown(r), r.Scenario+" — "+r.Policy
			od.addBytes(base+".trace."+traceFmt, func(w io.Writer) error {
				return tracefile.Write(w, res.Trace, tracefile.Format(traceFmt), title)
			})
		}
	}
	return od.commit(ctx)
}

// fileBase names a run's files after its policy, and its seed when the
// policy ran more than once.
func fileBase(r *sweep.Row, runs int) string {
	base := r.Policy
	if runs > 1 {
		base = fmt.Sprintf("%s.seed%d", r.Policy, r.Seed)
	}
	return base
}

func plotFormat(ext string) bool { return ext == "png" || ext == "svg" || ext == "pdf" }

// checkTraceFormat checks run's --trace format, which needs --out.
func checkTraceFormat(format, out string) error {
	if format == "none" {
		return nil
	}
	if _, err := tracefile.ParseFormat(format); err != nil {
		return badInputf("--trace: want json, paje or none, got %q", format)
	}
	if out == "" {
		return badInputf("--trace %s: the trace files go into the --out directory, which is missing", format)
	}
	return nil
}

// checkTracePath rejects a --trace FILE whose extension names no trace
// format.
func checkTracePath(path string) error {
	if path == "" {
		return nil
	}
	if _, err := tracefile.FormatOf(path); err != nil {
		return badInputf("--trace: %w", err)
	}
	return nil
}

// loadScenarioArg loads the one positional scenario argument within the
// budget --max-memory gives.
func loadScenarioArg(ctx context.Context, args []string, maxMemory string, warn io.Writer) (*scenarios.Scenario, error) {
	if len(args) != 1 {
		return nil, badInputf("want exactly one SCENARIO (a bundled name or a YAML path), got %d arguments", len(args))
	}
	return loadScenario(ctx, args[0], maxMemory, warn)
}

// loadScenario loads a scenario within the memory budget and prints its
// warnings (scenarios.Scenario.Warnings) to warn. When ctx is done first
// it returns ctx.Err(), for the caller to say why (stopped).
func loadScenario(ctx context.Context, name, maxMemory string, warn io.Writer) (*scenarios.Scenario, error) {
	b, err := memoryBudget(maxMemory)
	if err != nil {
		return nil, err
	}
	sc, err := scenarios.LoadWithin(ctx, name, b)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, badInput(err)
	}
	for _, w := range sc.Warnings {
		fmt.Fprintln(warn, "netsched: warning:", w)
	}
	return sc, nil
}

// cmdVerify replays a schedule file on a scenario's platform and checks
// that it solves the scenario's problem.
func cmdVerify(ctx context.Context, args []string, st streams) error {
	fs := newFlags("verify", "verify -s SCENARIO SCHEDULE.json [flags]", st.out)
	scen := fs.StringP("scenario", "s", "", "scenario whose platform the schedule runs on (required)")
	modeName := fs.String("mode", "timed", "replay mode: timed or ordered")
	format := fs.String("format", "table", "output format: table, csv or json")
	ganttOut := fs.StringP("gantt", "o", "", "also draw the replay's Gantt chart to this file (.png, .svg, .pdf)")
	traceOut := fs.String("trace", "", "also write the replay's trace to this file: .json (Perfetto) or .paje (ViTE, pajeng)")
	maxMemory := addMemoryFlag(fs)
	sharing := addSharingFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	mode, err := parseMode(*modeName)
	if err != nil {
		return err
	}
	fmtName, err := parseFormat(*format)
	if err != nil {
		return err
	}
	if *scen == "" || fs.NArg() != 1 {
		return badInputf("verify: want -s SCENARIO and exactly one SCHEDULE.json")
	}
	if err := checkPlotPath(*ganttOut); err != nil {
		return err
	}
	if err := checkTracePath(*traceOut); err != nil {
		return err
	}
	sc, err := loadScenario(ctx, *scen, *maxMemory, st.err)
	if s := stopped(ctx, 0, "nothing written"); s != nil {
		return s
	}
	if err != nil {
		return err
	}
	if err := applySharing(sc, *sharing); err != nil {
		return err
	}
	b, err := memoryBudget(*maxMemory)
	if err != nil {
		return err
	}
	s, err := schedfile.ReadFileWithin(fs.Arg(0), &sc.Platform, b)
	if err != nil {
		return badInput(err)
	}
	if s.Policy == "" {
		s.Policy = filepath.Base(fs.Arg(0))
	}
	r, err := runs.Schedule(ctx, sc, s, mode)
	if err != nil {
		return badInputf("schedule %s: %w", fs.Arg(0), err)
	}
	if *ganttOut != "" {
		if err := plots.SaveGantt(shown(r).Trace, plots.GanttOptions{Title: r.Policy, HideIdle: relaysIdle(sc)}, *ganttOut); err != nil {
			return err
		}
	}
	if *traceOut != "" {
		if err := tracefile.Save(shown(r).Trace, r.Policy, *traceOut); err != nil {
			return err
		}
	}
	t := &sweep.Table{Rows: []*sweep.Row{r}}
	if err := writeRows(st.out, fmtName, t); err != nil {
		return err
	}
	return verdict(t.Rows)
}

// checkPlotPath rejects an output path whose extension no plot format has.
func checkPlotPath(path string) error {
	if path == "" {
		return nil
	}
	if !plotFormat(strings.TrimPrefix(filepath.Ext(path), ".")) {
		return badInputf("%s: want a .png, .svg or .pdf file name", path)
	}
	return nil
}

// cmdGantt draws one policy's replayed schedule.
func cmdGantt(ctx context.Context, args []string, st streams) error {
	ctx = policies.WithProgress(ctx, st.err) // long optimal searches report on stderr
	fs := newFlags("gantt", "gantt SCENARIO -p POLICY -o FILE.{png,svg,pdf} [--trace FILE.{json,paje}] [flags]", st.out)
	policy := fs.StringP("policy", "p", "", "`POLICY` to draw: a policy of the scenario, by its label or name (default: the first)")
	out := fs.StringP("output", "o", "", "output file; the extension picks PNG, SVG or PDF (required unless --trace)")
	traceOut := fs.String("trace", "", "also (or only) write the replay's trace to this file: .json (Perfetto) or .paje (ViTE, pajeng)")
	colorBy := fs.String("color-by", "kind", "bar colour: kind, round or label")
	hideIdle := fs.Bool("hide-idle", false, "leave out lanes with nothing on them (idle processors; on a tree, its relays are left out unless --hide-idle=false)")
	title := fs.String("title", "", "chart title (default: scenario — policy)")
	xlabel := fs.String("xlabel", "", "time axis label (default: \"time (s)\")")
	size := fs.String("size", "", sizeUsage+"; the height caps the chart's (default cap 9in)")
	lanes := fs.StringSlice("lanes", nil, "`LANES` to draw, comma-separated: names, glob patterns (P1?, A*) or groups (links, A, P)")
	from := fs.Float64("from", 0, "draw from this time on")
	to := fs.Float64("to", 0, "draw up to this time (default: the makespan)")
	modeName := fs.String("mode", "timed", "replay mode: timed or ordered")
	seed := fs.Uint64("seed", 1, "seed for randomised policies")
	maxMemory := addMemoryFlag(fs)
	allowExec := addExecFlag(fs)
	sharing := addSharingFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	mode, err := parseMode(*modeName)
	if err != nil {
		return err
	}
	if *out == "" && *traceOut == "" {
		return badInputf("gantt: -o FILE is required (or --trace FILE)")
	}
	if err := checkPlotPath(*out); err != nil {
		return err
	}
	if err := checkTracePath(*traceOut); err != nil {
		return err
	}
	if *colorBy != "kind" && *colorBy != "round" && *colorBy != "label" {
		return badInputf("--color-by: want kind, round or label, got %q", *colorBy)
	}
	sz, err := parseSize(*size)
	if err != nil {
		return err
	}
	if *to != 0 && !(*to > *from) {
		return badInputf("--from %g --to %g: want from before to", *from, *to)
	}
	sc, err := loadScenarioArg(ctx, fs.Args(), *maxMemory, st.err)
	if s := stopped(ctx, 0, "nothing written"); s != nil {
		return s
	}
	if err != nil {
		return err
	}
	if err := applySharing(sc, *sharing); err != nil {
		return err
	}
	i, err := policyIndex(sc, *policy)
	if err != nil {
		return err
	}
	if err := checkExec(sc, []int{i}, execAllowed(*allowExec)); err != nil {
		return err
	}
	b, err := memoryBudget(*maxMemory)
	if err != nil {
		return err
	}
	r, err := runs.One(budget.NewContext(ctx, b), sc, i, *seed, mode)
	if err != nil {
		return badInputOrRun(err)
	}
	if *title == "" {
		*title = sc.Name + " — " + r.Policy
	}
	if *out != "" {
		if !fs.Changed("hide-idle") {
			*hideIdle = relaysIdle(sc)
		}
		gopt := plots.GanttOptions{Title: *title, XLabel: cmp.Or(*xlabel, ganttTimeLabel(sc)), ColorBy: *colorBy, HideIdle: *hideIdle,
			Width: sz.Width, MaxHeight: sz.Height, FontSize: sz.FontSize, Lanes: *lanes, From: *from, To: *to}
		if err := plots.SaveGantt(shown(r).Trace, gopt, *out); err != nil {
			if errors.Is(err, plots.ErrGanttOptions) {
				return badInput(err)
			}
			return err
		}
	}
	if *traceOut != "" {
		if err := tracefile.Save(shown(r).Trace, *title, *traceOut); err != nil {
			return err
		}
	}
	if r.Sharing != "" {
		fmt.Fprintf(st.out, "%s: makespan under %s sharing %.6g (ideal %.6g, ratio %.4g; claimed %.6g), %d violations\n",
			cmp.Or(*out, *traceOut), r.Sharing, r.Shared, r.Simulated, r.SharedRatio, r.Claimed, len(r.Violations))
		return nil
	}
	fmt.Fprintf(st.out, "%s: makespan %.6g (claimed %.6g), %d violations\n", cmp.Or(*out, *traceOut), r.Simulated, r.Claimed, len(r.Violations))
	return nil
}

// relaysIdle reports whether the Gantt charts of sc leave out lanes with
// nothing on them by default: on a tree, whose relays forward but never
// send or receive themselves (the links they join have lanes of their own).
func relaysIdle(sc *scenarios.Scenario) bool { return sc.Platform.Tree != nil }

// ganttTimeLabel labels the time axis of a scenario's Gantt charts: task
// times on the delay platform, whose tasks and ρ count in them, else
// seconds.
func ganttTimeLabel(sc *scenarios.Scenario) string {
	return plots.LookupQuantityIn("time", timeUnit(sc.Platform.Kind())).Label()
}

// timeUnit is the unit of model time of a platform kind, as the figures'
// labels take it: task times on the delay platform, else "" (seconds).
func timeUnit(kind string) string {
	if kind == models.KindDelay {
		return plots.TaskTimes
	}
	return ""
}

// policyIndex finds a policy of the scenario by its label, or its name
// when it has none ("" is the first).
func policyIndex(sc *scenarios.Scenario, id string) (int, error) {
	if id == "" {
		return 0, nil
	}
	var ids []string
	for i, p := range sc.Policies {
		if p.ID() == id {
			return i, nil
		}
		ids = append(ids, p.ID())
	}
	return 0, badInputf("--policy: scenario %s has no policy labelled or named %q (it has %s)", sc.Name, id, strings.Join(ids, ", "))
}

// cmdList prints the registered policies and the bundled scenarios.
func cmdList(_ context.Context, args []string, st streams) error {
	fs := newFlags("list", "list", st.out)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInputf("list takes no arguments, got %q", fs.Args())
	}
	tw := tabwriter.NewWriter(st.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tFAMILY\tPLATFORMS\tDESCRIPTION")
	for _, e := range policies.All() {
		plat := strings.Join(e.Platforms, ",")
		if plat == "" {
			plat = "any"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Name, e.Family, plat, e.Doc)
	}
	fmt.Fprintln(tw, "\nSCENARIO\tPLATFORM\tPROBLEM\tDESCRIPTION")
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			return fmt.Errorf("bundled scenario %s: %w", name, err)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, sc.Platform.Kind(), sc.Problem.Family(), firstLine(sc.Description))
	}
	return tw.Flush()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

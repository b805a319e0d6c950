// Command netsched runs scheduling scenarios on simulated platforms,
// replays and verifies the schedules the policies produce, and draws Gantt
// charts.
//
//	netsched run crossbar-hetero          run a bundled scenario
//	netsched run my.yaml --out results/   write CSV, JSON, schedules, Gantt charts
//	netsched verify -s my.yaml sched.json check a schedule made elsewhere
//	netsched gantt my.yaml -p mmdl -o g.svg
//	netsched list                         policies and bundled scenarios
//
// Exit status: 0 on success, 1 when a schedule fails verification or a
// policy fails (a sweep writes all its outputs first, then counts the
// failed runs on stderr), 2 on bad input (flags, scenario, schedule file), 124 when
// run or sweep is stopped by --timeout, 130 when stopped by Ctrl-C (SIGINT),
// 143 by SIGTERM and 129 by SIGHUP (a sweep with -o keeps its finished
// points to resume; nothing is half-written).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"golang.org/x/term"

	"github.com/netsched/netsched/internal/budget"
	_ "github.com/netsched/netsched/policies/all" // register every policy
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

const usage = `netsched — a discrete-event simulator for scheduling research

Usage:
  netsched <command> [flags] [args]

Commands:
  run SCENARIO       run every policy of a scenario, replay and verify each schedule
  sweep SCENARIO     run the policies over a grid of parameter values (--set, --jobs, --shard)
  merge              join the shard files of a sweep (-o OUT.csv SHARD.csv...)
  plot CSV           plot a metric of a sweep against a parameter, a line per policy
  verify SCHEDULE    replay a schedule JSON against a scenario's platform (-s SCENARIO)
  gantt SCENARIO     draw the Gantt chart of one policy's schedule (-p POLICY -o FILE)
  list               list policies and bundled scenarios
  doc                print the scenario reference (fields, policies, options) as Markdown
  reproduce [PAPER]  run the papers' experiments into results/ (tables, plots, results/README.md)
  replay-recorded FILE...  replay WfCommons instances' recorded executions, simulated vs recorded makespan
  flows FILE.json    replay timed flows on a shared network (max-min or CM02 sharing), CSV of their ends
  platform SCENARIO  print the platform lowered to links (--sharing), in the flow file format

SCENARIO is the name of a bundled scenario (see 'netsched list') or a path to a
YAML file. Run 'netsched <command> --help' for a command's flags.

Exit status: 0 on success; 1 when a policy fails or a schedule fails
verification (after every output is written); 2 on bad input, with nothing
written; 124 when stopped by --timeout, 130 by Ctrl-C, 143 by SIGTERM, 129 by
SIGHUP (nothing half-written; a sweep's journal is kept to resume).

Flags:
  -h, --help      show this help
      --version   print the version
`

// gcPercent is the garbage collector's target unless GOGC says otherwise:
// replays allocate a lot and live briefly, so trading memory for less
// collection lets a sweep's second core do real work (BenchmarkSweep).
const gcPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := notifyStop(context.Background())
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// command is one subcommand: it parses its own flags from args.
type command func(ctx context.Context, args []string, st streams) error

var commands = map[string]command{
	"run":             cmdRun,
	"sweep":           cmdSweep,
	"merge":           cmdMerge,
	"plot":            cmdPlot,
	"verify":          cmdVerify,
	"gantt":           cmdGantt,
	"list":            cmdList,
	"reproduce":       cmdReproduce,
	"replay-recorded": cmdReplayRecorded,
	"doc":             cmdDoc,
	"flows":           cmdFlows,
	"platform":        cmdPlatform,
}

// run dispatches and maps errors to exit codes.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "--version", "version":
		fmt.Fprintln(stdout, "netsched", version)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "netsched: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	err := cmd(ctx, args[1:], streams{out: stdout, err: stderr})
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	}
	fmt.Fprintln(stderr, "netsched:", err)
	if budget.IsExceeded(err) {
		fmt.Fprintln(stderr, "netsched:", budget.Explain())
	}
	var in *inputError
	if errors.As(err, &in) {
		return 2
	}
	var st *stoppedError
	if errors.As(err, &st) {
		return st.code
	}
	return 1
}

// streams are where a command writes: results to out, progress and
// diagnostics to err.
type streams struct {
	out, err io.Writer
}

// errIsTerminal reports whether err is an interactive terminal, where a
// progress bar belongs.
func (s streams) errIsTerminal() bool {
	f, ok := s.err.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// inputError marks bad input: flags, scenario or schedule files. It makes
// the exit status 2.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &inputError{err}
}

func badInputf(format string, args ...any) error { return badInput(fmt.Errorf(format, args...)) }

// errHelp is returned when a command printed its help on request.
var errHelp = errors.New("help requested")

package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/sim"
)

// newFlags makes a flag set whose parse errors and --help are reported the
// netsched way: the synopsis, what the command does (its line of the
// command list, usage), its flags when it has any, and its notes
// (helpNotes).
func newFlags(name, synopsis string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: netsched %s\n", synopsis)
		if about := commandAbout(name); about != "" {
			fmt.Fprintf(stdout, "\n%s.\n", strings.ToUpper(about[:1])+about[1:])
		}
		if fs.HasAvailableFlags() {
			fmt.Fprintf(stdout, "\nFlags:\n%s", fs.FlagUsages())
		}
		if notes := helpNotes(name); notes != "" {
			fmt.Fprintf(stdout, "\n%s", notes)
		}
	}
	return fs
}

// commandAbout returns what a command does, from its line in the list of
// commands of usage ("  run SCENARIO       run every policy ..."), or "".
func commandAbout(name string) string {
	for line := range strings.Lines(usage) {
		rest, ok := strings.CutPrefix(line, "  "+name+" ")
		if !ok {
			continue
		}
		if _, about, ok := strings.Cut(strings.TrimSpace(rest), "  "); ok {
			return strings.TrimSpace(about)
		}
		return strings.TrimSpace(rest) // the name and its description alone
	}
	return ""
}

// exitRun, exitSweep and exitMerge say what the exit status of run, sweep
// and merge means (docs/sweeps.md, "Exit status").
const (
	exitRun = `Exit status:
  0    every schedule verified
  1    a policy failed or a schedule failed verification; every output is written
  2    bad input (flags, scenario): nothing written
  124  stopped by --timeout (130: by Ctrl-C, 143: by SIGTERM, 129: by SIGHUP):
       nothing written
`
	exitSweep = `Exit status:
  0    every run verified
  1    some runs failed (an error, or a schedule not verified): every output is
       written first, then one line on stderr counts them, such as
       "3 of 1,000 runs failed: see the error column"
  2    bad input (flags, scenario, --set, an -o path that cannot be written or
       belongs to another sweep): nothing written
  124  stopped by --timeout (130: by Ctrl-C, 143: by SIGTERM, 129: by SIGHUP):
       with -o, finished points are kept in OUT.csv.partial (for -o OUT.csv);
       rerunning the same command resumes
`
	exitMerge = `Exit status:
  0    every run of the merged shards verified
  1    some runs failed (an error, or a schedule not verified): OUT.csv is
       written first, then one line on stderr counts them, as sweep's does
  2    bad input (flags, a shard missing, repeated or from another sweep, an
       -o path that cannot be written): nothing written
`
)

// helpNotes returns what --help prints after a command's flags.
func helpNotes(name string) string {
	switch name {
	case "run":
		return exitRun
	case "sweep":
		return exitSweep
	case "merge":
		return exitMerge
	case "reproduce":
		return readingsHelp()
	}
	return ""
}

// parse parses args, wrapping errors as bad input; on -h, pflag has
// printed the help (fs.Usage) and parse returns errHelp.
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return errHelp
		}
		var bad *pflag.InvalidValueError
		if errors.As(err, &bad) {
			return badInputf("%s: --%s: %s", fs.Name(), bad.GetFlag().Name, wantValue(bad.GetFlag().Value.Type(), bad.GetValue()))
		}
		return badInputf("%s: %w", fs.Name(), err)
	}
	return nil
}

// wantValue says what a flag of a pflag type wants, given the value it
// refused: "want a whole number, got 2.5" rather than strconv's "parsing
// \"2.5\": invalid syntax".
func wantValue(typ, value string) string {
	switch typ {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		x, err := strconv.ParseFloat(value, 64)
		switch {
		case err != nil || math.IsInf(x, 0) || math.IsNaN(x) || x != math.Trunc(x):
			return fmt.Sprintf("want a whole number, got %s", value)
		case strings.HasPrefix(typ, "uint") && x < 0:
			return fmt.Sprintf("want a whole number >= 0, got %s", value)
		case math.Abs(x) >= 1<<63:
			return fmt.Sprintf("want a whole number below 2^63, got %s", value)
		}
		return fmt.Sprintf("want a whole number in digits, such as %.0f, got %s", x, value)
	case "float32", "float64":
		return fmt.Sprintf("want a number, got %s", value)
	case "duration":
		return fmt.Sprintf("want a duration such as 90s, 5m or 1h30m, got %s", value)
	case "bool":
		return fmt.Sprintf("want true or false, got %s", value)
	}
	return fmt.Sprintf("invalid value %q", value)
}

// parseMode reads a --mode value.
func parseMode(s string) (sim.Mode, error) {
	switch s {
	case "timed":
		return sim.Timed, nil
	case "ordered":
		return sim.Ordered, nil
	}
	return 0, badInputf("--mode: want timed or ordered, got %q", s)
}

// parseFormat reads a --format value.
func parseFormat(s string) (string, error) {
	switch s {
	case "table", "csv", "json":
		return s, nil
	}
	return "", badInputf("--format: want table, csv or json, got %q", s)
}

// sizeUsage documents a --size flag.
const sizeUsage = "figure size: WIDTHxHEIGHT with units (8.5cmx6cm, 8.5cm×6cm, 3.5inx2.5in) or one-column (8.5cm×6cm) or two-column (17.5cm×8cm); fonts sized to read in print"

// parseSize reads a --size value ("" for the default size).
func parseSize(s string) (plots.Size, error) {
	if s == "" {
		return plots.Size{}, nil
	}
	sz, err := plots.ParseSize(s)
	if err != nil {
		return sz, badInputf("--size: %w", err)
	}
	return sz, nil
}

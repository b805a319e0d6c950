package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/sim"
)

// newFlags makes a flag set whose parse errors and --help are reported the
// netsched way.
func newFlags(name, synopsis string, stdout io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: netsched %s\n\nFlags:\n%s", synopsis, fs.FlagUsages())
	}
	return fs
}

// parse parses args, wrapping errors as bad input; on -h, pflag has
// printed the help (fs.Usage) and parse returns errHelp.
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return errHelp
		}
		return badInputf("%s: %w", fs.Name(), err)
	}
	return nil
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

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/netsched/netsched/reproduce"
	_ "github.com/netsched/netsched/reproduce/all" // register every paper's reproduction
)

// cmdReproduce runs the papers' experiments through the reproduce
// registry.
func cmdReproduce(ctx context.Context, args []string, st streams) error {
	fs := newFlags("reproduce", "reproduce [PAPER...] [flags]   (PAPER: 000 … 004; default all)", st.out)
	root := fs.String("results", "results", "directory to write results/<paper>/ and results/README.md into")
	data := fs.String("data", "../shared/data", "directory of the shared data sets (stg/ for paper 002)")
	jobs := fs.IntP("jobs", "j", 2, "runs in parallel")
	nodes := fs.Int64("budget-nodes", 0, "node budget of each search the papers ran for hours (paper 004, Tables 1–4 with pruning off); 0: the paper's 500,000")
	budget := fs.Duration("budget", 0, "time budget of those searches as well, 0 for none (the tables then depend on the machine's speed)")
	reading := fs.String("reading", "", "run the paper's named reading of the points it leaves open instead of its default (listed below)")
	if err := parse(fs, args); err != nil {
		return err
	}
	chosen, err := choosePapers(fs.Args())
	if err != nil {
		return err
	}
	if *nodes < 0 || *budget < 0 {
		return badInputf("--budget-nodes and --budget: want 0 or more")
	}
	for _, p := range chosen { // before anything is written
		if err := p.CheckReading(*reading); err != nil {
			return badInputf("reproduce: --reading: %v", err)
		}
		if err := p.MissingData(*data); err != nil {
			return badInputf("reproduce: %v", err)
		}
	}
	opt := reproduce.Options{Data: *data, Jobs: max(*jobs, 1), Nodes: *nodes, Budget: *budget, Progress: st.err, Reading: *reading}
	for _, p := range chosen {
		if err := os.MkdirAll(*root, 0o755); err != nil {
			return err
		}
		fmt.Fprintf(st.err, "reproducing paper %s into %s\n", p.ID, filepath.Join(*root, p.Dir))
		if err := reproduce.Run(ctx, *root, p, opt); err != nil {
			if s := stopped(ctx, 0, "the papers reproduced before it are kept"); s != nil {
				return s // a signal: 130, 143 or 129
			}
			return err
		}
	}
	return reproduce.WriteIndex(*root)
}

// choosePapers looks up the papers named on the command line; none means
// every registered one.
func choosePapers(names []string) ([]reproduce.Paper, error) {
	if len(names) == 0 {
		return reproduce.Papers(), nil
	}
	var out []reproduce.Paper
	for _, name := range names {
		p, ok := reproduce.Lookup(name)
		if !ok {
			var known []string
			for _, q := range reproduce.Papers() {
				known = append(known, q.ID+" ("+q.Dir+")")
			}
			return nil, badInputf("reproduce: no reproduction of paper %q (have %s)", name, strings.Join(known, ", "))
		}
		out = append(out, p)
	}
	return out, nil
}

// readingsHelp lists, for reproduce --help, each paper's named readings.
func readingsHelp() string {
	var b strings.Builder
	for _, p := range reproduce.Papers() {
		if len(p.Readings) == 0 {
			continue
		}
		fmt.Fprintf(&b, "Readings of paper %s (--reading NAME, with the paper named; the first is the default):\n", p.ID)
		for _, r := range p.Readings {
			fmt.Fprintf(&b, "  %-22s %s\n", r.Name, r.What)
		}
	}
	return b.String()
}

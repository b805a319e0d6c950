package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sweep"
)

// reproduction runs one paper's experiments into its results directory.
type reproduction struct {
	paper string // the paper's number, 000 … 004
	dir   string // under results/
	title string
	run   func(ctx context.Context, r *reproducer) error
}

// reproductions, in paper order; the papers' packages add theirs here.
var reproductions = []reproduction{
	{"000", "mmdl", "Suda: MMDL on a crossbar cluster", reproduceMMDL},
	{"001", "multicluster", "Suda: MMDL on two-level multi-clusters with relays", reproduceMultiCluster},
	{"002", "clustering", "Noguchi, Ooshita, Masuzawa: clustering under large communication delay", reproduceClustering},
	{"003", "loadbalance", "Dynamic load balancing by Power exchange on a workstation cluster", reproduceLoadBalance},
	{"004", "broadcast", "Hourai, Nishida, Oyanagi: optimal broadcast on tree networks", reproduceBroadcast},
}

// reproducer holds what one paper's reproduction writes: files under dir,
// and a section for results/README.md.
type reproducer struct {
	dir    string
	jobs   int
	data   string        // the shared data directory (STG sets)
	budget time.Duration // per search where a paper's search ran for hours
	readme strings.Builder
	files  []string
}

// path is a file of the reproduction, recorded for the summary.
func (r *reproducer) path(name string) string {
	r.files = append(r.files, name)
	return filepath.Join(r.dir, name)
}

// write writes a file of the reproduction atomically.
func (r *reproducer) write(name string, render func(io.Writer) error) error {
	od := &outputDir{dir: r.dir}
	od.addBytes(name, render)
	r.files = append(r.files, name)
	return od.commit()
}

// note adds Markdown to the paper's section of results/README.md.
func (r *reproducer) note(format string, args ...any) { fmt.Fprintf(&r.readme, format, args...) }

// sweepScenario runs a bundled scenario's own sweep into NAME.csv.
func (r *reproducer) sweepScenario(ctx context.Context, name string) (*sweep.Table, error) {
	sc, err := scenarios.Load(name)
	if err != nil {
		return nil, err
	}
	plan, err := sweep.NewPlan(sc, nil, max(sc.Seeds, 1), 1, 0)
	if err != nil {
		return nil, err
	}
	out := r.path(name + ".csv")
	os.Remove(out) // a reproduction always recomputes
	os.Remove(sweep.ManifestPath(out))
	return sweep.Run(ctx, plan, sweep.Options{Jobs: r.jobs, Out: out})
}

// cmdReproduce runs the papers' experiments.
func cmdReproduce(ctx context.Context, args []string, st streams) error {
	fs := newFlags("reproduce", "reproduce [PAPER...] [flags]   (PAPER: 000 … 004; default all)", st.out)
	root := fs.String("results", "results", "directory to write results/<paper>/ and results/README.md into")
	data := fs.String("data", "../shared/data", "directory holding the shared data sets (stg/)")
	jobs := fs.IntP("jobs", "j", 2, "runs in parallel")
	budget := fs.Duration("budget", 5*time.Second, "time budget of each search the papers ran for hours (paper 004, Tables 1–4 with pruning off)")
	if err := parse(fs, args); err != nil {
		return err
	}
	chosen, err := chooseReproductions(fs.Args())
	if err != nil {
		return err
	}
	for _, rp := range chosen {
		r := &reproducer{dir: filepath.Join(*root, rp.dir), jobs: max(*jobs, 1), data: *data, budget: *budget}
		if err := os.MkdirAll(r.dir, 0o755); err != nil {
			return err
		}
		fmt.Fprintf(st.err, "reproducing paper %s into %s\n", rp.paper, r.dir)
		if err := rp.run(ctx, r); err != nil {
			return fmt.Errorf("paper %s: %w", rp.paper, err)
		}
		if err := writeSection(r, rp); err != nil {
			return err
		}
	}
	return writeResultsReadme(*root)
}

func chooseReproductions(papers []string) ([]reproduction, error) {
	if len(papers) == 0 {
		return reproductions, nil
	}
	var out []reproduction
	for _, p := range papers {
		i := slices.IndexFunc(reproductions, func(r reproduction) bool { return r.paper == p || r.dir == p })
		if i < 0 {
			var known []string
			for _, r := range reproductions {
				known = append(known, r.paper+" ("+r.dir+")")
			}
			return nil, badInputf("reproduce: no reproduction of paper %q (have %s)", p, strings.Join(known, ", "))
		}
		out = append(out, reproductions[i])
	}
	return out, nil
}

// writeSection writes results/<dir>/SUMMARY.md, the paper's section of
// results/README.md.
func writeSection(r *reproducer, rp reproduction) error {
	sort.Strings(r.files)
	return r.write("SUMMARY.md", func(w io.Writer) error {
		fmt.Fprintf(w, "## Paper %s — %s\n\n`netsched reproduce %s` writes `results/%s/`.\n\n%s\nFiles: ",
			rp.paper, rp.title, rp.paper, rp.dir, r.readme.String())
		for i, f := range r.files {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "[%s](%s/%s)", f, rp.dir, f)
		}
		_, err := fmt.Fprintln(w)
		return err
	})
}

// writeResultsReadme joins every paper's SUMMARY.md into results/README.md.
func writeResultsReadme(root string) error {
	var b strings.Builder
	b.WriteString("# Results\n\nWhat `netsched reproduce` found, paper by paper, beside the papers' own tables.\n" +
		"Each section is `results/<paper>/SUMMARY.md`; rerun `netsched reproduce PAPER` to refresh one.\n" +
		"Performance figures are in [benchmarks.md](benchmarks.md).\n\n")
	for _, rp := range reproductions {
		s, err := os.ReadFile(filepath.Join(root, rp.dir, "SUMMARY.md"))
		if err != nil {
			fmt.Fprintf(&b, "## Paper %s — %s\n\nNot reproduced yet: run `netsched reproduce %s`.\n\n", rp.paper, rp.title, rp.paper)
			continue
		}
		b.Write(s)
		b.WriteString("\n")
	}
	od := &outputDir{dir: root}
	od.addBytes("README.md", func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
	return od.commit()
}

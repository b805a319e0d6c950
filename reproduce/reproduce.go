// Package reproduce is the registry of the papers' reproductions: each
// paper's package registers, in init, a Paper that runs the paper's
// experiments and writes its tables and figures into the paper's result
// folder, the way policy packages register their policies (package
// reproduce/all imports every paper). Run runs one into results/<dir>/ and
// writes the paper's section, SUMMARY.md; WriteIndex joins the sections
// into results/README.md.
package reproduce

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Options say how a reproduction runs.
type Options struct {
	// Data is the directory of the shared data sets (stg/).
	Data string
	// Jobs is the number of runs in parallel; below 1 means 1.
	Jobs int
	// Nodes is the node budget of each search that a paper ran for hours
	// (paper 004, Tables 1–4 with pruning off); 0 leaves it to the paper
	// (500,000 nodes). A node budget gives the same tables on any machine.
	Nodes int64
	// Budget is a time budget on top of Nodes for those searches; 0 sets
	// none. A cell it cuts depends on the machine's speed.
	Budget time.Duration
	// Progress, if set, receives a line after ProgressAfter and then every
	// ProgressEvery saying what a paper that runs that long is doing (the
	// CLI gives stderr).
	Progress io.Writer
	// Quick asks for a reduced setting, for smoke tests: fewer seeds,
	// graphs and sizes where a paper's experiments take more than a
	// second. Its tables are not the paper's.
	Quick bool
	// Reading names one of the paper's Readings to run instead of its
	// default; "" is the default.
	Reading string
}

// Paper is one paper's reproduction.
type Paper struct {
	ID    string // the paper's number: "000" … "004"
	Dir   string // its result folder under results/: "mmdl", …
	Title string // authors and subject, for its section
	// Data are the shared data sets it reads under Options.Data.
	Data []DataSet
	// Run runs the experiments, writing their files and notes to out.
	Run func(ctx context.Context, out *Output, opt Options) error
	// Others are results in its folder that other commands write (an
	// ablation run by go test, say), listed under "Other results" of
	// results/README.md when they are there.
	Others []Other
	// Readings are the named readings of the paper's open points that Run
	// accepts as Options.Reading, the default first.
	Readings []Reading
}

// Reading is a named reading of the points a paper leaves open: the
// settings of its algorithms that Run uses instead of the default.
type Reading struct {
	Name string // its name, as given to --reading
	What string // what it changes from the default
}

// CheckReading checks that p has the reading name ("" is the default);
// its error lists the readings p has.
func (p Paper) CheckReading(name string) error {
	if name == "" || slices.ContainsFunc(p.Readings, func(r Reading) bool { return r.Name == name }) {
		return nil
	}
	if len(p.Readings) == 0 {
		return fmt.Errorf("paper %s has no named readings, so no reading %q", p.ID, name)
	}
	names := make([]string, len(p.Readings))
	for i, r := range p.Readings {
		names[i] = r.Name
	}
	return fmt.Errorf("paper %s has no reading %q; its readings are %s", p.ID, name, strings.Join(names, ", "))
}

// Other is a result file that a paper's Run does not write, in the
// paper's folder.
type Other struct {
	File  string // its path in the paper's folder: "ablation.md"
	Title string // what it holds, and the command that writes it
}

// DataSet is a directory of shared data a paper reads, under the data
// directory (Options.Data, by default ../shared/data).
type DataSet struct {
	Dir   string // its directory under the data directory: "stg"
	What  string // what it holds and how it is laid out
	Where string // where to get it
}

// ProgressAfter is how long a paper runs before its progress is printed,
// and ProgressEvery how often it is printed from then on.
const (
	ProgressAfter = 2 * time.Second
	ProgressEvery = 5 * time.Second
)

// MissingData checks that every data set p reads is under dir: a
// directory that is not empty. Its error names what is missing, where it
// goes and where to get it.
func (p Paper) MissingData(dir string) error {
	var missing []string
	for _, d := range p.Data {
		path := filepath.Join(dir, d.Dir)
		entries, err := os.ReadDir(path)
		if err == nil && len(entries) > 0 {
			continue
		}
		missing = append(missing, fmt.Sprintf("%s: %s, expected in %s (get it from %s)", d.Dir, d.What, path, d.Where))
	}
	if missing == nil {
		return nil
	}
	return fmt.Errorf("paper %s needs data that is missing; put it there or give --data DIR:\n  %s",
		p.ID, strings.Join(missing, "\n  "))
}

// registry is filled by init functions only and read afterwards; the
// mutex makes a late Register safe.
var registry = struct {
	sync.RWMutex
	byID map[string]Paper
}{byID: map[string]Paper{}}

// Register adds a paper's reproduction. It panics on an empty or
// duplicate ID or folder, or a missing Run: a programming error caught by
// any test that imports the package.
func Register(p Paper) {
	registry.Lock()
	defer registry.Unlock()
	if p.ID == "" || p.Dir == "" || p.Run == nil {
		panic("reproduce: Register needs an ID, a folder and a Run")
	}
	for _, q := range registry.byID {
		if q.ID == p.ID || q.Dir == p.Dir {
			panic("reproduce: paper " + p.ID + " (" + p.Dir + ") registered twice")
		}
	}
	registry.byID[p.ID] = p
}

// Papers lists the registered reproductions in paper order.
func Papers() []Paper {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Paper, 0, len(registry.byID))
	for _, p := range registry.byID {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup finds a reproduction by paper number ("002") or result folder
// ("clustering").
func Lookup(name string) (Paper, bool) {
	for _, p := range Papers() {
		if p.ID == name || p.Dir == name {
			return p, true
		}
	}
	return Paper{}, false
}

// Run runs p into root/p.Dir, which it creates, and writes the paper's
// section of results/README.md there as SUMMARY.md.
func Run(ctx context.Context, root string, p Paper, opt Options) error {
	if err := p.MissingData(opt.Data); err != nil {
		return err
	}
	if err := p.CheckReading(opt.Reading); err != nil {
		return err
	}
	out := &Output{dir: filepath.Join(root, p.Dir), jobs: max(opt.Jobs, 1)}
	if err := os.MkdirAll(out.dir, 0o755); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	if opt.Progress != nil {
		stop := out.printProgress(p, opt.Progress)
		defer stop()
	}
	if err := p.Run(ctx, out, opt); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	if err := out.pruneTables(); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	if err := out.writeSummary(p); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	return nil
}

// pruneTables removes the files of tables/ that this run did not write
// (the tables of an earlier version), so the folder holds this run's.
func (o *Output) pruneTables() error {
	entries, err := os.ReadDir(filepath.Join(o.dir, "tables"))
	if err != nil {
		return nil // no tables
	}
	for _, e := range entries {
		stem := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".csv"), ".tex")
		if e.Type().IsRegular() && stem != e.Name() && !slices.Contains(o.tables, stem) {
			if err := os.Remove(filepath.Join(o.dir, "tables", e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// printProgress prints, after ProgressAfter and then every ProgressEvery
// until the returned stop is called, what the paper is doing (its latest
// Progressf) and for how long it has run. A paper done within
// ProgressAfter prints nothing.
func (o *Output) printProgress(p Paper, w io.Writer) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	t0 := time.Now()
	go func() {
		defer close(finished)
		wait := time.NewTimer(ProgressAfter)
		defer wait.Stop()
		for {
			select {
			case <-done:
				return
			case <-wait.C:
				wait.Reset(ProgressEvery)
				o.mu.Lock()
				status := o.status
				o.mu.Unlock()
				if status != "" {
					fmt.Fprintf(w, "paper %s, %.0f s: %s\n", p.ID, time.Since(t0).Seconds(), status)
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// writeSummary writes SUMMARY.md: the paper's notes and links to every
// file the run wrote, relative to the paper's folder.
func (o *Output) writeSummary(p Paper) error {
	sort.Strings(o.files)
	return writeFile(o.dir, "SUMMARY.md", func(w io.Writer) error {
		fmt.Fprintf(w, "## Paper %s — %s\n\n`netsched reproduce %s` writes this folder (`results/%s/` by default).\n\n%s\nFiles: ",
			p.ID, p.Title, p.ID, p.Dir, o.notes.String())
		for i, f := range o.files {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "[%s](%s)", f, f)
		}
		if len(o.tables) > 0 {
			fmt.Fprint(w, "; every table also as CSV and LaTeX (booktabs) in tables/, linked under it")
		}
		_, err := fmt.Fprintln(w, ".")
		return err
	})
}

// mdLink matches the target of a Markdown link or image.
var mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// Rebase rewrites the relative link targets of Markdown written in a
// folder dir so that they resolve from its parent: "tables.md" becomes
// "dir/tables.md". URLs, absolute paths and anchors stay.
func Rebase(md, dir string) string {
	return mdLink.ReplaceAllStringFunc(md, func(m string) string {
		target := m[2 : len(m)-1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "/") || strings.HasPrefix(target, "#") ||
			strings.HasPrefix(target, "mailto:") {
			return m
		}
		return "](" + path.Join(dir, target) + ")"
	})
}

// WriteIndex joins every registered paper's SUMMARY.md under root into
// root/README.md, with a placeholder for a paper not reproduced yet,
// after a list of the other results under root (writeOthers). It reads
// only what is under root, so it rebuilds the README from the committed
// SUMMARY.md files without running a paper.
func WriteIndex(root string) error {
	var b strings.Builder
	b.WriteString("# Results\n\nWhat `netsched reproduce` found, paper by paper, beside the papers' own tables.\n" +
		"Each section is `<paper>/SUMMARY.md`; rerun `netsched reproduce PAPER` to refresh one.\n")
	if _, err := os.Stat(filepath.Join(root, "benchmarks.md")); err == nil {
		b.WriteString("Performance figures are in [benchmarks.md](benchmarks.md).\n")
	}
	b.WriteString("\n")
	if err := writeOthers(&b, root); err != nil {
		return err
	}
	for _, p := range Papers() {
		s, err := os.ReadFile(filepath.Join(root, p.Dir, "SUMMARY.md"))
		if err != nil {
			fmt.Fprintf(&b, "## Paper %s — %s\n\nNot reproduced yet: run `netsched reproduce %s`.\n\n", p.ID, p.Title, p.ID)
			continue
		}
		b.WriteString(Rebase(string(s), p.Dir))
		b.WriteString("\n")
	}
	return writeFile(root, "README.md", func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
}

// writeOthers writes the "Other results" list of the index: each folder of
// root that is no paper's and holds a README.md, titled by its first
// heading, then each paper's Others; only those that exist, linked
// relative to root. It writes nothing when there are none.
func writeOthers(b *strings.Builder, root string) error {
	papers := Papers()
	var items []string
	entries, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("results index: %w", err)
	}
	for _, e := range entries { // sorted by name
		if !e.IsDir() || slices.ContainsFunc(papers, func(p Paper) bool { return p.Dir == e.Name() }) {
			continue
		}
		readme := path.Join(e.Name(), "README.md")
		text, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(readme)))
		if err != nil {
			continue // no README: not a result to list
		}
		items = append(items, fmt.Sprintf("[%s/](%s): %s", e.Name(), readme, cmp.Or(firstHeading(string(text)), e.Name())))
	}
	for _, p := range papers {
		for _, o := range p.Others {
			file := path.Join(p.Dir, o.File)
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(file))); err != nil {
				continue
			}
			items = append(items, fmt.Sprintf("[%s](%s): %s", file, file, o.Title))
		}
	}
	if len(items) == 0 {
		return nil
	}
	b.WriteString("## Other results\n\n")
	for _, it := range items {
		b.WriteString("- " + it + "\n")
	}
	b.WriteString("\n")
	return nil
}

// firstHeading returns the text of the first level-1 Markdown heading of
// md ("# Title"), outside fenced code, or "" if it has none.
func firstHeading(md string) string {
	fenced := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if title, ok := strings.CutPrefix(line, "# "); ok && !fenced {
			return strings.TrimSpace(title)
		}
	}
	return ""
}

// Package reproduce is the registry of the papers' reproductions: each
// paper's package registers, in init, a Paper that runs the paper's
// experiments and writes its tables and figures into the paper's result
// folder, the way policy packages register their policies (package
// reproduce/all imports every paper). Run runs one into results/<dir>/ and
// writes the paper's section, SUMMARY.md; WriteIndex joins the sections
// into results/README.md.
package reproduce

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	// Quick asks for a reduced setting, for smoke tests: fewer seeds,
	// graphs and sizes where a paper's experiments take more than a
	// second. Its tables are not the paper's.
	Quick bool
}

// Paper is one paper's reproduction.
type Paper struct {
	ID    string // the paper's number: "000" … "004"
	Dir   string // its result folder under results/: "mmdl", …
	Title string // authors and subject, for its section
	// Run runs the experiments, writing their files and notes to out.
	Run func(ctx context.Context, out *Output, opt Options) error
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
	out := &Output{dir: filepath.Join(root, p.Dir), jobs: max(opt.Jobs, 1)}
	if err := os.MkdirAll(out.dir, 0o755); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	if err := p.Run(ctx, out, opt); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	if err := out.writeSummary(p); err != nil {
		return fmt.Errorf("paper %s: %w", p.ID, err)
	}
	return nil
}

// writeSummary writes SUMMARY.md: the paper's notes and links to every
// file the run wrote.
func (o *Output) writeSummary(p Paper) error {
	sort.Strings(o.files)
	return o.Write("SUMMARY.md", func(w io.Writer) error {
		fmt.Fprintf(w, "## Paper %s — %s\n\n`netsched reproduce %s` writes `results/%s/`.\n\n%s\nFiles: ",
			p.ID, p.Title, p.ID, p.Dir, o.notes.String())
		for i, f := range o.files {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "[%s](%s/%s)", f, p.Dir, f)
		}
		_, err := fmt.Fprintln(w)
		return err
	})
}

// WriteIndex joins every registered paper's SUMMARY.md under root into
// root/README.md, with a placeholder for a paper not reproduced yet.
func WriteIndex(root string) error {
	var b strings.Builder
	b.WriteString("# Results\n\nWhat `netsched reproduce` found, paper by paper, beside the papers' own tables.\n" +
		"Each section is `results/<paper>/SUMMARY.md`; rerun `netsched reproduce PAPER` to refresh one.\n" +
		"Performance figures are in [benchmarks.md](benchmarks.md).\n\n")
	for _, p := range Papers() {
		s, err := os.ReadFile(filepath.Join(root, p.Dir, "SUMMARY.md"))
		if err != nil {
			fmt.Fprintf(&b, "## Paper %s — %s\n\nNot reproduced yet: run `netsched reproduce %s`.\n\n", p.ID, p.Title, p.ID)
			continue
		}
		b.Write(s)
		b.WriteString("\n")
	}
	return writeFile(root, "README.md", func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
}

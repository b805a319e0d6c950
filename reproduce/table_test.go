package reproduce

import (
	"context"
	"encoding/csv"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func sampleTable() *Table {
	return &Table{Name: "t1", Title: "Table 1: ρ against β", Note: "a mark: more than 5 % from the paper",
		Columns: []Column{{Name: "source"}, {Name: "ρ", Unit: "task times"}, {Name: "ratio"}, {Name: "run time", Unit: "ms", Clock: true}},
		Rows: [][]Cell{
			{Text("paper"), Fixed(1.5, 1), Fixed(0.899, 3), Empty()},
			{Text("ours (STG rand300)"), Fixed(1.5, 1), Fixed(0.94231, 3).Marked("!"), Sig(12.3456, 3)},
			{Text("a|b & c_d"), Fixed(math.NaN(), 1), Int(7), Bool(true)},
		}}
}

// TestTableFormats renders one table in the three formats: one value per
// CSV cell, exact, with units in the header; marks only where a reader
// sees them; LaTeX escaped and booktabs.
func TestTableFormats(t *testing.T) {
	tab := sampleTable()
	if err := tab.validate(); err != nil {
		t.Fatal(err)
	}
	var c strings.Builder
	if err := tab.WriteCSV(&c); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(c.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"source", "ρ (task times)", "ratio", "run time (ms, wall clock)"},
		{"paper", "1.5", "0.899", ""},
		{"ours (STG rand300)", "1.5", "0.94231", "12.3456"},
		{"a|b & c_d", "", "7", "yes"},
	}
	for i := range want {
		if strings.Join(recs[i], "\x00") != strings.Join(want[i], "\x00") {
			t.Errorf("CSV record %d = %q, want %q", i, recs[i], want[i])
		}
	}

	var m strings.Builder
	if err := tab.WriteMarkdown(&m); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"### Table 1: ρ against β\n\n", "| source | ρ (task times) | ratio | run time (ms, wall clock) |\n|---|---|---|---|\n",
		"| paper | 1.5 | 0.899 | |\n", "| ours (STG rand300) | 1.5 | 0.942 ! | 12.3 |\n", `| a\|b & c_d | | 7 | yes |`, "\na mark: more than 5 % from the paper\n"} {
		if !strings.Contains(m.String(), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, m.String())
		}
	}

	var x strings.Builder
	if err := tab.WriteLaTeX(&x); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"\\begin{tabular}{lrrl}\n\\toprule\n", `source & $\rho$ (task times) & ratio & run time (ms, wall clock) \\`,
		"\\midrule\n", `ours (STG rand300) & 1.5 & 0.942\,! & 12.3 \\`, `a\textbar{}b \& c\_d &  & 7 & yes \\`, "\\bottomrule\n\\end{tabular}\n",
		"% a mark: more than 5 % from the paper\n"} {
		if !strings.Contains(x.String(), s) {
			t.Errorf("LaTeX lacks %q:\n%s", s, x.String())
		}
	}

	bad := sampleTable()
	bad.Rows[1] = bad.Rows[1][:2]
	if bad.validate() == nil {
		t.Error("a short row is accepted")
	}
	bad.Name = "a b"
	if bad.validate() == nil {
		t.Error("a name with a space is accepted")
	}
}

func TestTeX(t *testing.T) {
	for in, want := range map[string]string{
		"2×4×(1+1)":       `2$\times$4$\times$(1+1)`,
		"Σ|ours − paper|": `$\Sigma$\textbar{}ours $-$ paper\textbar{}`,
		"100 % & $5_#":    `100 \% \& \$5\_\#`,
		"β → ρ — ≤ 3":     `$\beta$ $\to$ $\rho$ --- $\le$ 3`,
	} {
		if got := TeX(in); got != want {
			t.Errorf("TeX(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRebase(t *testing.T) {
	in := "see [tables.md](tables.md), [CSV](tables/t1.csv), ![g](g.png), [web](https://x.org/a), [top](#results), [up](../README.md)"
	want := "see [tables.md](mmdl/tables.md), [CSV](mmdl/tables/t1.csv), ![g](mmdl/g.png), [web](https://x.org/a), [top](#results), [up](README.md)"
	if got := Rebase(in, "mmdl"); got != want {
		t.Errorf("Rebase:\n got %s\nwant %s", got, want)
	}
}

func TestMissingData(t *testing.T) {
	dir := t.TempDir()
	p := Paper{ID: "999", Dir: "x", Data: []DataSet{{Dir: "stg", What: "the STG sets", Where: "https://example.org"}}}
	err := p.MissingData(dir)
	if err == nil {
		t.Fatal("no error for a missing data set")
	}
	for _, s := range []string{"paper 999", "stg: the STG sets", filepath.Join(dir, "stg"), "https://example.org", "--data"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q lacks %q", err, s)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "stg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p.MissingData(dir) == nil {
		t.Error("an empty data folder is accepted")
	}
	if err := os.WriteFile(filepath.Join(dir, "stg", "a.stg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := p.MissingData(dir); err != nil {
		t.Error(err)
	}
	// Run refuses before writing anything.
	root := t.TempDir()
	p.Run = func(context.Context, *Output, Options) error { t.Error("ran without its data"); return nil }
	if Run(context.Background(), root, p, Options{Data: filepath.Join(dir, "none")}) == nil {
		t.Error("Run without data: no error")
	}
	if entries, _ := os.ReadDir(root); len(entries) > 0 {
		t.Errorf("Run without data wrote %d entries", len(entries))
	}
}

// TestSummaryLinks runs a paper into two folders, with and without a
// benchmarks.md beside it: every link of SUMMARY.md resolves from the
// paper's folder and every link of README.md from the root.
func TestSummaryLinks(t *testing.T) {
	p := Paper{ID: "998", Dir: "demo", Title: "a demo", Run: func(_ context.Context, out *Output, _ Options) error {
		md, err := out.Document("tables.md", "intro\n\n", sampleTable())
		if err != nil {
			return err
		}
		if err := out.Write("data.txt", func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
			return err
		}
		out.Notef("See [tables.md](tables.md) and %s.\n\n%s", out.Ref("NOTES.md"), md)
		return nil
	}}
	Register(p)
	for _, bench := range []bool{false, true} {
		root := t.TempDir()
		if bench {
			os.WriteFile(filepath.Join(root, "benchmarks.md"), []byte("# b\n"), 0o644)
		}
		stale := filepath.Join(root, "demo", "tables", "old.csv") // a table an earlier version wrote
		os.MkdirAll(filepath.Dir(stale), 0o755)
		os.WriteFile(stale, []byte("x\n"), 0o644)
		if err := Run(context.Background(), root, p, Options{}); err != nil {
			t.Fatal(err)
		}
		if err := WriteIndex(root); err != nil {
			t.Fatal(err)
		}
		readme, _ := os.ReadFile(filepath.Join(root, "README.md"))
		if got := strings.Contains(string(readme), "(benchmarks.md)"); got != bench {
			t.Errorf("benchmarks.md present %v, linked %v", bench, got)
		}
		for _, md := range []string{filepath.Join(root, "README.md"), filepath.Join(root, "demo", "SUMMARY.md"), filepath.Join(root, "demo", "tables.md")} {
			text, err := os.ReadFile(md)
			if err != nil {
				t.Fatal(err)
			}
			links := mdLink.FindAllStringSubmatch(string(text), -1)
			if len(links) < 2 {
				t.Errorf("%s: only %d links", md, len(links))
			}
			for _, l := range links {
				if _, err := os.Stat(filepath.Join(filepath.Dir(md), l[1])); err != nil {
					t.Errorf("%s links %s, which is not there", md, l[1])
				}
			}
		}
		for _, f := range []string{"tables/t1.csv", "tables/t1.tex", "data.txt"} {
			if _, err := os.Stat(filepath.Join(root, "demo", f)); err != nil {
				t.Error(err)
			}
		}
		if _, err := os.Stat(stale); !os.IsNotExist(err) {
			t.Errorf("the stale table is still there (%v)", err)
		}
	}
}

// TestLaTeXCompiles compiles the sample table, marks, Greek letters and
// reserved characters included, with pdflatex and booktabs, when pdflatex
// is installed (texlive-latex-base and texlive-latex-recommended).
func TestLaTeXCompiles(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("no pdflatex")
	}
	dir := t.TempDir()
	var tex strings.Builder
	if err := sampleTable().WriteLaTeX(&tex); err != nil {
		t.Fatal(err)
	}
	doc := "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n\\begin{document}\n" + tex.String() + "\\end{document}\n"
	if err := os.WriteFile(filepath.Join(dir, "t.tex"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "t.tex")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, out)
	}
}

// syncBuffer is a strings.Builder safe for the progress printer; wrote
// is closed by its first write.
type syncBuffer struct {
	mu    sync.Mutex
	b     strings.Builder
	wrote chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{wrote: make(chan struct{})} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b.Len() == 0 {
		close(s.wrote)
	}
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgress: a paper that runs longer than ProgressAfter says what it
// does, and for how long it has run; one that ends sooner says nothing.
// The long paper runs until its first progress line is written, however
// late a loaded machine writes it.
func TestProgress(t *testing.T) {
	line := regexp.MustCompile(`^paper 997, (\d+) s: step 1 of 2\n`)
	for _, long := range []bool{false, true} {
		w := newSyncBuffer()
		p := Paper{ID: "997", Dir: "slow", Run: func(ctx context.Context, out *Output, _ Options) error {
			out.Progressf("step %d of %d", 1, 2)
			if long {
				<-w.wrote
			}
			return nil
		}}
		if err := Run(context.Background(), t.TempDir(), p, Options{Progress: w}); err != nil {
			t.Fatal(err)
		}
		got, secs := w.String(), -1
		if m := line.FindStringSubmatch(got); m != nil {
			secs, _ = strconv.Atoi(m[1])
		}
		if long && secs < int(ProgressAfter.Seconds()) || !long && got != "" {
			t.Errorf("long %v: progress %q", long, got)
		}
	}
}

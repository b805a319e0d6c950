package dot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/models"
)

// dotCases are DOT inputs the one-pass reader must read as Read does:
// the subset it reads itself (onePass) and constructs and errors it leaves
// to the full parser.
var dotCases = []struct {
	name, in string
	onePass  bool
}{
	{"defaults", `digraph g { a -> b -> c; a -> c [data=2]; d [weight=3] }`, true},
	{"other attributes", `digraph { a [label="A", shape=box, weight=2]; a -> b [color=red, weight=9, data=3] }`, true},
	{"quoted names", `digraph "x y" { "a b" -> "c\"d" [data="2.5"]; "a b" [weight="4"] }`, true},
	{"quoted and bare", `digraph { "a" -> a; a [weight=2] }`, true},
	{"numerals", `digraph { 1 -> 2.5 -> .7 [data=-0]; -3 -> 1 [data=1000.] }`, true},
	{"exponent", `digraph { a -> b [data=1e3] }`, false},
	{"comments", "// head\ndigraph {\n # line\n a /* b -> c */ -> d; // tail\n e\n}\n", true},
	{"repeated edge", `digraph { a -> b [data=1]; c -> a; a -> b [data=2]; a -> b }`, true}, // refused: not strict
	{"repeated node", `digraph { a [weight=1]; b -> a; a [weight=5, label=x] }`, true},
	{"attr lists", `digraph { a [weight=1][label=x; color=red,]; a -> b [][data=3] }`, true},
	{"no separators", "digraph {a b c a->b b->c}", true},
	{"empty", `digraph {}`, true},
	{"keywords cased", `DiGraph G { a }`, true},
	{"cycle", `digraph { a -> b -> a }`, true},
	{"ignored in node order", "digraph { a; b [color=red, weight=2]; a [label=x, shape=box]; b [label=y] }", true},
	{"ignored in edge order", `digraph { a -> b -> c [color=red, weight=3]; c -> d [style=dotted, color=blue, data=1] }`, true},
	{"ignored on both", `digraph { a [data=1, color=red]; a -> b [color=red, "pen width"=2] }`, true},
	{"repeated edge drops", `digraph { a -> b [color=red]; a -> b [data=2] }`, true}, // refused: not strict
	{"long cycle", `digraph { a -> b; b -> c; c -> d; d -> b }`, true},

	{"self-loop", `digraph { a -> a }`, false},
	{"undirected", `graph { a -- b }`, false},
	{"bad weight", `digraph { a [weight=x] }`, false},
	{"negative weight", `digraph { a [weight=-1] }`, false},
	{"bad data", `digraph { a -> b [data=no] }`, false},
	{"inf weight", `digraph { a [weight=inf] }`, false},
	{"syntax", `digraph { a -> }`, false},
	{"misspelt weight", "digraph {\n  a [label=x];\n  b [wieght=2]\n}", false},
	{"misspelt data", "digraph {\n a -> b [dat=1, color=red]\n}", false},
	{"misspelt earlier node", "digraph {\n a;\n b [wieght=2];\n a [wiegth=3]\n}", false},
	{"subgraph", `digraph { subgraph s { a -> b } b -> c }`, false},
	{"edge to subgraph", `digraph { a -> {b c} [data=2] }`, false},
	{"node defaults", `digraph { node [weight=2]; a -> b }`, false},
	{"graph attribute", `digraph { rankdir=LR; a -> b }`, false},
	{"strict", `strict digraph { a -> b; a -> b }`, true},
	{"strict merges", `Strict digraph g { a -> b [data=3]; b -> c; a -> b -> c [data=2]; a -> b }`, true},
	{"strict drops", `STRICT digraph { a -> b [color=red]; a -> b [data=2] }`, false},
	{"strict graph", `strict graph { a -- b }`, false},
	{"strict quoted", `"strict" digraph { a }`, false},
	{"strict twice", `strict strict digraph { a }`, false},
	{"strict alone", `strict`, false},
	{"port", `digraph { a:p -> b }`, false},
	{"html", `digraph { a [label=<b>x</b>]; a -> b }`, false},
	{"concatenation", `digraph { "a" + "b" -> c }`, false},
	{"two graphs", `digraph { a } digraph { b }`, false},
	{"unicode", `digraph { é -> b }`, false},
	{"nothing", ``, false},
	{"comment at end", "digraph { a } // end", false},
}

// TestReadDOTWithinMatchesReadDOT compares the one-pass reader with
// gonum's parser (Read, the oracle): the same graph, task for task and
// edge for edge in the same order, or the same error, on the cases above,
// every DOT file of the repository and random graphs in many spellings.
func TestReadDOTWithinMatchesReadDOT(t *testing.T) {
	for _, c := range dotCases {
		t.Run(c.name, func(t *testing.T) {
			compareDOTReaders(t, c.in)
			_, err := scanDOT(strings.NewReader(c.in))
			// (the warning is compared by compareDOTReaders)
			var full *dotNeedsFull
			if errors.As(err, &full) == c.onePass {
				t.Errorf("one pass: %v, want it to read this itself: %v", err, c.onePass)
			}
		})
	}
	files := 0
	err := filepath.WalkDir("../..", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() && e.Name() == ".git" {
			return err
		}
		if !e.IsDir() && filepath.Ext(path) == ".dot" {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			t.Run(path, func(t *testing.T) { compareDOTReaders(t, string(data)) })
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Fatalf("walking the repository: %v, %d DOT files", err, files)
	}
	n := 400
	if testing.Short() {
		n = 40
	}
	merged := 0 // strict graphs with repeated edges read in one pass
	for seed := range uint64(n) {
		g := randomDOTGraph(seed)
		var buf bytes.Buffer
		if err := Write(&buf, g, "g"); err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("WriteDOT seed %d", seed), func(t *testing.T) { compareDOTReaders(t, buf.String()) })
		in := spellDOT(g, seed)
		t.Run(fmt.Sprintf("spelt seed %d", seed), func(t *testing.T) { compareDOTReaders(t, in) })
		// A strict graph merges its repeated edges (one in eight, with
		// other data) as the full parser does; on odd seeds without the
		// edges' ignored attributes, which repeated edges leave to it.
		strict := "strict " + in
		if seed%2 == 1 {
			strict = strings.ReplaceAll(strict, ", weight=2", "")
		}
		t.Run(fmt.Sprintf("strict seed %d", seed), func(t *testing.T) { compareDOTReaders(t, strict) })
		if d, err := scanDOT(strings.NewReader(strict)); err == nil && len(d.g.Edges) < strings.Count(strict, "->") {
			merged++
		}
	}
	if merged < n/20 {
		t.Errorf("%d of %d random strict graphs merged repeated edges in one pass, want the one pass tested on them", merged, n)
	}
}

// compareDOTReaders reads in with both readers and fails when they differ.
func compareDOTReaders(t *testing.T, in string) {
	t.Helper()
	want, wantWarning, wantErr := ReadWarn(strings.NewReader(in), "x.dot")
	got, gotWarning, gotErr := ReadWithin(strings.NewReader(in), "x.dot", 0)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error %v, want %v\n%s", gotErr, wantErr, in)
	}
	if gotWarning != wantWarning {
		t.Errorf("warning %q, want %q\n%s", gotWarning, wantWarning, in)
	}
	if wantErr != nil {
		var pe *models.ParseError
		if !errors.As(gotErr, &pe) || pe.File != "x.dot" {
			t.Errorf("got %T %v, want a *ParseError naming x.dot", gotErr, gotErr)
		}
		return
	}
	for _, g := range []*models.DAG{want, got} {
		if len(g.Tasks) == 0 {
			g.Tasks = nil
		}
		if len(g.Edges) == 0 {
			g.Edges = nil
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v\n%s", got, want, in)
	}
}

// randomDOTGraph draws a small DAG (a cycle in one seed of seven) with
// weights and data sizes, some of them zero.
func randomDOTGraph(seed uint64) *models.DAG {
	rng := rand.New(rand.NewPCG(seed, 7))
	n := 1 + rng.IntN(12)
	g := &models.DAG{Tasks: make([]models.Task, n)}
	for i := range g.Tasks {
		g.Tasks[i] = models.Task{Name: fmt.Sprintf("t%d", i), Weight: float64(rng.IntN(5)) / 2}
	}
	for range rng.IntN(2 * n) {
		u, v := rng.IntN(n), rng.IntN(n)
		if u == v {
			continue
		}
		if u > v && seed%7 != 3 {
			u, v = v, u
		}
		g.Edges = append(g.Edges, models.DAGEdge{From: u, To: v, Data: float64(rng.IntN(4))})
	}
	return g
}

// spellDOT writes g in one of many DOT spellings the seed picks: quoted
// or bare names, nodes declared or implied, chains, repeated edges and
// nodes, ignored attributes, comments and separators; one seed in five
// adds a construct or a mistake the full parser has to deal with.
func spellDOT(g *models.DAG, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 11))
	var b strings.Builder
	name := func(i int) string {
		if rng.IntN(3) == 0 {
			return strconv.Quote(g.Tasks[i].Name)
		}
		return g.Tasks[i].Name
	}
	sep := func() string {
		return [...]string{" ", "; ", "\n", " ;\n", " /* c */ ", " // c\n", "\n# c\n"}[rng.IntN(7)]
	}
	b.WriteString([...]string{"digraph {", "digraph g {\n", "DIGRAPH \"g h\" {"}[rng.IntN(3)])
	for i, task := range g.Tasks {
		if task.Weight == 1 && rng.IntN(2) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s [weight=%s", name(i), formatFloat(task.Weight))
		if rng.IntN(3) == 0 {
			b.WriteString(`, label="x y"][color=red`)
		}
		b.WriteString("]" + sep())
	}
	for k := 0; k < len(g.Edges); k++ {
		e := g.Edges[k]
		if k+1 < len(g.Edges) && g.Edges[k+1].From == e.To && g.Edges[k+1].Data == e.Data && rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "%s -> %s -> %s", name(e.From), name(e.To), name(g.Edges[k+1].To))
			k++
		} else {
			fmt.Fprintf(&b, "%s->%s", name(e.From), name(e.To))
		}
		if e.Data != 0 || rng.IntN(4) == 0 {
			fmt.Fprintf(&b, " [data=%s, weight=2]", formatFloat(e.Data))
		}
		b.WriteString(sep())
		if rng.IntN(8) == 0 { // a repeated edge, with other data
			fmt.Fprintf(&b, "%s -> %s [data=%d]%s", name(e.From), name(e.To), rng.IntN(3), sep())
		}
	}
	for i := range g.Tasks {
		b.WriteString(name(i) + sep()) // every task, in case no statement named it
	}
	if seed%5 == 4 {
		b.WriteString([...]string{"node [shape=box]", "subgraph s { z -> t0 }", "t0 [wieght=2]",
			"t0 -> t0", "t0 [weight=-2]", "rankdir=LR", "t0 -> ", "t0:n -> z"}[rng.IntN(8)] + "\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// TestReadDOTWithinBudget refuses the full parser when the file would not
// fit the budget, naming the line and the construct.
func TestReadDOTWithinBudget(t *testing.T) {
	in := "digraph {\n a -> b\n subgraph s { c }\n}\n"
	_, _, err := ReadWithin(strings.NewReader(in), "big.dot", 100)
	var pe *models.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 {
		t.Fatalf("got %v, want a ParseError at line 3", err)
	}
	for _, want := range []string{"big.dot:3:", `"subgraph" statement`, "full DOT parser", budget.Flag} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not say %q", err, want)
		}
	}
	if _, _, err := ReadWithin(strings.NewReader(in), "big.dot", 1<<30); err != nil {
		t.Errorf("within a budget that fits: %v", err)
	}
}

// TestReadDOTWithinReaders reads from a file and from a reader that
// cannot seek, through the one pass and through the full parser.
func TestReadDOTWithinReaders(t *testing.T) {
	for _, in := range []string{"digraph { a -> b [data=2] }", "digraph { node [x=1]; a -> b [data=2] }"} {
		path := filepath.Join(t.TempDir(), "g.dot")
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		fromFile, _, err := ReadWithin(f, path, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		fromPipe, _, err := ReadWithin(struct{ io.Reader }{strings.NewReader(in)}, path, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := &models.DAG{Tasks: []models.Task{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}}, Edges: []models.DAGEdge{{From: 0, To: 1, Data: 2}}}
		if !reflect.DeepEqual(fromFile, want) || !reflect.DeepEqual(fromPipe, want) {
			t.Errorf("%s: got %+v and %+v, want %+v", in, fromFile, fromPipe, want)
		}
	}
}

// TestParseDecimal checks the fast decimal path against strconv.ParseFloat
// bit for bit, on hand-picked and random decimals.
func TestParseDecimal(t *testing.T) {
	ins := []string{"0", "1", "2.5", ".5", "3.", "0.1", "0.3", "9007199254740991", "900719925474099.1",
		"1.7976931348623157", "123456789.123456", "0000.000100", "4503599627370497.5"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		s := strconv.FormatUint(rng.Uint64N(1<<uint(1+rng.IntN(60))), 10)
		if k := rng.IntN(len(s) + 1); k < len(s) {
			s = s[:k] + "." + s[k:]
		}
		ins = append(ins, s)
	}
	for _, in := range ins {
		want, _ := strconv.ParseFloat(in, 64)
		if got, ok := parseDecimal([]byte(in)); ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s: got %v, want %v", in, got, want)
		}
	}
	for _, in := range []string{"", ".", "1e3", "-1", "1.2.3", "inf", "0x10", "99999999999999999999"} {
		if v, ok := parseDecimal([]byte(in)); ok {
			t.Errorf("%q: read as %v, want it left to strconv", in, v)
		}
	}
}

// TestDedupEdges checks the linear-time removal of repeated edges, and
// its report of a repeated edge with a marked statement, against the rules
// written out with maps.
func TestDedupEdges(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 1 + rng.IntN(6)
		var edges []models.DAGEdge
		var carries []bool
		for range rng.IntN(20) {
			edges = append(edges, models.DAGEdge{From: rng.IntN(n), To: rng.IntN(n), Data: float64(rng.IntN(9))})
			carries = append(carries, rng.IntN(4) == 0)
		}
		carries = carries[:rng.IntN(len(carries)+1)]
		var want []models.DAGEdge
		at := map[[2]int]int{}
		marked := map[[2]int]bool{} // a pair with a statement in carries
		repeated := map[[2]int]bool{}
		for i, e := range edges {
			pair := [2]int{e.From, e.To}
			marked[pair] = marked[pair] || i < len(carries) && carries[i]
			if i, ok := at[pair]; ok {
				want[i].Data = e.Data
				repeated[pair] = true
				continue
			}
			at[pair] = len(want)
			want = append(want, e)
		}
		wantDrops := false
		for pair := range repeated {
			wantDrops = wantDrops || marked[pair]
		}
		got, drops, _ := dedupEdges(n, append([]models.DAGEdge(nil), edges...), carries)
		if drops != wantDrops {
			t.Errorf("seed %d: %v marked %v: drops %v, want %v", seed, edges, carries, drops, wantDrops)
		}
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: %v gave %v, want %v", seed, edges, got, want)
		}
	}
}

// writeLayeredDOT writes a random layered task graph of n tasks in layers
// of 1000, each task past the first layer with 1 to 3 predecessors in the
// layer before, integer weights 1 to 10 and data sizes 0 to 9.9, the way
// a generator script would: one statement a line.
func writeLayeredDOT(w io.Writer, seed uint64, n int) error {
	const width = 1000
	rng := rand.New(rand.NewPCG(seed, 20))
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "digraph layered {")
	for i := range n {
		fmt.Fprintf(bw, "  t%d [weight=%d];\n", i, 1+rng.IntN(10))
	}
	for v := width; v < n; v++ {
		lo := v/width*width - width
		for range 1 + rng.IntN(3) {
			fmt.Fprintf(bw, "  t%d -> t%d [data=%.1f];\n", lo+rng.IntN(width), v, float64(rng.IntN(100))/10)
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// BenchmarkReadDOT reads random layered graphs of 10^5 and 10^6 tasks
// from a file, with gonum's parser (Read, "full"; 10^5 only unless
// NETSCHED_BENCH_FULL=1, as 10^6 takes about 22 s) and the one-pass reader:
// as a generator script writes them (non-strict, one statement a line) and
// as WriteDOT writes them ("-strict": a strict digraph, gonum's layout).
func BenchmarkReadDOT(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		layered := filepath.Join(b.TempDir(), "g.dot")
		f, err := os.Create(layered)
		if err != nil {
			b.Fatal(err)
		}
		if err := writeLayeredDOT(f, 1, n); err != nil {
			b.Fatal(err)
		}
		f.Close()
		written, err := rewriteDOT(layered)
		if err != nil {
			b.Fatal(err)
		}
		readers := []struct {
			name string
			read func(r io.Reader, path string) (*models.DAG, error)
		}{
			{"full", func(r io.Reader, path string) (*models.DAG, error) { return Read(r, path) }},
			{"onepass", func(r io.Reader, path string) (*models.DAG, error) {
				g, _, err := ReadWithin(r, path, 0)
				return g, err
			}},
		}
		for _, file := range []struct{ suffix, path string }{{"", layered}, {"-strict", written}} {
			for _, rd := range readers {
				if rd.name == "full" && n > 100_000 && os.Getenv("NETSCHED_BENCH_FULL") == "" {
					continue
				}
				b.Run(fmt.Sprintf("%s%s/tasks=%d", rd.name, file.suffix, n), func(b *testing.B) {
					benchmarkReadDOTFile(b, file.path, n, rd.read)
				})
			}
		}
	}
}

// rewriteDOT writes the graph of a DOT file with WriteDOT into a file
// beside it, whose path it returns.
func rewriteDOT(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	g, _, err := ReadWithin(f, path, 0)
	f.Close()
	if err != nil {
		return "", err
	}
	out := strings.TrimSuffix(path, ".dot") + "-written.dot"
	w, err := os.Create(out)
	if err != nil {
		return "", err
	}
	bw := bufio.NewWriter(w)
	err = Write(bw, g, "layered")
	if err == nil {
		err = bw.Flush()
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return out, err
}

// benchmarkReadDOTFile reads the file at path, of n tasks, with read.
func benchmarkReadDOTFile(b *testing.B, path string, n int, read func(io.Reader, string) (*models.DAG, error)) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		g, err := read(f, path)
		f.Close()
		if err != nil || len(g.Tasks) != n {
			b.Fatalf("%v, %d tasks", err, len(g.Tasks))
		}
	}
	b.ReportMetric((cputime.Process()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
}

// TestRepeatedEdge: a digraph that gives an edge twice is refused, by
// either reader, naming the edge; a strict digraph merges it.
func TestRepeatedEdge(t *testing.T) {
	for _, in := range []string{"digraph {\n a -> b [data=1]\n a -> b [data=2]\n}\n", "digraph { x; a -> b -> c; node [shape=box]; a -> b }"} {
		for name, read := range map[string]func(string) error{
			"one pass": func(s string) error { _, _, err := ReadWithin(strings.NewReader(s), "g.dot", 0); return err },
			"gonum":    func(s string) error { _, _, err := ReadWarn(strings.NewReader(s), "g.dot"); return err },
		} {
			if err := read(in); err == nil || !strings.Contains(err.Error(), "g.dot: edge a -> b is given twice") {
				t.Errorf("%s, %q: %v; want the repeated edge named", name, in, err)
			}
		}
	}
	g, _, err := ReadWithin(strings.NewReader("strict digraph { a -> b [data=1]; a -> b [data=2] }"), "g.dot", 0)
	if err != nil || len(g.Edges) != 1 || g.Edges[0].Data != 2 {
		t.Errorf("strict: %v, %+v; want one edge of data 2", err, g)
	}
}

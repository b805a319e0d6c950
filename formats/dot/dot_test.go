package dot

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/netsched/netsched/formats/stg"
	"github.com/netsched/netsched/models"
	"gonum.org/v1/gonum/graph/encoding"
	gdot "gonum.org/v1/gonum/graph/encoding/dot"
)

func TestDOTRoundTrip(t *testing.T) {
	fft, _ := models.FFT(8)
	file, err := stg.ReadFile("../stg/testdata/sample.stg", stg.Options{KeepDummies: true})
	if err != nil {
		t.Fatal(err)
	}
	weighted := &models.DAG{
		Tasks: []models.Task{{Name: "load", Weight: 2.5}, {Name: "a b", Weight: 0}, {Name: "store", Weight: 1}},
		Edges: []models.DAGEdge{{From: 0, To: 1, Data: 3.25}, {From: 1, To: 2}, {From: 0, To: 2}},
	}
	for name, g := range map[string]*models.DAG{"fft": fft, "stg": file.DAG, "weighted": weighted} {
		var buf bytes.Buffer
		if err := Write(&buf, g, name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := Read(&buf, name+".dot")
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, buf.String())
		}
		if !reflect.DeepEqual(sortedDAG(back), sortedDAG(g)) {
			t.Errorf("%s: round trip changed the graph\n got %+v\nwant %+v", name, back, g)
		}
	}
}

// sortedDAG names every task and orders edges, so that graphs equal up to
// task and edge order compare equal.
func sortedDAG(g *models.DAG) map[string]any {
	tasks := map[string]float64{}
	for i, t := range g.Tasks {
		tasks[g.TaskName(i)] = t.Weight
	}
	edges := map[string]float64{}
	for _, e := range g.Edges {
		edges[g.TaskName(e.From)+">"+g.TaskName(e.To)] = e.Data
	}
	return map[string]any{"tasks": tasks, "edges": edges}
}

func TestReadDOTDefaults(t *testing.T) {
	g, err := Read(strings.NewReader(`digraph g { a -> b -> c; a -> c [data=2]; d [weight=3] }`), "x.dot")
	if err != nil {
		t.Fatal(err)
	}
	want := &models.DAG{
		Tasks: []models.Task{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "c", Weight: 1}, {Name: "d", Weight: 3}},
		Edges: []models.DAGEdge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 0, To: 2, Data: 2}},
	}
	if !reflect.DeepEqual(g.Tasks, want.Tasks) || !reflect.DeepEqual(sortedDAG(g), sortedDAG(want)) {
		t.Errorf("got %+v, want %+v (up to edge order)", g, want)
	}
}

func TestReadDOTFile(t *testing.T) {
	g, err := ReadFile("testdata/fork.dot")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"tasks": map[string]float64{"src": 1, "a": 1, "b": 2.5}, "edges": map[string]float64{"src>a": 0, "src>b": 4}}
	if !reflect.DeepEqual(sortedDAG(g), want) {
		t.Errorf("got %+v", g)
	}
	if _, err := ReadFile("testdata/absent.dot"); err == nil {
		t.Error("a missing file gave no error")
	}
}

// TestReadDOTOtherAttributes reads Graphviz's own attributes, far from
// weight and data, without error, and lists them in one warning: each
// once, grouped by where it is.
func TestReadDOTOtherAttributes(t *testing.T) {
	tests := []struct {
		in, warning string
	}{
		{`digraph { a [label="A", shape=box, weight=2]; a -> b [color=red, weight=9, data=3] }`,
			`ok.dot: ignoring 4 DOT attribute(s) a task graph does not read (node label, shape; edge color, weight); ` +
				`it reads weight on each node and data on each edge`},
		{"digraph {\n  rankdir=LR;\n  node [weight=3];\n  edge [color=gray];\n  a [weight=2];\n  a -> b [color=red];\n  b [label=x];\n  c [label=y]\n" +
			"  subgraph s { size=\"2,2\"; d }\n}",
			`ok.dot: ignoring 6 DOT attribute(s) a task graph does not read (graph rankdir, size; node [...] weight; ` +
				`edge [...] color; node label; edge color); it reads weight on each node and data on each edge`},
		{`digraph { a [weight=2]; a -> b [data=3] }`, ""},
	}
	for _, tt := range tests {
		g, warning, err := ReadWarn(strings.NewReader(tt.in), "ok.dot")
		if err != nil || g.Tasks[0].Weight != 2 {
			t.Fatalf("%s: %v %+v", tt.in, err, g)
		}
		if warning != tt.warning {
			t.Errorf("%s:\nwarning %q\nwant    %q", tt.in, warning, tt.warning)
		}
	}
}

func TestReadDOTErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`digraph { a -> b -> a }`, "cycle"},
		{`digraph { a -> a }`, "depends on itself"},
		{`graph { a -- b }`, "digraph"},
		{`digraph { a [weight=x] }`, "task a: attribute weight"},
		{`digraph { a [weight=-1] }`, "task a: attribute weight"},
		{`digraph { a -> b [data=no] }`, "edge a -> b: attribute data"},
		{`digraph { a -> }`, "dot:"},
		{"digraph {\n  a [label=x];\n  b [wieght=2]\n}", `bad.dot:3: node b attribute "wieght": did you mean "weight"?`},
		{"digraph {\n a -> b [dat=1, color=red]\n}", `bad.dot:2: edge a -> b attribute "dat": did you mean "data"?`},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in), "bad.dot")
		var pe *models.ParseError
		if !errors.As(err, &pe) || pe.File != "bad.dot" || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: got %v, want a ParseError for bad.dot mentioning %q", tt.in, err, tt.msg)
		}
	}
}

func TestWriteDOTDuplicateNames(t *testing.T) {
	g := &models.DAG{Tasks: []models.Task{{Name: "x", Weight: 1}, {Name: "x", Weight: 1}}}
	if err := Write(&bytes.Buffer{}, g, "g"); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("got %v, want an error naming the duplicate", err)
	}
}

// TestWriteMatchesGonum compares Write with gonum's encoder (writeGonum,
// the way Write wrote before) byte for byte, on random graphs whose task
// names mix identifiers, numerals, keywords, spaces, quotes, escapes,
// HTML-like strings, Latin-1 and other runes and invalid UTF-8, with
// repeated edges, self-loops and weights and data of every magnitude.
func TestWriteMatchesGonum(t *testing.T) {
	pieces := []string{"a", "Z", "_", "7", "-", ".", " ", `"`, `\`, "<", ">", "é", "ÿ", "中", "\xff", "\t",
		"node", "Strict", "graph", "1.5", "x_9"}
	values := []float64{0, 1, 2.5, 0.1, 1e21, 1e-7, 123456789, math.Inf(1), math.NaN()}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 41))
		n := r.IntN(12)
		g := &models.DAG{Tasks: make([]models.Task, n)}
		seen := map[string]bool{}
		for i := range g.Tasks {
			var b strings.Builder
			for range 1 + r.IntN(3) {
				b.WriteString(pieces[r.IntN(len(pieces))])
			}
			if seen[b.String()] || r.IntN(5) == 0 {
				b.Reset() // TaskName's default, t<i>
			}
			seen[b.String()] = true
			g.Tasks[i] = models.Task{Name: b.String(), Weight: values[r.IntN(len(values))]}
		}
		for range r.IntN(3 * max(n, 1)) {
			if n > 0 {
				g.Edges = append(g.Edges, models.DAGEdge{From: r.IntN(n), To: r.IntN(n), Data: values[r.IntN(len(values))]})
			}
		}
		name := [...]string{"", "g", "a b", "digraph", "<h>"}[r.IntN(5)]
		var got, want bytes.Buffer
		errGot, errWant := Write(&got, g, name), writeGonum(&want, g, name)
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) {
			t.Fatalf("seed %d: error %v, gonum %v", seed, errGot, errWant)
		}
		if got.String() != want.String() {
			t.Fatalf("seed %d:\n%s\ngonum writes\n%s", seed, got.String(), want.String())
		}
	}
}

// writeGonum is Write through gonum's encoding/dot, as Write was before.
func writeGonum(w io.Writer, g *models.DAG, name string) error {
	b := &dotGraph{}
	seen := make(map[string]int, len(g.Tasks))
	for i, t := range g.Tasks {
		id := g.TaskName(i)
		if j, dup := seen[id]; dup {
			return fmt.Errorf("dot: tasks %d and %d are both named %q", j, i, id)
		}
		seen[id] = i
		n := b.NewNode().(*dotNode)
		n.name = id
		n.attrs = encoding.Attributes{{Key: dotWeight, Value: formatFloat(t.Weight)}}
		b.AddNode(n)
	}
	for _, e := range g.Edges {
		de := &dotEdge{from: b.nodes[e.From], to: b.nodes[e.To]}
		if e.Data != 0 {
			de.attrs = encoding.Attributes{{Key: dotData, Value: formatFloat(e.Data)}}
		}
		b.SetEdge(de)
	}
	out, err := gdot.Marshal(b, name, "", "  ")
	if err != nil {
		return fmt.Errorf("dot: %w", err)
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// Package dot reads and writes task graphs in Graphviz DOT: a digraph whose
// nodes are tasks (attribute weight) and whose edges carry data (attribute
// data). ReadWithin reads the subset task graphs are written in, strict
// digraphs too, in one pass; Read is gonum's full parser, which the one
// pass falls back to for anything else. Write writes what both read.
package dot

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/netsched/netsched/internal/suggest"
	"github.com/netsched/netsched/models"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/encoding"
	gdot "gonum.org/v1/gonum/graph/encoding/dot"
	dotfmt "gonum.org/v1/gonum/graph/formats/dot"
	dotast "gonum.org/v1/gonum/graph/formats/dot/ast"
	"gonum.org/v1/gonum/graph/iterator"
)

// DOT attributes of a task graph: a node's "weight" is its task's weight
// (1 when absent, the unit task of paper 002), an edge's "data" its data
// size (0 when absent). Node IDs are task names.
const (
	dotWeight = "weight"
	dotData   = "data"
)

// ReadFile reads a task graph from a Graphviz DOT file (a digraph);
// errors name the file.
func ReadFile(path string) (*models.DAG, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Read(bytes.NewReader(data), path)
}

// Read reads a task graph from a Graphviz DOT digraph with gonum's
// encoding/dot. Tasks are numbered in order of first appearance and named by
// their DOT ID; the attributes "weight" (node) and "data" (edge) give the
// task weight (default 1) and the data size (default 0). A self-loop, an
// undirected graph, a bad number or a cycle is an error naming file and
// node, and so is a misspelt attribute, within two edits of weight or data
// ("wieght"), naming its line. Other attributes (label, color, …) are
// ignored; ReadWarn also says which.
func Read(r io.Reader, file string) (*models.DAG, error) {
	g, _, err := ReadWarn(r, file)
	return g, err
}

// ReadWarn is Read that also returns one warning, naming the file,
// that lists every attribute it ignored: Graphviz's own (label, color,
// shape, …), those of the graph, and the defaults of node [...] and edge
// [...] statements, which are not applied to the tasks. The warning is ""
// when nothing was ignored.
func ReadWarn(r io.Reader, file string) (g *models.DAG, warning string, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, "", &models.ParseError{File: file, Msg: err.Error()}
	}
	ast, err := dotfmt.ParseBytes(data)
	if err != nil {
		return nil, "", &models.ParseError{File: file, Msg: "dot: " + err.Error()}
	}
	if len(ast.Graphs) != 1 || !ast.Graphs[0].Directed {
		return nil, "", &models.ParseError{File: file, Msg: "want exactly one digraph"}
	}
	b := &dotGraph{strict: ast.Graphs[0].Strict}
	if err := gdot.Unmarshal(data, b); err != nil {
		return nil, "", &models.ParseError{File: file, Msg: "dot: " + err.Error()}
	}
	b.graphAttrs = append(b.graphAttrs, graphAssignments(ast.Graphs[0].Stmts)...)
	if err := b.checkAttributes(data, file); err != nil {
		return nil, "", err
	}
	g, err = b.dag()
	if err != nil {
		return nil, "", &models.ParseError{File: file, Msg: err.Error()}
	}
	if _, err := g.TopoOrder(); err != nil {
		return nil, "", &models.ParseError{File: file, Msg: err.Error() + ": a task graph must be acyclic"}
	}
	return g, b.ignored(file), nil
}

// Write writes g as a Graphviz DOT digraph named name in the form Read
// reads: tasks named by TaskName (which must be unique), weights and data
// sizes as attributes. It writes, byte for byte, what gonum's
// encoding/dot writes for the graph (a strict digraph, tasks in order,
// then one edge per pair of tasks by source and target, with the data of
// its last statement; TestWriteMatchesGonum), without building that
// encoder's graph: 10^6 tasks in 1 s of CPU instead of about 15.
func Write(w io.Writer, g *models.DAG, name string) error {
	for i, e := range g.Edges {
		if e.From < 0 || e.From >= len(g.Tasks) || e.To < 0 || e.To >= len(g.Tasks) {
			return fmt.Errorf("dot: edge %d (%d -> %d) names a task that does not exist (%d tasks)", i, e.From, e.To, len(g.Tasks))
		}
	}
	ids := make([]string, len(g.Tasks))
	seen := make(map[string]int, len(g.Tasks))
	for i := range g.Tasks {
		id := g.TaskName(i)
		if j, dup := seen[id]; dup {
			return fmt.Errorf("dot: tasks %d and %d are both named %q", j, i, id)
		}
		seen[id] = i
		ids[i] = quoteID(id)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("strict digraph")
	if name != "" {
		bw.WriteString(" " + quoteID(name))
	}
	bw.WriteString(" {")
	if len(g.Tasks) > 0 {
		bw.WriteString("\n  // Node definitions.")
	}
	for i, t := range g.Tasks {
		fmt.Fprintf(bw, "\n  %s [%s=%s];", ids[i], dotWeight, quoteID(formatFloat(t.Weight)))
	}
	for k, e := range edgesInOrder(len(g.Tasks), g.Edges) {
		if k == 0 {
			bw.WriteString("\n\n  // Edge definitions.")
		}
		bw.WriteString("\n  " + ids[e.From] + " -> " + ids[e.To])
		if e.Data != 0 {
			bw.WriteString(" [" + dotData + "=" + quoteID(formatFloat(e.Data)) + "]")
		}
		bw.WriteByte(';')
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// edgesInOrder returns one edge per (from, to) pair, with the data of the
// last, by source and then target.
func edgesInOrder(n int, edges []models.DAGEdge) []models.DAGEdge {
	out := slices.Clone(edges)
	slices.SortStableFunc(out, func(a, b models.DAGEdge) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	kept := out[:0]
	for _, e := range out {
		if k := len(kept) - 1; k >= 0 && kept[k].From == e.From && kept[k].To == e.To {
			kept[k].Data = e.Data
			continue
		}
		kept = append(kept, e)
	}
	return kept
}

// quoteID is gonum's quoteID: s as it is when it is a DOT ID other than
// a keyword, quoted by strconv.Quote otherwise.
func quoteID(s string) string {
	if isDOTKeyword([]byte(s)) || !isID(s) {
		return strconv.Quote(s)
	}
	return s
}

// isID reports whether s is a DOT ID as gonum's encoder tells one: an
// identifier (letters, '_', digits and the runes U+0080 to U+00FF, not
// starting with a digit), a numeral, a valid double-quoted string or an
// HTML string ("<...>").
func isID(s string) bool {
	switch {
	case isIdentifier(s), isNumeral([]byte(s)):
		return true
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		if _, err := strconv.Unquote(s); err == nil {
			return true
		}
	}
	return len(s) >= 2 && s[0] == '<' && s[len(s)-1] == '>'
}

// isIdentifier reports whether s matches ^[a-zA-Z\200-\377_][0-9a-zA-Z\200-\377_]*$
// rune by rune, as Go's regexp does (a byte that is not UTF-8 is U+FFFD).
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 && r <= 0xff
		if !letter && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isNumeral reports whether b matches ^[-]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)$.
func isNumeral(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	digits, point := 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// dotNode is a task while reading or writing DOT.
type dotNode struct {
	id    int64
	name  string
	attrs encoding.Attributes
}

// ID, DOTID, SetDOTID, Attributes and SetAttribute make dotNode a gonum
// node that encoding/dot can name and annotate.
func (n *dotNode) ID() int64                               { return n.id }
func (n *dotNode) DOTID() string                           { return n.name }
func (n *dotNode) SetDOTID(id string)                      { n.name = id }
func (n *dotNode) Attributes() []encoding.Attribute        { return n.attrs }
func (n *dotNode) SetAttribute(a encoding.Attribute) error { return n.attrs.SetAttribute(a) }

// dotEdge is a precedence edge while reading or writing DOT.
type dotEdge struct {
	from, to *dotNode
	attrs    encoding.Attributes
}

// From, To, ReversedEdge, Attributes and SetAttribute make dotEdge a gonum
// edge with DOT attributes.
func (e *dotEdge) From() graph.Node                        { return e.from }
func (e *dotEdge) To() graph.Node                          { return e.to }
func (e *dotEdge) ReversedEdge() graph.Edge                { return &dotEdge{from: e.to, to: e.from, attrs: e.attrs} }
func (e *dotEdge) Attributes() []encoding.Attribute        { return e.attrs }
func (e *dotEdge) SetAttribute(a encoding.Attribute) error { return e.attrs.SetAttribute(a) }

// dotGraph is the gonum directed graph (and encoding.Builder) that DOT is
// decoded into and encoded from. An error found while building (a
// self-loop) is kept and reported by dag, since the decoder has no way to
// receive it.
type dotGraph struct {
	nodes []*dotNode
	edges []*dotEdge       // in order of first appearance
	index map[[2]int64]int // (from, to) → position in edges
	succ  map[int64][]graph.Node
	pred  map[int64][]graph.Node
	err   error
	// strict is a strict digraph's, where a repeated edge is merged
	// into its first; in another, a repeated edge is an error.
	strict bool

	// graphAttrs, nodeDefaults and edgeDefaults are the graph's own
	// attributes and those of its node [...] and edge [...] statements.
	graphAttrs, nodeDefaults, edgeDefaults encoding.Attributes
}

// DOTAttributeSetters makes the decoder keep the graph's own attributes
// and the node and edge defaults, which a task graph does not read, so
// that ignored can list them.
func (b *dotGraph) DOTAttributeSetters() (graph, node, edge encoding.AttributeSetter) {
	return &b.graphAttrs, &b.nodeDefaults, &b.edgeDefaults
}

// graphAssignments returns the graph attributes set by statements such as
// rankdir=LR, in subgraphs too, which the decoder skips.
func graphAssignments(stmts []dotast.Stmt) encoding.Attributes {
	var attrs encoding.Attributes
	for _, st := range stmts {
		switch st := st.(type) {
		case *dotast.Attr:
			attrs = append(attrs, encoding.Attribute{Key: st.Key, Value: st.Val})
		case *dotast.Subgraph:
			attrs = append(attrs, graphAssignments(st.Stmts)...)
		}
	}
	return attrs
}

// ignored returns one warning listing the attributes the graph has that a
// task graph does not read, grouped by where they are (graph, node and
// edge defaults, nodes, edges), each once in order of appearance, or ""
// when there are none.
func (b *dotGraph) ignored(file string) string {
	var groups []string
	n := 0
	group := func(where, read string, attrs ...encoding.Attributes) {
		var keys []string
		for _, as := range attrs {
			for _, a := range as {
				if a.Key != read && !slices.Contains(keys, a.Key) {
					keys = append(keys, a.Key)
				}
			}
		}
		if len(keys) > 0 {
			groups = append(groups, where+" "+strings.Join(keys, ", "))
			n += len(keys)
		}
	}
	group("graph", "", b.graphAttrs)
	group("node [...]", "", b.nodeDefaults)
	group("edge [...]", "", b.edgeDefaults)
	nodes := make([]encoding.Attributes, len(b.nodes))
	for i, nd := range b.nodes {
		nodes[i] = nd.attrs
	}
	group("node", dotWeight, nodes...)
	edges := make([]encoding.Attributes, len(b.edges))
	for i, e := range b.edges {
		edges[i] = e.attrs
	}
	group("edge", dotData, edges...)
	return formatIgnored(file, n, groups)
}

// formatIgnored words the warning of n ignored attributes listed in
// groups ("node label, color"), or gives "" when there are none.
func formatIgnored(file string, n int, groups []string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s: ignoring %d DOT attribute(s) a task graph does not read (%s); it reads weight on each node and data on each edge",
		file, n, strings.Join(groups, "; "))
}

// NewNode returns a node with the next ID, to be passed to AddNode.
func (b *dotGraph) NewNode() graph.Node { return &dotNode{id: int64(len(b.nodes))} }

// AddNode adds a node made by NewNode.
func (b *dotGraph) AddNode(n graph.Node) {
	dn, ok := n.(*dotNode)
	if !ok || dn.id != int64(len(b.nodes)) {
		panic(fmt.Errorf("dot: node %d was not made by NewNode", n.ID()))
	}
	b.nodes = append(b.nodes, dn)
}

// NewEdge returns an edge between two nodes of the graph.
func (b *dotGraph) NewEdge(from, to graph.Node) graph.Edge {
	return &dotEdge{from: from.(*dotNode), to: to.(*dotNode)}
}

// SetEdge adds an edge made by NewEdge; a repeated edge replaces the
// earlier one, and is an error but in a strict digraph.
func (b *dotGraph) SetEdge(e graph.Edge) {
	de := e.(*dotEdge)
	if de.from.id == de.to.id && b.err == nil {
		b.err = fmt.Errorf("task %s depends on itself", de.from.name)
	}
	if b.index == nil {
		b.index, b.succ, b.pred = map[[2]int64]int{}, map[int64][]graph.Node{}, map[int64][]graph.Node{}
	}
	key := [2]int64{de.from.id, de.to.id}
	if i, dup := b.index[key]; dup {
		if !b.strict && b.err == nil {
			b.err = errRepeatedEdge(de.from.name, de.to.name)
		}
		b.edges[i] = de
		return
	}
	b.index[key] = len(b.edges)
	b.edges = append(b.edges, de)
	b.succ[de.from.id] = append(b.succ[de.from.id], de.to)
	b.pred[de.to.id] = append(b.pred[de.to.id], de.from)
}

// Node returns the node with the given ID, or nil.
func (b *dotGraph) Node(id int64) graph.Node {
	if id < 0 || id >= int64(len(b.nodes)) {
		return nil
	}
	return b.nodes[id]
}

// Nodes returns every node in ID order.
func (b *dotGraph) Nodes() graph.Nodes {
	ns := make([]graph.Node, len(b.nodes))
	for i, n := range b.nodes {
		ns[i] = n
	}
	return iterator.NewOrderedNodes(ns)
}

// From returns the successors of a node.
func (b *dotGraph) From(id int64) graph.Nodes { return iterator.NewOrderedNodes(b.succ[id]) }

// To returns the predecessors of a node.
func (b *dotGraph) To(id int64) graph.Nodes { return iterator.NewOrderedNodes(b.pred[id]) }

// Edge returns the edge from u to v, or nil.
func (b *dotGraph) Edge(uid, vid int64) graph.Edge {
	if i, ok := b.index[[2]int64{uid, vid}]; ok {
		return b.edges[i]
	}
	return nil
}

// HasEdgeFromTo reports an edge from u to v.
func (b *dotGraph) HasEdgeFromTo(uid, vid int64) bool { return b.Edge(uid, vid) != nil }

// HasEdgeBetween reports an edge between x and y in either direction.
func (b *dotGraph) HasEdgeBetween(xid, yid int64) bool {
	return b.HasEdgeFromTo(xid, yid) || b.HasEdgeFromTo(yid, xid)
}

// dag converts the decoded graph into a DAG.
func (b *dotGraph) dag() (*models.DAG, error) {
	if b.err != nil {
		return nil, b.err
	}
	g := &models.DAG{Tasks: make([]models.Task, len(b.nodes))}
	for i, n := range b.nodes {
		w, err := attrFloat(n.attrs, dotWeight, 1)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", n.name, err)
		}
		g.Tasks[i] = models.Task{Name: n.name, Weight: w}
	}
	for _, e := range b.edges {
		d, err := attrFloat(e.attrs, dotData, 0)
		if err != nil {
			return nil, fmt.Errorf("edge %s -> %s: %w", e.from.name, e.to.name, err)
		}
		g.Edges = append(g.Edges, models.DAGEdge{From: int(e.from.id), To: int(e.to.id), Data: d})
	}
	return g, nil
}

// attrFloat reads a non-negative number attribute, def when absent.
func attrFloat(attrs encoding.Attributes, key string, def float64) (float64, error) {
	for _, a := range attrs {
		if a.Key != key {
			continue
		}
		v, err := strconv.ParseFloat(a.Value, 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("attribute %s must be a finite number >= 0, got %q", key, a.Value)
		}
		return v, nil
	}
	return def, nil
}

// checkAttributes rejects a node or edge attribute that is not one the
// reader knows but within two edits of one: a misspelling that would
// otherwise silently give the default.
func (b *dotGraph) checkAttributes(src []byte, file string) error {
	check := func(attrs encoding.Attributes, known, what string) error {
		for _, a := range attrs {
			if a.Key != known && levenshtein.ComputeDistance(a.Key, known) <= suggest.MaxDistance {
				return &models.ParseError{File: file, Line: lineOf(src, a.Key),
					Msg: fmt.Sprintf("%s attribute %q: did you mean %q? (a task graph reads %s)", what, a.Key, known, known)}
			}
		}
		return nil
	}
	for _, n := range b.nodes {
		if err := check(n.attrs, dotWeight, "node "+n.name); err != nil {
			return err
		}
	}
	for _, e := range b.edges {
		if err := check(e.attrs, dotData, "edge "+e.from.name+" -> "+e.to.name); err != nil {
			return err
		}
	}
	return nil
}

// lineOf is the line of the first place key is written as an attribute
// name (followed by "="), or 0 if none is found.
func lineOf(src []byte, key string) int {
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte(key))
		if k < 0 {
			return 0
		}
		i += k
		rest := bytes.TrimLeft(src[i+len(key):], " \t\r\n")
		before := i == 0 || !isIDByte(src[i-1])
		if before && len(rest) > 0 && rest[0] == '=' {
			return 1 + bytes.Count(src[:i], []byte("\n"))
		}
		i += len(key)
	}
}

// isIDByte reports whether c can be part of a DOT ID.
func isIDByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// errRepeatedEdge is the error of an edge given twice in a digraph that is
// not strict: a task graph has one edge a pair of tasks, and which data
// the edge carries would be a guess.
func errRepeatedEdge(from, to string) error {
	return fmt.Errorf("edge %s -> %s is given twice; give it once (or write strict digraph, where DOT merges a repeated edge into its first, with the attributes of its last)", from, to)
}

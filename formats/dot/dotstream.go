package dot

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/suggest"
	"github.com/netsched/netsched/models"
)

// dotFullBytesPerByte is the memory gonum's DOT parser (Read) takes per
// byte of the file, with a margin (measured: 3.8 GiB through netsched for a
// random layered graph of 10^6 tasks, an 87 MB file: 44 per byte; about 65
// for 200,000 edges of 15 bytes each, cmd/netsched
// TestEstimatesOnSafeSide), checked against the budget before ReadWithin
// falls back to it.
const dotFullBytesPerByte = 128

// ReadWithin reads a task graph from a Graphviz DOT digraph as
// ReadWarn does, giving the same graph (tasks in order of first
// appearance, edges in the order gonum's decoder sets them), the same
// warning listing the attributes it ignored and the same errors, but in one pass
// over the input with no syntax tree: a file of 10^6 tasks in 2.7 s of CPU
// and 300 MB instead of 31 s and 2.1 GB (BenchmarkReadDOT).
//
// The one-pass reader takes the subset of DOT that task graphs are written
// in: one digraph, strict or not, of node statements ("a [weight=2]") and
// edge statements ("a -> b [data=3]", chains "a -> b -> c" too),
// identifiers, numerals and quoted strings, comments. For anything else (a
// subgraph, an attribute statement such as "node [shape=box]" or
// "rankdir=LR", ports, HTML strings, an undirected graph) and for any
// error (a syntax error, a misspelt or malformed attribute, a self-loop)
// it reads the input again with Read, whose messages it thus gives word
// for word. That second reading is first checked against the memory
// budget b; when it would not fit, the error names the line and the
// construct that needed it. A cycle is found by the one-pass reader
// itself, with Read's
// message.
//
// A repeated edge is an error, naming it, unless the digraph is strict:
// there DOT merges it, and it is kept, as Read keeps it, at the place
// of its first statement with the attributes of its last: "a -> b
// [data=3]; a -> b" gives data 0, where Graphviz would merge the
// attributes one by one and keep data=3.
func ReadWithin(r io.Reader, file string, b budget.Bytes) (g *models.DAG, warning string, err error) {
	rs, ok := r.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, "", &models.ParseError{File: file, Msg: err.Error()}
		}
		rs = bytes.NewReader(data)
	}
	d, err := scanDOT(rs)
	var full *dotNeedsFull
	if !errors.As(err, &full) {
		if err != nil {
			return nil, "", &models.ParseError{File: file, Msg: err.Error()}
		}
		return &d.g, d.warning(file), nil
	}
	size, err := rs.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = rs.Seek(0, io.SeekStart)
	}
	if err != nil {
		return nil, "", &models.ParseError{File: file, Msg: fmt.Sprintf("%v, and cannot read the file again for the full DOT parser: %v", full, err)}
	}
	if err := b.Check(fmt.Sprintf("a file of %s needs, for it,", budget.Format(float64(size))),
		float64(size)*dotFullBytesPerByte); err != nil {
		return nil, "", &models.ParseError{File: file, Line: full.line, Msg: fmt.Sprintf("%s needs the full DOT parser: %v", full.what, err)}
	}
	return ReadWarn(rs, file)
}

// dotNeedsFull says the one-pass reader stopped at a construct or an error
// it leaves to the full parser.
type dotNeedsFull struct {
	line int
	what string
}

func (e *dotNeedsFull) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.what) }

// dotReader builds a DAG from the tokens of one digraph.
type dotReader struct {
	s     dotScanner
	g     models.DAG
	names dotNames // task by its ID as written
	// strict is a strict digraph's: it merges a repeated edge, which
	// another refuses (errRepeatedEdge).
	strict bool
	chain  []int32 // the tasks of the edge statement being read
	key    []byte  // the attribute name being read
	// misspelt caches, per attribute name other than weight (for nodes,
	// misspelt[0]) and data (for edges, misspelt[1]), whether it is within
	// two edits of the one its statement reads.
	misspelt [2]map[string]bool
	// ignored lists the other attributes of nodes (ignored[0]) and edges
	// (ignored[1]), for the warning.
	ignored [2]dotIgnored
	elem    int32 // the node, or the first edge, the attributes being read go to
	// carries marks the edges whose statement has attributes listed in
	// ignored[1] (none past its end), which a repeated edge would drop.
	carries []bool
}

// scanDOT reads a DAG in one pass (d.g); a *dotNeedsFull error says the
// full parser must read the input instead.
func scanDOT(r io.Reader) (d *dotReader, err error) {
	d = &dotReader{
		s:        dotScanner{r: bufio.NewReaderSize(r, 1<<16), line: 1},
		misspelt: [2]map[string]bool{{}, {}},
	}
	if err := d.graph(); err != nil {
		return nil, err
	}
	d.names.name(d.g.Tasks)
	var drops bool
	var rep [2]int
	d.g.Edges, drops, rep = dedupEdges(len(d.g.Tasks), d.g.Edges, d.carries)
	if rep[0] >= 0 && !d.strict {
		return nil, errRepeatedEdge(d.g.Tasks[rep[0]].Name, d.g.Tasks[rep[1]].Name)
	}
	if drops {
		// A repeated edge drops the attributes of its earlier statements,
		// and the warning lists those of its last at the place of its first.
		return nil, d.s.full("a repeated edge with attributes a task graph ignores")
	}
	if _, err := d.g.TopoOrder(); err != nil {
		return nil, fmt.Errorf("%v: a task graph must be acyclic", err)
	}
	return d, nil
}

// graph reads "digraph [ID] { stmt* }" and the end of the input.
func (d *dotReader) graph() error {
	s := &d.s
	t, err := s.next()
	if err != nil {
		return err
	}
	if t == dotID && !s.quoted && isStrictKeyword(s.id) {
		// A strict graph merges repeated edges, which scanDOT does as
		// gonum's decoder into dotGraph does; another refuses them.
		d.strict = true
		if t, err = s.next(); err != nil {
			return err
		}
	}
	switch {
	case t != dotID || s.quoted:
		return s.full("no digraph at the start")
	case !isDigraphKeyword(s.id):
		return s.full("%q where a digraph starts", s.id)
	}
	if t, err = s.next(); err != nil {
		return err
	}
	if t == dotID {
		if !s.quoted && isDOTKeyword(s.id) {
			return s.full("a keyword %q as the graph's name", s.id)
		}
		if t, err = s.next(); err != nil {
			return err
		}
	}
	if t != dotLBrace {
		return s.full("no '{' after digraph")
	}
	for {
		t, err := s.next()
		if err != nil {
			return err
		}
		switch t {
		case dotRBrace:
			if t, err := s.next(); err != nil || t != dotEOF {
				if err != nil {
					return err
				}
				return s.full("more after the digraph")
			}
			return nil
		case dotID:
			if err := d.statement(); err != nil {
				return err
			}
		default:
			return s.full("a statement that is not a node or an edge")
		}
		if t, err = s.next(); err != nil {
			return err
		}
		if t != dotSemi {
			s.unread()
		}
	}
}

// isStrictKeyword reports whether id is "strict" as gonum's lexer writes
// it.
func isStrictKeyword(id []byte) bool {
	switch string(id) {
	case "strict", "Strict", "STRICT":
		return true
	}
	return false
}

// isDigraphKeyword reports whether id is "digraph" as gonum's lexer
// writes it.
func isDigraphKeyword(id []byte) bool {
	switch string(id) {
	case "digraph", "Digraph", "diGraph", "DiGraph", "DIGRAPH":
		return true
	}
	return false
}

// statement reads a node or edge statement whose first ID was just read.
func (d *dotReader) statement() error {
	s := &d.s
	if !s.quoted && isDOTKeyword(s.id) {
		return s.full("a %q statement", s.id)
	}
	first := d.task()
	t, err := s.next()
	if err != nil {
		return err
	}
	switch t {
	case dotEquals:
		return s.full("a graph attribute")
	case dotLBrack:
		d.elem = first
		return d.attributes(func(key, value []byte, quoted bool) error {
			return d.setWeight(first, key, value, quoted)
		})
	case dotArrow:
		return d.edges(first)
	}
	s.unread()
	return nil
}

// edges reads the rest of an edge statement "first -> b -> c [attrs]".
// gonum's decoder sets a chain's edges from its end: b -> c, then first -> b.
func (d *dotReader) edges(first int32) error {
	s := &d.s
	d.chain = append(d.chain[:0], first)
	for {
		t, err := s.next()
		if err != nil {
			return err
		}
		if t != dotID || (!s.quoted && isDOTKeyword(s.id)) {
			return s.full("an edge to something other than a node")
		}
		d.chain = append(d.chain, d.task())
		if t, err = s.next(); err != nil {
			return err
		}
		if t != dotArrow {
			break
		}
	}
	data := 0.0
	d.elem = int32(len(d.g.Edges)) // the chain's edges come next, its first the least
	ignored := d.ignored[1].count
	if s.last == dotLBrack {
		err := d.attributes(func(key, value []byte, quoted bool) error {
			v, set, err := d.number(key, value, quoted, dotData)
			if set {
				data = v
			}
			return err
		})
		if err != nil {
			return err
		}
	} else {
		s.unread()
	}
	for i := len(d.chain) - 1; i > 0; i-- {
		from, to := d.chain[i-1], d.chain[i]
		if from == to {
			return s.full("a self-loop")
		}
		d.g.Edges = append(d.g.Edges, models.DAGEdge{From: int(from), To: int(to), Data: data})
	}
	if d.ignored[1].count > ignored {
		d.carries = append(d.carries, make([]bool, int(d.elem)-len(d.carries))...)
		for range len(d.chain) - 1 {
			d.carries = append(d.carries, true)
		}
	}
	return nil
}

// attributes reads attribute lists "[k=v, ...][...]" after the first '['
// and gives each pair to set.
func (d *dotReader) attributes(set func(key, value []byte, quoted bool) error) error {
	s := &d.s
	for {
		t, err := s.next()
		if err != nil {
			return err
		}
		switch t {
		case dotRBrack:
			if t, err = s.next(); err != nil {
				return err
			}
			if t != dotLBrack {
				s.unread()
				return nil
			}
			continue
		case dotID:
		default:
			return s.full("an attribute list that is not key=value pairs")
		}
		d.key = append(d.key[:0], s.id...)
		keyQuoted := s.quoted
		if t, err = s.next(); err != nil {
			return err
		}
		if t != dotEquals {
			return s.full("an attribute without '='")
		}
		if t, err = s.next(); err != nil {
			return err
		}
		if t != dotID {
			return s.full("an attribute without a value")
		}
		if keyQuoted {
			d.key = append(d.key[:0], dotUnquote(string(d.key))...)
		}
		if err := set(d.key, s.id, s.quoted); err != nil {
			return err
		}
		if t, err = s.next(); err != nil {
			return err
		}
		if t != dotComma && t != dotSemi {
			s.unread()
		}
	}
}

// setWeight applies a node attribute to task i.
func (d *dotReader) setWeight(i int32, key, value []byte, quoted bool) error {
	v, set, err := d.number(key, value, quoted, dotWeight)
	if set {
		d.g.Tasks[i].Weight = v
	}
	return err
}

// number reads the value of attribute known; set is false for another
// attribute, which is ignored unless it looks like a misspelling of known.
// A misspelling or a value that is not a finite number >= 0 is left to the
// full parser, whose checks (checkAttributes, attrFloat) word the error.
func (d *dotReader) number(key, value []byte, quoted bool, known string) (v float64, set bool, err error) {
	if string(key) != known {
		cache := d.misspelt[0]
		if known == dotData {
			cache = d.misspelt[1]
		}
		bad, seen := cache[string(key)]
		if !seen {
			bad = levenshtein.ComputeDistance(string(key), known) <= suggest.MaxDistance
			cache[string(key)] = bad
		}
		if bad {
			return 0, false, d.s.full("attribute %q, close to %q", key, known)
		}
		if known == dotData {
			d.ignored[1].add(key, d.elem)
		} else {
			d.ignored[0].add(key, d.elem)
		}
		return 0, false, nil
	}
	if !quoted {
		if v, ok := parseDecimal(value); ok {
			return v, true, nil
		}
	}
	text := string(value)
	if quoted {
		text = dotUnquote(text)
	}
	v, err = strconv.ParseFloat(text, 64)
	if err != nil || !(v >= 0) || v > 1.7976931348623157e308 {
		return 0, false, d.s.full("a malformed %s %q", known, value)
	}
	return v, true, nil
}

// dotIgnored collects the names of ignored attributes of nodes or of
// edges, to list them as gonum's path (dotGraph.ignored) does: in the
// order of the first element that has each, and within it in the order
// its attributes were first set.
type dotIgnored struct {
	keys  []string
	at    map[string]int // position in keys
	first []int32        // per key, the least element that has it
	when  []int          // per key, when it was first set on that element
	count int            // attributes seen, the clock of when
}

// add records attribute key of element elem.
func (ig *dotIgnored) add(key []byte, elem int32) {
	ig.count++
	if i, ok := ig.at[string(key)]; ok {
		if elem < ig.first[i] {
			ig.first[i], ig.when[i] = elem, ig.count
		}
		return
	}
	if ig.at == nil {
		ig.at = map[string]int{}
	}
	ig.at[string(key)] = len(ig.keys)
	ig.keys = append(ig.keys, string(key))
	ig.first = append(ig.first, elem)
	ig.when = append(ig.when, ig.count)
}

// sorted returns the keys in the order of the warning.
func (ig *dotIgnored) sorted() []string {
	order := make([]int, len(ig.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(ig.first[a], ig.first[b]), cmp.Compare(ig.when[a], ig.when[b]))
	})
	keys := make([]string, len(order))
	for i, k := range order {
		keys[i] = ig.keys[k]
	}
	return keys
}

// warning is ReadWarn's warning for what the one pass ignored: node
// and edge attributes only, since it leaves graph attributes and node and
// edge defaults to the full parser.
func (d *dotReader) warning(file string) string {
	var groups []string
	n := 0
	for i, where := range [...]string{"node", "edge"} {
		if keys := d.ignored[i].sorted(); len(keys) > 0 {
			groups = append(groups, where+" "+strings.Join(keys, ", "))
			n += len(keys)
		}
	}
	return formatIgnored(file, n, groups)
}

// task returns the task the last ID names, adding it when new; tasks are
// keyed by their ID as written, as gonum's decoder keys them.
func (d *dotReader) task() int32 {
	i, added := d.names.find(d.s.id, d.s.quoted)
	if added {
		d.g.Tasks = append(d.g.Tasks, models.Task{Weight: 1})
	}
	return i
}

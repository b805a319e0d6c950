package dot

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
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

// DOT tokens the one-pass reader knows.
type dotTok int

const (
	dotEOF    dotTok = iota
	dotID            // identifier, numeral or quoted string
	dotArrow         // ->
	dotLBrack        // [
	dotRBrack        // ]
	dotLBrace        // {
	dotRBrace        // }
	dotEquals        // =
	dotSemi          // ;
	dotComma         // ,
)

// dotScanner splits DOT into tokens, counting lines.
type dotScanner struct {
	r      *bufio.Reader
	line   int
	id     []byte // the text of the last dotID, quotes included
	quoted bool   // whether it is a quoted string
	peeked bool   // the last token is to be returned again
	last   dotTok
}

// full stops the reading at the current line.
func (s *dotScanner) full(format string, args ...any) error {
	return &dotNeedsFull{line: s.line, what: fmt.Sprintf(format, args...)}
}

// unread makes next return the last token again.
func (s *dotScanner) unread() { s.peeked = true }

// next reads the next token.
func (s *dotScanner) next() (dotTok, error) {
	if s.peeked {
		s.peeked = false
		return s.last, nil
	}
	t, err := s.scan()
	s.last = t
	return t, err
}

// readErr turns a read error into the scanner's error; io.EOF in the
// middle of a token is left to the full parser.
func (s *dotScanner) readErr(err error) error {
	if errors.Is(err, io.EOF) {
		return s.full("the input ends inside a token or comment")
	}
	return err
}

// scan reads a token after whitespace and comments.
func (s *dotScanner) scan() (dotTok, error) {
	for {
		c, err := s.r.ReadByte()
		if errors.Is(err, io.EOF) {
			return dotEOF, nil
		}
		if err != nil {
			return dotEOF, err
		}
		switch {
		case c == '\n':
			s.line++
		case c == ' ' || c == '\t' || c == '\r':
		case c == '#':
			if err := s.skipLine(); err != nil {
				return dotEOF, err
			}
		case c == '/':
			if err := s.comment(); err != nil {
				return dotEOF, err
			}
		case c == '[':
			return dotLBrack, nil
		case c == ']':
			return dotRBrack, nil
		case c == '{':
			return dotLBrace, nil
		case c == '}':
			return dotRBrace, nil
		case c == '=':
			return dotEquals, nil
		case c == ';':
			return dotSemi, nil
		case c == ',':
			return dotComma, nil
		case c == '"':
			return dotID, s.quotedString()
		case c == '-':
			d, err := s.r.ReadByte()
			if err != nil {
				return dotEOF, s.readErr(err)
			}
			if d == '>' {
				return dotArrow, nil
			}
			if d == '-' {
				return dotEOF, s.full("an undirected edge (--)")
			}
			s.r.UnreadByte()
			return dotID, s.numeral('-')
		case c == '.' || c >= '0' && c <= '9':
			return dotID, s.numeral(c)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return dotID, s.identifier(c)
		default:
			return dotEOF, s.full("the character %q", c)
		}
	}
}

// skipLine skips to the end of a line comment; the input must not end
// inside it (gonum's grammar wants the newline).
func (s *dotScanner) skipLine() error {
	if _, err := s.r.ReadSlice('\n'); err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return s.skipLine()
		}
		return s.readErr(err)
	}
	s.line++
	return nil
}

// comment skips a comment after its '/'.
func (s *dotScanner) comment() error {
	c, err := s.r.ReadByte()
	if err != nil {
		return s.readErr(err)
	}
	switch c {
	case '/':
		return s.skipLine()
	case '*':
		for star := false; ; {
			c, err := s.r.ReadByte()
			if err != nil {
				return s.readErr(err)
			}
			if c == '\n' {
				s.line++
			}
			if star && c == '/' {
				return nil
			}
			star = c == '*'
		}
	}
	return s.full("a '/' that starts no comment")
}

// idByte marks the bytes that continue an identifier.
var idByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

// identifier reads a name after its first byte c, a buffered run at a
// time.
func (s *dotScanner) identifier(c byte) error {
	s.id, s.quoted = append(s.id[:0], c), false
	for {
		buf, err := s.r.Peek(max(s.r.Buffered(), 1))
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		i := 0
		for i < len(buf) && idByte[buf[i]] {
			i++
		}
		s.id = append(s.id, buf[:i]...)
		s.r.Discard(i)
		if i < len(buf) {
			if buf[i] >= 0x80 {
				return s.full("a byte above 0x7f")
			}
			return nil
		}
	}
}

// numeral reads [-]?(.[0-9]+|[0-9]+(.[0-9]*)?) after its first byte c; one
// run into a name or a second point is left to the full parser.
func (s *dotScanner) numeral(c byte) error {
	s.id, s.quoted = append(s.id[:0], c), false
	digits, point := c >= '0' && c <= '9', c == '.'
	for {
		c, err := s.r.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' && !point:
			point = true
		case c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			return s.full("a numeral %q followed by %q", s.id, c)
		default:
			s.r.UnreadByte()
			if !digits {
				return s.full("%q, not a numeral", s.id)
			}
			return nil
		}
		s.id = append(s.id, c)
	}
	if !digits {
		return s.full("%q, not a numeral", s.id)
	}
	return nil
}

// quotedString reads a double-quoted string after its opening quote,
// keeping the quotes and escapes as written.
func (s *dotScanner) quotedString() error {
	s.id, s.quoted = append(s.id[:0], '"'), true
	for escaped := false; ; {
		c, err := s.r.ReadByte()
		if err != nil {
			return s.readErr(err)
		}
		switch {
		case c >= 0x80 || c == 0:
			return s.full("a byte %#x in a quoted string", c)
		case c == '\n':
			s.line++
		}
		s.id = append(s.id, c)
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			return nil
		}
	}
}

// text is the last ID as gonum's decoder gives it: unquoted when it is a
// quoted string strconv.Unquote accepts, as written otherwise.
func (s *dotScanner) text() string {
	if s.quoted {
		return dotUnquote(string(s.id))
	}
	return string(s.id)
}

// dotUnquote is gonum's unquoteID: a quoted HTML-like string stays as it
// is, another quoted string is unquoted when Go's rules allow.
func dotUnquote(id string) string {
	if len(id) >= 4 && strings.HasPrefix(id, `"<`) && strings.HasSuffix(id, `>"`) {
		return id
	}
	if t, err := strconv.Unquote(id); err == nil {
		return t
	}
	return id
}

// isDOTKeyword reports whether an identifier is a DOT keyword in any case.
func isDOTKeyword(id []byte) bool {
	for _, k := range [...]string{"node", "edge", "graph", "digraph", "subgraph", "strict"} {
		if len(id) == len(k) && strings.EqualFold(string(id), k) {
			return true
		}
	}
	return false
}

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

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseDecimal reads digits with at most one point ("12", "2.5", ".5",
// "3.") as strconv.ParseFloat does, without its string: the mantissa below
// 2^53 and at most 22 decimals, a division of two exact float64s is the
// correctly rounded value (Clinger's fast path). ok is false for anything
// else, left to strconv.ParseFloat.
func parseDecimal(b []byte) (v float64, ok bool) {
	var mant uint64
	digits, decimals, point := 0, 0, false
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			if mant >= 1<<53/10 {
				return 0, false
			}
			mant = mant*10 + uint64(c-'0')
			digits++
			if point {
				decimals++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if digits == 0 || decimals >= len(pow10) {
		return 0, false
	}
	return float64(mant) / pow10[decimals], true
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

// dotNames numbers the IDs of a DOT file in order of first appearance: an
// open-addressing hash table over one byte array of every ID, with no
// pointers for the garbage collector to follow and one allocation per
// doubling instead of a string and a map entry per task.
type dotNames struct {
	text   []byte   // every ID as written, one after another
	end    []uint32 // ID i is text[end[i-1]:end[i]]
	quoted []bool   // whether ID i is a quoted string
	slots  []uint64 // hash<<32 | (ID+1), 0 when empty; a power of two long
	seed   maphash.Seed
}

// find returns the number of id, adding it when new (added).
func (t *dotNames) find(id []byte, quoted bool) (i int32, added bool) {
	if 2*(len(t.end)+1) > len(t.slots) {
		t.grow()
	}
	h := maphash.Bytes(t.seed, id)
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32 << 32
	for p := h & mask; ; p = (p + 1) & mask {
		slot := t.slots[p]
		if slot == 0 {
			i = int32(len(t.end))
			t.text = append(t.text, id...)
			t.end = append(t.end, uint32(len(t.text)))
			t.quoted = append(t.quoted, quoted)
			t.slots[p] = tag | uint64(i+1)
			return i, true
		}
		if slot>>32<<32 == tag {
			j := int32(uint32(slot) - 1)
			if bytes.Equal(t.at(j), id) {
				return j, false
			}
		}
	}
}

// at is ID i as written.
func (t *dotNames) at(i int32) []byte {
	start := uint32(0)
	if i > 0 {
		start = t.end[i-1]
	}
	return t.text[start:t.end[i]]
}

// grow doubles the table (first sizing it, with its seed).
func (t *dotNames) grow() {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
	}
	slots := make([]uint64, max(1024, 2*len(t.slots)))
	mask := uint64(len(slots) - 1)
	for _, slot := range t.slots {
		if slot == 0 {
			continue
		}
		j := int32(uint32(slot) - 1)
		h := maphash.Bytes(t.seed, t.at(j))
		p := h & mask
		for slots[p] != 0 {
			p = (p + 1) & mask
		}
		slots[p] = slot
	}
	t.slots = slots
}

// name gives every task its name: its ID, unquoted as gonum's decoder
// unquotes it, the bare ones sharing one string.
func (t *dotNames) name(tasks []models.Task) {
	all := string(t.text)
	start := uint32(0)
	for i := range tasks {
		id := all[start:t.end[i]]
		if t.quoted[i] {
			id = dotUnquote(id)
		}
		tasks[i].Name = id
		start = t.end[i]
	}
}

// dedupEdges keeps one edge per (from, to) pair, where gonum's builder
// keeps it: at the place of its first statement with the data of its last.
// It runs in O(n + e), grouping the edges by their source with a counting
// sort, and returns edges itself when no pair repeats. drops reports a
// repeated edge one of whose statements is marked in carries (an edge
// past its end is not); rep is the pair (from, to) of the first statement
// that repeats an earlier one, or {-1, -1}.
func dedupEdges(n int, edges []models.DAGEdge, carries []bool) (kept []models.DAGEdge, drops bool, rep [2]int) {
	rep = [2]int{-1, -1}
	var repAt int32
	marked := func(i int32) bool { return int(i) < len(carries) && carries[i] }
	start := make([]int32, n+1)
	for _, e := range edges {
		start[e.From+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	order := make([]int32, len(edges))
	fill := make([]int32, n)
	copy(fill, start[:n])
	for i, e := range edges {
		order[fill[e.From]] = int32(i)
		fill[e.From]++
	}
	seenFrom, firstAt := fill, make([]int32, n) // fill is free again: seenFrom[v] = u+1 when u -> v was seen
	clear(seenFrom)
	var dead []bool
	for u := range n {
		for _, i := range order[start[u]:start[u+1]] {
			v := edges[i].To
			if seenFrom[v] == int32(u)+1 {
				if rep[0] < 0 || i < repAt { // the first repeated statement, as gonum's decoder meets it
					rep, repAt = [2]int{u, v}, i
				}
				drops = drops || marked(i) || marked(firstAt[v])
				edges[firstAt[v]].Data = edges[i].Data
				if dead == nil {
					dead = make([]bool, len(edges))
				}
				dead[i] = true
				continue
			}
			seenFrom[v], firstAt[v] = int32(u)+1, i
		}
	}
	if dead == nil {
		return edges, false, rep
	}
	kept = edges[:0]
	for i, e := range edges {
		if !dead[i] {
			kept = append(kept, e)
		}
	}
	return kept, drops, rep
}

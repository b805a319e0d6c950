package dot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

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

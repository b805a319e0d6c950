package schedfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// maxScheduleSize is the size of the largest schedule read from a stream
// (a pipe, a policy's output), in bytes. A regular file may be larger:
// the memory budget bounds it (ReadFileWithin).
const maxScheduleSize = 256 << 20

// Error is an error in a schedule file, at a line and column of it.
// Err is a *models.FieldError when the error is in one field, such as
// "actions[3].node".
type Error struct {
	File   string // the file's path; "" when read from an io.Reader
	Line   int    // 1-based; 0 when no place in the file applies
	Column int    // 1-based, in characters
	Err    error
}

// Error gives the file, line and column, when known, then the error.
func (e *Error) Error() string {
	switch {
	case e.Line == 0 && e.File == "":
		return fmt.Sprintf("schedule: %v", e.Err)
	case e.Line == 0:
		return fmt.Sprintf("schedule %s: %v", e.File, e.Err)
	case e.File == "":
		return fmt.Sprintf("schedule: line %d, column %d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("schedule %s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Read decodes a schedule from JSON, strictly: the input must be one
// JSON object with no unknown or repeated fields, and nothing after it.
// A node (an action's node, from or to) is written as its index or, when p
// is not nil, as the name p gives it (Platform.NodeName); with p nil a name
// is an error. Errors are *Error with the line and column of the
// offending field. Range checks against the platform are left to Replay.
func Read(r io.Reader, p *models.Platform) (*sim.Schedule, error) {
	var size int64 // a bytes.Reader or the like says how much it holds
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	}
	data, err := readLimited(r, size, maxScheduleSize)
	if err != nil {
		return nil, &Error{Err: err}
	}
	return parseSchedule(data, p)
}

// ReadFile reads a schedule JSON file as Read does, within the default
// memory budget (budget.Default); errors name the file.
func ReadFile(path string, p *models.Platform) (*sim.Schedule, error) {
	return ReadFileWithin(path, p, budget.Default())
}

// BytesPerByte is the memory reading, replaying and checking a schedule
// takes per byte of its file (measured: a 17 MiB schedule of 10^5 tasks,
// 250 MB).
const BytesPerByte = 16

// MaxSize is the size of the largest schedule read, in bytes.
const MaxSize = maxScheduleSize

// ReadBytes decodes a schedule from JSON as Read does, from data held
// whole, without copying it.
func ReadBytes(data []byte, p *models.Platform) (*sim.Schedule, error) {
	if len(data) > maxScheduleSize {
		return nil, &Error{Err: fmt.Errorf("larger than %d MiB, the most a schedule file may hold", maxScheduleSize>>20)}
	}
	return parseSchedule(data, p)
}

// ReadFileWithin is ReadFile within the memory budget b: a file whose
// schedule would need more is refused before it is read.
func ReadFileWithin(path string, p *models.Platform, b budget.Bytes) (*sim.Schedule, error) {
	s, err := readFile(path, p, b)
	if e, ok := err.(*Error); ok {
		e.File = path
	}
	return s, err
}

// readFile is ReadFileWithin without the file's name in errors.
func readFile(path string, p *models.Platform, b budget.Bytes) (*sim.Schedule, error) {
	f, err := b.Open(path, BytesPerByte)
	if budget.IsExceeded(err) {
		return nil, &Error{Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("reading schedule: %w", err)
	}
	defer f.Close()
	var size int64
	if st, ok := f.(interface{ Stat() (os.FileInfo, error) }); ok {
		if info, err := st.Stat(); err == nil {
			size = info.Size()
		}
	}
	// A regular file is bounded by the budget alone, which Open checked:
	// whatever netsched run --out writes within a budget, verify reads
	// within it.
	data, err := readLimited(f, size, max(size, maxScheduleSize))
	if err != nil {
		return nil, &Error{Err: err}
	}
	return parseSchedule(data, p)
}

// readLimited reads all of r, expected to hold size bytes (0: unknown),
// refusing more than limit bytes.
func readLimited(r io.Reader, size, limit int64) ([]byte, error) {
	tooLarge := fmt.Errorf("larger than %d MiB, the most a schedule file may hold", limit>>20)
	if size > limit {
		return nil, tooLarge
	}
	var buf bytes.Buffer
	buf.Grow(int(size) + 1)
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	if int64(buf.Len()) > limit {
		return nil, tooLarge
	}
	return buf.Bytes(), nil
}

// parseSchedule decodes the schedule in data: by the fast scanner when
// data is a valid schedule it handles, else by walking the decoder's
// tokens, which places the error exactly.
func parseSchedule(data []byte, p *models.Platform) (*sim.Schedule, error) {
	if s, ok := scanSchedule(data, p); ok {
		return s, nil
	}
	return parseScheduleTokens(data, p)
}

// parseScheduleTokens decodes the schedule in data by walking the tokens
// of encoding/json's Decoder.
func parseScheduleTokens(data []byte, p *models.Platform) (*sim.Schedule, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	r := &reader{data: data, dec: dec, nodes: nodeNames{p: p}}
	return r.schedule()
}

// reader walks the tokens of a schedule file, keeping the file's bytes to
// place errors in it.
type reader struct {
	data    []byte
	dec     *json.Decoder
	nodes   nodeNames
	scratch []int // an After list being read
}

// place names a value in errors: the field key of the action numbered
// action, or the top-level field key when action < 0; elem >= 0 is an
// element of the field's value.
type place struct {
	action int
	key    string
	elem   int
}

// String is the place's dotted path, such as "actions[3].after[0]".
func (w place) String() string {
	path := w.key
	if w.action >= 0 {
		path = fmt.Sprintf("actions[%d].%s", w.action, w.key)
	}
	if w.elem >= 0 {
		path = fmt.Sprintf("%s[%d]", path, w.elem)
	}
	return path
}

// at returns an error at byte offset off of the file: the start of the
// first token at or after off.
func (r *reader) at(off int64, err error) *Error {
	i := int(min(max(off, 0), int64(len(r.data))))
	for i < len(r.data) && strings.IndexByte(" \t\r\n,:", r.data[i]) >= 0 {
		i++
	}
	before := r.data[:i]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return &Error{Line: bytes.Count(before, []byte{'\n'}) + 1,
		Column: utf8.RuneCount(before[lineStart:]) + 1, Err: err}
}

// fieldErr returns a *models.FieldError for place w at offset off.
func (r *reader) fieldErr(off int64, w place, format string, args ...any) error {
	return r.at(off, &models.FieldError{Path: w.String(), Msg: fmt.Sprintf(format, args...)})
}

// token reads the next token; a syntax error or the end of the file is an
// error at the place where the token should start.
func (r *reader) token() (json.Token, int64, error) {
	off := r.dec.InputOffset()
	t, err := r.dec.Token()
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, off, r.at(int64(len(r.data)), errors.New("the file ends before the schedule does"))
	case err != nil: // a *json.SyntaxError, whose offset is not into the file
		return nil, off, r.at(off, errors.New(err.Error()))
	}
	return t, off, nil
}

// describe names a token's value for an error message.
func describe(t json.Token) string {
	switch v := t.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '[' {
			return "a list"
		}
		return "an object"
	case string:
		if utf8.RuneCountInString(v) > 40 {
			v = string([]rune(v)[:40]) + "…"
		}
		return strconv.Quote(v)
	}
	return fmt.Sprint(t)
}

package models

import (
	"fmt"
	"strconv"
)

// FieldError is a validation error tied to one field of a model, named by a
// dotted path such as "platform.crossbar.processors[2].gamma". Loaders use the
// path to point the user at the line of the input file that holds the field.
type FieldError struct {
	Path string // dotted path of the offending field
	Msg  string // what is wrong with it
	Err  error  // the error Msg tells of, when it tells of one (such as a *budget.ExceededError); nil otherwise
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

// Unwrap returns the error the message tells of, or nil.
func (e *FieldError) Unwrap() error { return e.Err }

// FieldWarning is what a loader accepted but did not use, such as a DOT
// file's Graphviz attributes, tied to the field that named the input as a
// FieldError is.
type FieldWarning struct {
	Path string // dotted path of the field
	Msg  string // what was ignored
}

func (w FieldWarning) String() string { return w.Path + ": " + w.Msg }

// fieldErr builds a *FieldError at path with a formatted message, which
// wraps the first error among args. It keeps only the joined string, so
// the pieces of path stay on the stack.
func fieldErr(path fieldPath, format string, args ...any) *FieldError {
	e := &FieldError{Path: path.String(), Msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if err, ok := a.(error); ok {
			e.Err = err
			break
		}
	}
	return e
}

// fieldPath is a dotted path such as "platform.crossbar.processors[2].gamma"
// kept in pieces on the validators' stacks and joined only when an error
// names it, since sweeps validate every point and valid input names none.
// Each piece extends its parent by a field name ("gamma"), an index ("[2]")
// or an indexed field ("processors[2]"). Nothing may keep a fieldPath, or a
// pointer to one, beyond the call that made it: errors keep its String.
type fieldPath struct {
	parent  *fieldPath
	name    string // field name; "" with indexed for a bare index
	idx     int    // the index, if indexed
	indexed bool
}

// rootPath is the path an exported Validate is given, as one piece.
func rootPath(path string) fieldPath { return fieldPath{name: path} }

// field extends p by a field name.
func (p *fieldPath) field(name string) fieldPath { return fieldPath{parent: p, name: name} }

// index extends p by an index, "[i]".
func (p *fieldPath) index(i int) fieldPath { return fieldPath{parent: p, idx: i, indexed: true} }

// elem extends p by an indexed field, "name[i]".
func (p *fieldPath) elem(name string, i int) fieldPath {
	return fieldPath{parent: p, name: name, idx: i, indexed: true}
}

// String joins the pieces: a field name after a dot (none at the start), an
// index in brackets.
func (p *fieldPath) String() string {
	var buf [64]byte
	return string(p.appendTo(buf[:0]))
}

// appendTo appends the joined path to b.
func (p *fieldPath) appendTo(b []byte) []byte {
	if p.parent != nil {
		b = p.parent.appendTo(b)
	}
	if p.name != "" || !p.indexed {
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, p.name...)
	}
	if p.indexed {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(p.idx), 10)
		b = append(b, ']')
	}
	return b
}

// ParseError is an error in an input file, tied to a line (0 if the error
// concerns the file as a whole) and, in a structured file such as a JSON
// document, to the dotted path of the offending field ("" if none).
type ParseError struct {
	File string
	Line int
	Path string
	Msg  string
}

func (e *ParseError) Error() string {
	msg := e.Msg
	if e.Path != "" {
		msg = e.Path + ": " + msg
	}
	if e.Line == 0 {
		return e.File + ": " + msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
}

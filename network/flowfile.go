package network

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// Instance is a flow file's contents: a network and timed flows on it.
type Instance struct {
	Network
	Flows []Flow
}

// FileError is an error in a flow file, at a line and column of it, in
// the field Path ("flows[3][4][1]").
type FileError struct {
	File   string // "" when read from an io.Reader
	Line   int    // 1-based; 0 when no place applies
	Column int
	Path   string
	Err    error
}

// Error gives the file, line and column when known, the field, then the
// error.
func (e *FileError) Error() string {
	where := "flows file"
	if e.File != "" {
		where += " " + e.File
	}
	if e.Line > 0 {
		where += fmt.Sprintf(":%d:%d", e.Line, e.Column)
	}
	if e.Path != "" {
		return fmt.Sprintf("%s: %s: %v", where, e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %v", where, e.Err)
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// maxFileSize is the largest flow file read, as for schedule files: about
// 5·10^6 flows, which take about 1 GB once read.
const maxFileSize = 256 << 20

// ReadFile reads a flow file (see Read).
func ReadFile(path string) (*Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &FileError{File: path, Err: err}
	}
	defer f.Close()
	in, err := Read(f)
	var fe *FileError
	if errors.As(err, &fe) {
		fe.File = path
	}
	return in, err
}

// Read decodes a flow file, strictly:
//
//	{"hosts": H, "links": [[bandwidth_bytes_per_s, latency_s], ...],
//	 "flows": [[src_host, dst_host, size_bytes, start_s, [link ids of the route]], ...]}
//
// Other top-level keys are skipped. Every value is checked: hosts and
// link ids are integers in range, bandwidths finite and > 0, latencies,
// sizes and starts finite and ≥ 0, routes not empty and without a
// repeated link. Errors are *FileError with the line, column and field.
func Read(r io.Reader) (*Instance, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, &FileError{Err: err}
	}
	if len(data) > maxFileSize {
		return nil, &FileError{Err: fmt.Errorf("larger than %d MiB, the most a flow file may hold", maxFileSize>>20)}
	}
	p := &fileParser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	in, err := p.instance()
	if err != nil {
		return nil, err
	}
	return in, nil
}

// fileParser walks a flow file's JSON tokens.
type fileParser struct {
	data []byte
	dec  *json.Decoder
	// where each flow's fields are, to place errors found once the links are known
	flowAt  [][5]int64
	routeAt [][]int64
}

func (p *fileParser) errAt(off int64, path string, format string, args ...any) error {
	line, col := 1, 1
	for _, c := range p.data[:min(off, int64(len(p.data)))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &FileError{Line: line, Column: col, Path: path, Err: fmt.Errorf(format, args...)}
}

// offset is where the next token starts (after white space and a comma or
// colon).
func (p *fileParser) offset() int64 {
	off := p.dec.InputOffset()
	for off < int64(len(p.data)) {
		switch p.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *fileParser) token(path string) (json.Token, int64, error) {
	off := p.offset()
	t, err := p.dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, off, p.errAt(off, path, "%v", err)
	}
	return t, off, nil
}

func (p *fileParser) delim(path string, want json.Delim, what string) (int64, error) {
	t, off, err := p.token(path)
	if err != nil {
		return off, err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return off, p.errAt(off, path, "want %s, got %s", what, describe(t))
	}
	return off, nil
}

func describe(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return strconv.Quote(v.String())
	case json.Number:
		return "the number " + v.String()
	case string:
		return "the string " + strconv.Quote(v)
	case bool:
		return fmt.Sprintf("%v", v)
	case nil:
		return "null"
	}
	return fmt.Sprint(t)
}

func (p *fileParser) number(path string) (float64, int64, error) {
	t, off, err := p.token(path)
	if err != nil {
		return 0, off, err
	}
	n, ok := t.(json.Number)
	if !ok {
		return 0, off, p.errAt(off, path, "want a number, got %s", describe(t))
	}
	x, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(x, 0) {
		return 0, off, p.errAt(off, path, "%s is not a finite number", n)
	}
	return x, off, nil
}

func (p *fileParser) integer(path string) (int, int64, error) {
	x, off, err := p.number(path)
	if err != nil {
		return 0, off, err
	}
	if x != math.Trunc(x) {
		return 0, off, p.errAt(off, path, "want an integer, got %v", x)
	}
	if math.Abs(x) > 1<<31 {
		return 0, off, p.errAt(off, path, "%v is too large: at most %d", x, 1<<31)
	}
	return int(x), off, nil
}

func (p *fileParser) instance() (*Instance, error) {
	in := &Instance{}
	if _, err := p.delim("", '{', "an object"); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for p.dec.More() {
		t, off, err := p.token("")
		if err != nil {
			return nil, err
		}
		key := t.(string)
		if seen[key] && (key == "hosts" || key == "links" || key == "flows") {
			return nil, p.errAt(off, key, "given twice")
		}
		seen[key] = true
		switch key {
		case "hosts":
			var hoff int64
			in.Hosts, hoff, err = p.integer("hosts")
			if err == nil && in.Hosts < 0 {
				err = p.errAt(hoff, "hosts", "%d is negative", in.Hosts)
			}
		case "links":
			in.Links, err = p.links()
		case "flows":
			in.Flows, err = p.flows()
		default:
			var skip json.RawMessage
			if err = p.dec.Decode(&skip); err != nil {
				err = p.errAt(p.offset(), key, "%v", err)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if _, err := p.delim("", '}', `"}"`); err != nil {
		return nil, err
	}
	off := p.offset()
	if t, err := p.dec.Token(); err != io.EOF {
		if err == nil {
			return nil, p.errAt(off, "", "%s after the object", describe(t))
		}
		return nil, p.errAt(off, "", "after the object: %v", err)
	}
	for _, key := range []string{"hosts", "links", "flows"} {
		if !seen[key] {
			return nil, &FileError{Path: key, Err: errors.New("missing")}
		}
	}
	return in, p.check(in)
}

// array calls elem for each element of an array at path.
func (p *fileParser) array(path string, elem func(i int, path string) error) error {
	if _, err := p.delim(path, '[', "an array"); err != nil {
		return err
	}
	for i := 0; p.dec.More(); i++ {
		if err := elem(i, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	_, err := p.delim(path, ']', "the end of the array")
	return err
}

// tuple reads an array of exactly len(fields) elements.
func (p *fileParser) tuple(path, what string, fields ...func(path string) error) error {
	open, err := p.delim(path, '[', what)
	if err != nil {
		return err
	}
	for i, f := range fields {
		if !p.dec.More() {
			return p.errAt(open, path, "want %s, got %d elements", what, i)
		}
		if err := f(fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	if p.dec.More() {
		return p.errAt(p.offset(), path, "want %s, got more than %d elements", what, len(fields))
	}
	_, err = p.delim(path, ']', "the end of the array")
	return err
}

func (p *fileParser) links() ([]Link, error) {
	var links []Link
	err := p.array("links", func(i int, path string) error {
		var l Link
		err := p.tuple(path, "[bandwidth, latency]",
			func(path string) error {
				x, off, err := p.number(path)
				if err == nil && !(x > 0) {
					err = p.errAt(off, path, "bandwidth must be > 0, got %v", x)
				}
				l.Bandwidth = x
				return err
			},
			func(path string) error {
				x, off, err := p.number(path)
				if err == nil && !(x >= 0) {
					err = p.errAt(off, path, "latency must be >= 0, got %v", x)
				}
				l.Latency = x
				return err
			})
		links = append(links, l)
		return err
	})
	return links, err
}

func (p *fileParser) flows() ([]Flow, error) {
	var flows []Flow
	err := p.array("flows", func(i int, path string) error {
		var f Flow
		var at [5]int64
		var routeAt []int64
		intField := func(k int, dst *int) func(string) error {
			return func(path string) error {
				var err error
				*dst, at[k], err = p.integer(path)
				return err
			}
		}
		numField := func(k int, dst *float64) func(string) error {
			return func(path string) error {
				var err error
				*dst, at[k], err = p.number(path)
				return err
			}
		}
		route := func(path string) error {
			at[4] = p.offset()
			f.Route = []int{}
			return p.array(path, func(_ int, path string) error {
				l, off, err := p.integer(path)
				f.Route = append(f.Route, l)
				routeAt = append(routeAt, off)
				return err
			})
		}
		err := p.tuple(path, "[src, dst, size, start, route]",
			intField(0, &f.Src), intField(1, &f.Dst), numField(2, &f.Size), numField(3, &f.Start), route)
		flows = append(flows, f)
		p.flowAt = append(p.flowAt, at)
		p.routeAt = append(p.routeAt, routeAt)
		return err
	})
	return flows, err
}

// check validates every flow against the network, placing the error at
// the offending field.
func (p *fileParser) check(in *Instance) error {
	for i, f := range in.Flows {
		var fe *FlowError
		if err := in.ValidateFlow(f); !errors.As(err, &fe) {
			continue
		}
		off := p.flowAt[i][fe.Field]
		if fe.Elem >= 0 && fe.Elem < len(p.routeAt[i]) {
			off = p.routeAt[i][fe.Elem]
		}
		return p.errAt(off, fmt.Sprintf("flows[%d]%s", i, fe.Path()), "%s", fe.Msg)
	}
	return nil
}

// Write writes in as a flow file, one flow per line, every number exact
// (the shortest decimal that reads back as the same float64).
func Write(w io.Writer, in *Instance) error {
	bw := bufio.NewWriter(w)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(bw, "{\"hosts\": %d,\n \"links\": [", in.Hosts)
	for i, l := range in.Links {
		if i > 0 {
			bw.WriteString(", ")
		}
		fmt.Fprintf(bw, "[%s, %s]", g(l.Bandwidth), g(l.Latency))
	}
	bw.WriteString("],\n \"flows\": [")
	for i, f := range in.Flows {
		if i > 0 {
			bw.WriteString(",\n  ")
		}
		fmt.Fprintf(bw, "[%d, %d, %s, %s, [", f.Src, f.Dst, g(f.Size), g(f.Start))
		for k, l := range f.Route {
			if k > 0 {
				bw.WriteString(", ")
			}
			bw.WriteString(strconv.Itoa(l))
		}
		bw.WriteString("]]")
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

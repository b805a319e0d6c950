package external

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"
)

// Bounds on what an error keeps of a process's standard error.
const (
	tailLines    = 5        // lines
	tailLineMax  = 300      // characters per line
	tailKeep     = 16 << 10 // bytes kept of the stream's end
	maxStdoutLen = 256 << 20
)

// tail keeps the end of a stream, such as a process's standard error,
// for error messages. It is safe for concurrent use.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

// Write keeps the last tailKeep bytes written.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2*tailKeep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailKeep:]...)
	}
	return len(p), nil
}

// lines returns the last non-blank lines written, at most tailLines, each
// cut to tailLineMax characters.
func (t *tail) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	rest := bytes.TrimRight(t.buf, " \t\r\n")
	for len(out) < tailLines && len(rest) > 0 {
		i := bytes.LastIndexByte(rest, '\n')
		line := strings.TrimSpace(strings.ToValidUTF8(string(rest[i+1:]), "\uFFFD"))
		rest = rest[:max(i, 0)]
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > tailLineMax {
			line = string([]rune(line)[:tailLineMax]) + "…"
		}
		out = append(out, line)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// output collects a process's standard output up to a limit, in chunks,
// and fails the write that would pass it: a process that prints without
// end costs at most the limit, and the copy Bytes makes.
type output struct {
	chunks [][]byte
	n      int
	limit  int
	over   error // what a write past the limit returns
	passed bool  // whether a write would have passed the limit
}

// outputChunk is the size of output's chunks.
const outputChunk = 1 << 20

func (o *output) Write(p []byte) (int, error) {
	if o.n+len(p) > o.limit {
		o.passed = true
		return 0, o.over
	}
	written := len(p)
	o.n += written
	for len(p) > 0 {
		if k := len(o.chunks); k == 0 || len(o.chunks[k-1]) == cap(o.chunks[k-1]) {
			o.chunks = append(o.chunks, make([]byte, 0, min(outputChunk, o.limit)))
		}
		last := &o.chunks[len(o.chunks)-1]
		m := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:m]...)
		p = p[m:]
	}
	return written, nil
}

// Bytes returns what was written, in one slice, and lets go of the chunks.
func (o *output) Bytes() []byte {
	if len(o.chunks) == 1 {
		return o.chunks[0]
	}
	b := make([]byte, 0, o.n)
	for _, c := range o.chunks {
		b = append(b, c...)
	}
	o.chunks = nil
	return b
}

package policies

import (
	"bytes"
	"context"
	"io"
	"sync"
)

type progressKey struct{}

// WithProgress returns a context under which a policy that searches for long
// (the optimal broadcast, say) writes progress lines to w. runs.Runner
// starts each line with the label of the run's policy entry, so that the
// lines of two variants of one policy can be told apart.
func WithProgress(ctx context.Context, w io.Writer) context.Context {
	return context.WithValue(ctx, progressKey{}, w)
}

// ProgressTo is the progress writer of a context, nil if none.
func ProgressTo(ctx context.Context) io.Writer {
	w, _ := ctx.Value(progressKey{}).(io.Writer)
	return w
}

// Labelled returns a writer that writes to w what it is given, each line
// started with label and ": ". It is safe for concurrent use; each Write
// reaches w as one call.
func Labelled(w io.Writer, label string) io.Writer {
	return &labelled{w: w, prefix: []byte(label + ": "), atStart: true}
}

// labelled is the writer Labelled returns.
type labelled struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  []byte
	atStart bool // the next byte written starts a line
	buf     []byte
}

// Write prefixes every line that p starts.
func (l *labelled) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = l.buf[:0]
	for rest := p; len(rest) > 0; {
		if l.atStart {
			l.buf = append(l.buf, l.prefix...)
		}
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		l.buf = append(l.buf, line...)
		l.atStart = line[len(line)-1] == '\n'
		rest = rest[len(line):]
	}
	if _, err := l.w.Write(l.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

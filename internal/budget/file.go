package budget

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Open opens a file to be read whole into memory, at perByte bytes of
// memory for each byte read, within the budget. A regular file too large
// is refused before anything is read; a device (such as /dev/zero) is
// refused; from a pipe, reading fails once it has read more than fits.
func (b Bytes) Open(path string, perByte float64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	switch mode := st.Mode(); {
	case mode&os.ModeDevice != 0:
		f.Close()
		return nil, fmt.Errorf("%s is a device, not a file", path)
	case mode.IsRegular():
		if err := b.Check(fmt.Sprintf("a file of %s needs", Format(float64(st.Size()))), float64(st.Size())*perByte); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	if b <= 0 {
		return f, nil
	}
	return &limited{f: f, left: int64(float64(b) / perByte), b: b, perByte: perByte}, nil
}

// ReadFile reads a whole file within the budget (see Open).
func (b Bytes) ReadFile(path string, perByte float64) ([]byte, error) {
	r, err := b.Open(path, perByte)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// limited reads from a pipe until more than fits in the budget.
type limited struct {
	f       *os.File
	left    int64
	read    int64
	b       Bytes
	perByte float64
}

func (l *limited) Read(p []byte) (int, error) {
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.f.Read(p)
	l.read += int64(n)
	l.left -= int64(n)
	if l.left < 0 {
		return n, &ExceededError{What: fmt.Sprintf("more than %s read, at %g bytes of memory per byte read, need", Format(float64(l.read-1)), l.perByte),
			Need: float64(l.read) * l.perByte, Budget: l.b}
	}
	return n, err
}

func (l *limited) Close() error { return l.f.Close() }

// IsExceeded reports whether err says a budget was exceeded.
func IsExceeded(err error) bool {
	var e *ExceededError
	return errors.As(err, &e)
}

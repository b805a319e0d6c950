// Package atomicfile writes a file whole or not at all: into a temporary
// file beside it, renamed over it only once everything is written and
// synced, so that a reader, or a run killed half-way, sees either the old
// file or the whole new one and never a part.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Write writes path with write. The file is created with mode 0666 less
// the process's umask, as os.Create does. On any error the temporary file
// is removed and path is left as it was.
func Write(path string, write func(io.Writer) error) (err error) {
	f, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// createTemp creates a new file beside path, named after it, with mode
// 0666 less the umask (os.CreateTemp would give 0600).
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for range 100 {
		name := filepath.Join(dir, TempPrefix(base)+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("no free temporary name beside %s", path)
}

// TempPrefix is how the temporary files of a file named base begin, so
// that a caller may clear those a killed process left.
func TempPrefix(base string) string { return "." + base + ".tmp-" }

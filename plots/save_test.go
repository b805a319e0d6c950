package plots

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// failingWriterTo writes half of its bytes, then fails.
type failingWriterTo []byte

func (f failingWriterTo) WriteTo(w io.Writer) (int64, error) {
	n, _ := w.Write(f[:len(f)/2])
	return int64(n), errors.New("disk full")
}

type bytesWriterTo []byte

func (b bytesWriterTo) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(b)
	return int64(n), err
}

func TestWriteAtomicKeepsOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.png")
	if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeAtomic(path, failingWriterTo("new contents that never finish"))
	if err == nil {
		t.Fatal("writeAtomic with a failing writer: got nil error")
	}
	got, _ := os.ReadFile(path)
	if string(got) != "old contents" {
		t.Errorf("after a failed write the file holds %q, want the old contents", got)
	}
	assertDirHolds(t, dir, "fig.png")
}

func TestWriteAtomicReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.svg")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(path, bytesWriterTo("new")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "new" {
		t.Errorf("file holds %q, want %q", got, "new")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (err %v), want 0644", fi.Mode().Perm(), err)
	}
	assertDirHolds(t, dir, "fig.svg")
}

func TestWriteAtomicMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "fig.png")
	if err := writeAtomic(path, bytesWriterTo("x")); err == nil {
		t.Fatal("write into a missing directory: got nil error")
	}
}

// assertDirHolds fails unless dir holds exactly the named files (no
// leftover temporary files).
func assertDirHolds(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Fatalf("%s holds %q, want %q", dir, got, names)
	}
	for i := range got {
		if got[i] != names[i] {
			t.Fatalf("%s holds %q, want %q", dir, got, names)
		}
	}
}

func TestNewCanvasRejectsHugePNG(t *testing.T) {
	// 100 × 100 inches at 150 dpi is 225 million pixels.
	if _, err := newCanvas("huge.png", 100*vg.Inch, 100*vg.Inch, 150); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("huge PNG: error %v, want “too large”", err)
	}
	if _, err := newCanvas("huge.svg", 100*vg.Inch, 100*vg.Inch, 150); err != nil {
		t.Errorf("huge SVG: %v", err)
	}
}

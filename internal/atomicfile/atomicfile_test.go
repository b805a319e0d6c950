//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWrite writes a file, fails to replace it, and checks its mode and
// that no temporary file is left.
func TestWrite(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "a,b\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") }); err == nil {
		t.Fatal("a failed write reported no error")
	}
	b, _ := os.ReadFile(path)
	if string(b) != "a,b\n" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0666 less the umask 022", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

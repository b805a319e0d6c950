//go:build unix

package budget

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpenPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo: %v", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		w.Write(make([]byte, 1<<20)) // stops with EPIPE once the reader gives up
	}()
	if _, err := Bytes(10_000).ReadFile(fifo, 100); err == nil || !strings.Contains(err.Error(), "more than 100 B read") {
		t.Errorf("1 MiB from a pipe at 100× within 10 kB: %v, want refused after 100 B", err)
	}
}

package schedfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
)

// TestLargeFileWithinBudget: a regular schedule file is bounded by the
// memory budget, not by the size of the largest schedule read from a
// stream, so that verify reads what netsched run --out wrote within the
// same budget. A file of 257 MiB (sparse: zeros) is refused by a budget
// of 1 GiB before it is read, naming the flag, and read within a budget
// of 8 GiB, whose parser then finds the zeros.
func TestLargeFileWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 257 MiB; skipped with -short")
	}
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxScheduleSize + 1<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFileWithin(path, namedCrossbar(), 1<<30)
	if !budget.IsExceeded(err) || !strings.Contains(err.Error(), "--max-memory") {
		t.Errorf("within 1 GiB: %v; want the budget exceeded", err)
	}
	_, err = ReadFileWithin(path, namedCrossbar(), 8<<30)
	if err == nil || budget.IsExceeded(err) || strings.Contains(err.Error(), "larger than") {
		t.Errorf("within 8 GiB: %v; want a syntax error, not the size", err)
	}
}

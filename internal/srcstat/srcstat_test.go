package srcstat

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStat walks a folder with a hidden and a testdata folder, and fails on
// a root that does not exist.
func TestStat(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "go.mod", ".git/x.go", "testdata/y.go", "sub/z.go"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Stat(dir, ".go", ".mod"); err != nil {
		t.Errorf("Stat: %v", err)
	}
	if err := Stat(filepath.Join(dir, "missing"), ".go"); err == nil {
		t.Error("Stat of a missing root: no error")
	}
}

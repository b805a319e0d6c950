package tracefile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/tracefile"
)

func TestFormatOf(t *testing.T) {
	tests := []struct {
		path string
		want tracefile.Format
		ok   bool
	}{
		{"run.trace.json", tracefile.JSON, true},
		{"dir/x.paje", tracefile.Paje, true},
		{"x.PAJE", "", false},
		{"x.trace", "", false},
		{"json", "", false},
	}
	for _, tt := range tests {
		got, err := tracefile.FormatOf(tt.path)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("FormatOf(%q) = %q, %v; want %q, ok %v", tt.path, got, err, tt.want, tt.ok)
		}
	}
}

func TestSave(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0"}, Intervals: []sim.Interval{{Kind: sim.KindCompute, End: 1, Label: "A"}}}
	dir := t.TempDir()
	for _, name := range []string{"t.json", "t.paje"} {
		path := filepath.Join(dir, name)
		if err := tracefile.Save(tr, "title", path); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"A"`) {
			t.Errorf("%s lacks the interval:\n%s", name, b)
		}
	}
	if err := tracefile.Save(tr, "", filepath.Join(dir, "t.txt")); err == nil {
		t.Error("Save to a .txt file: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "t.txt")); !os.IsNotExist(err) {
		t.Errorf("Save to a .txt file left a file (%v)", err)
	}
}

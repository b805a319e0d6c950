package stg

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/models"
)

func TestReadSTGSample(t *testing.T) {
	for _, keep := range []bool{false, true} {
		s, err := ReadFile("testdata/sample.stg", Options{KeepDummies: keep})
		if err != nil {
			t.Fatal(err)
		}
		wantTasks, wantEdges := 10, 13
		if keep {
			wantTasks, wantEdges = 12, 15 // + T0 → T1 and T10 → T11
		}
		if s.Tasks != 10 || len(s.DAG.Tasks) != wantTasks || len(s.DAG.Edges) != wantEdges {
			t.Errorf("keep=%v: n=%d, %d tasks, %d edges; want 10, %d, %d", keep, s.Tasks, len(s.DAG.Tasks), len(s.DAG.Edges), wantTasks, wantEdges)
		}
		if !s.HasCPLength || s.CPLength != 40 {
			t.Errorf("CP comment: %v %v, want 40", s.HasCPLength, s.CPLength)
		}
		// T1(3) → T3(4) → T7(20) → T9(5) → T10(8), worked out by hand.
		if cp, err := s.DAG.CriticalPath(); err != nil || cp != 40 {
			t.Errorf("keep=%v: critical path %v, %v; want 40", keep, cp, err)
		}
		if err := s.DAG.Validate("dag"); err != nil {
			t.Error(err)
		}
		first := s.DAG.Tasks[0].Name
		if want := map[bool]string{false: "T1", true: "T0"}[keep]; first != want {
			t.Errorf("keep=%v: first task %q, want %q", keep, first, want)
		}
	}
}

func TestReadSTGErrors(t *testing.T) {
	tests := []struct {
		file string
		line int
		msg  string
	}{
		{"cycle.stg", 5, "cycle"},
		{"missing-pred.stg", 11, "predecessor 42 is not a task"},
		{"count-mismatch.stg", 13, "announces 11 tasks"},
		{"pred-count.stg", 10, "announces 3 predecessors but lists 2"},
		{"out-of-order.stg", 7, "out of order"},
	}
	for _, tt := range tests {
		path := filepath.Join("testdata", tt.file)
		_, err := ReadFile(path, Options{})
		var pe *models.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *ParseError", tt.file, err)
			continue
		}
		if pe.File != path || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
			t.Errorf("%s: got %q (line %d), want line %d and %q", tt.file, err, pe.Line, tt.line, tt.msg)
		}
	}
}

func TestReadSTGMalformed(t *testing.T) {
	for _, in := range []string{"", "# only comments\n", "x\n", "1\n0 0 0\n1 a 1 0\n2 0 1 1\n", "1\n0 0 0\n1 1\n"} {
		if _, err := Read(strings.NewReader(in), "in.stg", Options{}); err == nil {
			t.Errorf("%q: no error", in)
		} else if !strings.HasPrefix(err.Error(), "in.stg") {
			t.Errorf("%q: error %q does not name the file", in, err)
		}
	}
}

// TestSTGCriticalPaths recomputes the weighted critical path of every
// bundled STG file and compares it with the file's "# CP Length" comment.
func TestSTGCriticalPaths(t *testing.T) {
	dir := shareddata.STGDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "rand*", "*.stg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("STG data absent: no rand*/*.stg under %s", dir)
	}
	for _, f := range files {
		s, err := ReadFile(f, Options{KeepDummies: true})
		if err != nil {
			t.Error(err)
			continue
		}
		if len(s.DAG.Tasks) != s.Tasks+2 {
			t.Errorf("%s: %d tasks, want %d + 2 dummies", f, len(s.DAG.Tasks), s.Tasks)
		}
		cp, err := s.DAG.CriticalPath()
		if err != nil || !s.HasCPLength || cp != s.CPLength {
			t.Errorf("%s: critical path %v (%v), comment says %v (%v)", f, cp, err, s.CPLength, s.HasCPLength)
		}
	}
	t.Logf("%d STG files checked", len(files))
}

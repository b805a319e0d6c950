package sweep

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestJournalRecord checks that a row recorded in the journal comes back,
// from its cells and from the line written, as a resumed sweep reads it,
// and that a row the journal cannot hold is an error, not a panic.
func TestJournalRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.partial")
	jr, _, err := openJournal(path, "fp")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{jr: jr}
	enc := newJournalEncoder()
	row := &Row{Claimed: 1.5, Simulated: math.NaN(), Gap: math.NaN(), NViolations: 2, PlanSeconds: 0.25,
		Metrics: map[string]float64{"T": 3, "R": 72}, Warnings: []string{"a, \"b\"", "two\nlines"}, Error: "x"}
	got, err := rec.record(7, row, enc)
	if err != nil {
		t.Fatal(err)
	}
	if err := jr.close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, line, _ := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\n")
	k, read, err := decodeJournalLine(line)
	if err != nil || k != 7 {
		t.Fatalf("decode %q: job %d, %v", line, k, err)
	}
	if strings.Join(read.Warnings, "|") != "a, \"b\"|two lines" || !sameRow(got, read) {
		t.Errorf("recorded row %+v, read back from the file %+v", got, read)
	}
	bad := &Row{Policy: "p", Metrics: map[string]float64{"a;b": 1}}
	if _, err := rec.record(8, bad, enc); err == nil || !strings.Contains(err.Error(), "p: the journal cannot hold") {
		t.Errorf("metric name with ';': error %v", err)
	}
}

// sameRow compares rows as the journal keeps them, NaN equal to NaN.
func sameRow(a, b *Row) bool {
	eq := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	return eq(a.Claimed, b.Claimed) && eq(a.Simulated, b.Simulated) && eq(a.Gap, b.Gap) &&
		a.NViolations == b.NViolations && a.PlanSeconds == b.PlanSeconds && a.Error == b.Error &&
		reflect.DeepEqual(a.Metrics, b.Metrics) && reflect.DeepEqual(a.Warnings, b.Warnings)
}

// A row replayed under sharing keeps its sharing figures through the
// journal, and a row without them reads back without.
func TestJournalSharing(t *testing.T) {
	for _, row := range []*Row{
		{Claimed: 2, Simulated: 2, Gap: 0, Verified: true, Sharing: "cm02", Shared: 2.5, SharedRatio: 1.25},
		{Claimed: 2, Simulated: 2, Gap: 0, Verified: true},
	} {
		k, read, err := rowFromFields(journalFields(3, row))
		if err != nil || k != 3 {
			t.Fatalf("job %d, %v", k, err)
		}
		if read.Sharing != row.Sharing || read.Shared != row.Shared || read.SharedRatio != row.SharedRatio {
			t.Errorf("read back %q %v %v, want %q %v %v", read.Sharing, read.Shared, read.SharedRatio, row.Sharing, row.Shared, row.SharedRatio)
		}
	}
}

package broadcast

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/models"
)

// TestTimeExperiment runs Tables 5–6 at model level: every time is a
// replayable schedule's claim, and the optimum is never beaten by LAM
// (which moves the whole message) from the same root.
func TestTimeExperiment(t *testing.T) {
	rows, err := TimeExperiment(context.Background(), models.DefaultNetParams(), Rule2004, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 9 {
		t.Fatalf("%d rows, want the 9 networks of Tables 5–6", len(rows))
	}
	for _, r := range rows {
		if !r.Proven || r.Optimal > r.LAMRoot0*(1+1e-9) || r.Optimal <= 0 {
			t.Errorf("Fig. %d %s: optimal %g (proven %v), LAM root 0 %g", r.Network.Figure, r.Network.Label, r.Optimal, r.Proven, r.LAMRoot0)
		}
	}
	var b bytes.Buffer
	if err := WriteTimeTables(&b, rows); err != nil || strings.Count(b.String(), "\n") != 11 {
		t.Errorf("table: %v\n%s", err, b.String())
	}
}

// TestSearchExperiment runs Tables 1–4 with every pruning and the bound:
// every cell proves the same optimum per network.
func TestSearchExperiment(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 64 searches")
	}
	opt := DefaultOptions()
	opt.MaxTime = 20 * time.Second
	cells, err := SearchExperiment(context.Background(), models.DefaultNetParams(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 16*4 {
		t.Fatalf("%d cells, want 16 networks × 4 prunings", len(cells))
	}
	for i, c := range cells {
		first := cells[i-i%4].Result.Schedule.Claimed
		if !c.Result.Proven || !approx(c.Result.Schedule.Claimed, first) {
			t.Errorf("Fig. %d %s %s: %g (proven %v), first column %g", c.Network.Figure, c.Network.Label, c.Pruning, c.Result.Schedule.Claimed, c.Result.Proven, first)
		}
	}
	var b bytes.Buffer
	if err := WriteSearchTables(&b, cells); err != nil {
		t.Fatal(err)
	}
	t.Log(b.String())
}

// TestWriteResults regenerates the markdown of Tables 1–6 into the file
// named by NETSCHED_BROADCAST_RESULTS (skipped when unset).
func TestWriteResults(t *testing.T) {
	path := os.Getenv("NETSCHED_BROADCAST_RESULTS")
	if path == "" {
		t.Skip("set NETSCHED_BROADCAST_RESULTS to write the tables")
	}
	ctx := context.Background()
	p := models.DefaultNetParams()
	var b bytes.Buffer
	full, err := SearchExperiment(ctx, p, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("## Tables 1–4, full search (bound, ties, ecef, dive on)\n")
	if err := WriteSearchTables(&b, full); err != nil {
		t.Fatal(err)
	}
	cuts, err := SearchExperiment(ctx, p, CutsOnlyOptions(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n## Tables 1–4, RCut and SCut alone (no bound, no tie order, no starting schedule; 30 s budget per cell)\n")
	if err := WriteSearchTables(&b, cuts); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []Rule{Rule2004, RuleCurrent} {
		rows, err := TimeExperiment(ctx, p, rule, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n## Tables 5–6, model level, ms (MPICH rule " + string(rule) + ")\n\n")
		if err := WriteTimeTables(&b, rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

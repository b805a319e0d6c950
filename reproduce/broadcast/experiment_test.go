package broadcast

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/models"
	bc "github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
)

// TestTimeExperiment runs Tables 5–6 at model level: every time is a
// replayable schedule's claim, and the optimum is never beaten by LAM
// (which moves the whole message) from the same root.
func TestTimeExperiment(t *testing.T) {
	rows, err := TimeExperiment(context.Background(), models.DefaultNetParams(), bc.Rule2004, bc.DefaultOptions())
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
	opt := bc.DefaultOptions()
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

// TestRun runs paper 004's reproduction with a budget of 2,000 nodes per
// search (500,000 in netsched reproduce): every file appears, and Tables
// 5–6, which no budget changes, are the committed ones.
func TestRun(t *testing.T) {
	dir := reproducetest.Run(t, "004", reproduce.Options{Nodes: 2000},
		"tables.md", "gantt-fig14-optimal.png", "gantt-fig14-mpich-binomial.png")
	tables := func(md string) string {
		i := strings.Index(md, "### Tables 5–6")
		if i < 0 {
			t.Fatal("no Tables 5–6")
		}
		return md[i:]
	}
	if tables(reproducetest.Read(t, dir, "tables.md")) != tables(reproducetest.Committed(t, "broadcast", "tables.md")) {
		t.Error("Tables 5–6 differ from results/broadcast/tables.md")
	}
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

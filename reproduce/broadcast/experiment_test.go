package broadcast

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	bc "github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/policies/broadcast/mpi"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
	"github.com/netsched/netsched/trees"
)

// TestTimeExperiment runs Tables 5–6 at model level: every time is a
// replayable schedule's claim, and the optimum is never beaten by LAM
// (which moves the whole message) from the same root.
func TestTimeExperiment(t *testing.T) {
	rows, err := TimeExperiment(context.Background(), trees.DefaultNetParams(), mpi.Rule2004, bc.DefaultOptions())
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
	tab := TimeTable("t", "Table 5", "mpich", rows)
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil || strings.Count(b.String(), "\n") != 10 {
		t.Errorf("table: %v\n%s", err, b.String())
	}
}

// TestSearchExperiment runs Tables 1–4 with every pruning and the bound:
// every cell proves the same optimum per network. Each search has a
// budget of nodes, not of time, far above what any cell takes (all 64
// take about 1 s of CPU), so that a loaded machine cannot stop one.
func TestSearchExperiment(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 64 searches")
	}
	opt := bc.DefaultOptions()
	opt.MaxNodes = 10_000_000
	cells, err := SearchExperiment(context.Background(), trees.DefaultNetParams(), opt, nil)
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
	tables := SearchTables("s", "full", cells)
	if len(tables) != 4 {
		t.Fatalf("%d tables, want Tables 1–4", len(tables))
	}
	for i, tab := range tables {
		var b bytes.Buffer
		if err := tab.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		if want := []int{5, 5, 3, 3}[i] * 4; len(tab.Rows) != want {
			t.Errorf("table %d: %d rows, want %d", i+1, len(tab.Rows), want)
		}
		t.Log(b.String())
	}
}

// TestRun runs paper 004's reproduction with a budget of 2,000 nodes per
// search (500,000 in netsched reproduce): every file appears, and Tables
// 5–6, which no budget changes, are the committed ones.
func TestRun(t *testing.T) {
	dir := reproducetest.Run(t, "004", reproduce.Options{Nodes: 2000},
		"tables.md", "tables5-6.png", "gantt-fig14-optimal.png", "gantt-fig14-mpich-binomial.png")
	tables := func(md string) string {
		i := strings.Index(md, "### Table 5 at model level")
		if i < 0 {
			t.Fatal("no Table 5")
		}
		return md[i:]
	}
	if tables(reproducetest.Read(t, dir, "tables.md")) != tables(reproducetest.Committed(t, "broadcast", "tables.md")) {
		t.Error("Tables 5–6 differ from results/broadcast/tables.md")
	}
}

// TestRunTwice runs paper 004's reproduction twice, with a budget of
// 1,000 nodes per search (5,000 under NETSCHED_SLOW=1; most cells of the
// cuts-only tables stop at it): every file is the same apart from the
// wall-clock columns of its tables, Markdown, CSV and LaTeX alike.
func TestRunTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("runs paper 004 twice")
	}
	opt := reproduce.Options{Nodes: slowtest.Pick[int64](1_000, 5_000)}
	a := reproducetest.Run(t, "004", opt, "tables.md", "tables/search-cuts-table1.csv")
	b := reproducetest.Run(t, "004", opt, "tables.md", "tables/search-cuts-table1.csv")
	if n := reproducetest.SameApartFromClock(t, a, b); n < 25 {
		t.Errorf("compared only %d files", n)
	}
	// The comparison does see a difference outside the clock columns.
	md := reproducetest.Read(t, a, "tables.md")
	if strings.Count(md, reproduce.ClockUnit) < 8 {
		t.Errorf("tables.md names %q %d times, want at least once per search table", reproduce.ClockUnit, strings.Count(md, reproduce.ClockUnit))
	}
	changed := strings.Replace(md, "| 2×4 | 8 | off | off | ", "| 2×4 | 8 | off | off | 1", 1)
	if changed == md || reproducetest.MaskClock(changed, "|", "|") == reproducetest.MaskClock(md, "|", "|") {
		t.Error("MaskClock hides a change of nodes explored")
	}
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestOrder: a baseline within 2 % of the optimum is equal to it.
func TestOrder(t *testing.T) {
	for _, c := range []struct {
		baseline, optimum float64
		want              string
	}{{55.2, 32.4, "slower"}, {25.36, 25.36, "equal"}, {25.26, 25.21, "equal"}, {20.7, 23.1, "faster"}, {10.2, 10, "equal"}, {10.21, 10, "slower"}} {
		if got := Order(c.baseline, c.optimum); got != c.want {
			t.Errorf("Order(%v, %v) = %s, want %s", c.baseline, c.optimum, got, c.want)
		}
	}
}

// TestOrderingTable: on hand-made rows, the table says where the model's
// ordering is the paper's, for LAM and MPICH.
func TestOrderingTable(t *testing.T) {
	nets, err := TimeNetworks(trees.DefaultNetParams())
	if err != nil || len(nets) != 9 || nets[5].Label != "2×4×2" || nets[7].Label != "2×3×(1+1)" {
		t.Fatalf("networks %v: %v", nets, err)
	}
	rows := []TimeRow{
		{Network: nets[5], LAMRoot0: 0.02536, MPICHRoot0: 0.04553, Optimal: 0.02536,
			PaperLAM0: 55.2, PaperLAMO: 32.4, PaperMPICH0: 45.9, PaperO: 45.1},
		{Network: nets[7], LAMRoot0: 0.24146, MPICHRoot0: 0.45826, Optimal: 0.16951,
			PaperLAM0: 429.4, PaperLAMO: 185.6, PaperMPICH0: 320, PaperO: 191.4},
	}
	var b bytes.Buffer
	if err := OrderingTable(rows).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	for i, want := range []string{"equal,slower,no,", "slower,slower,yes,"} {
		if !strings.Contains(lines[i+1], want) {
			t.Errorf("row %d: %s, want LAM's columns %q", i, lines[i+1], want)
		}
	}
	if !strings.HasSuffix(lines[1], "slower,equal,no") || !strings.HasSuffix(lines[2], "slower,slower,yes") {
		t.Errorf("MPICH's columns:\n%s", b.String())
	}
}

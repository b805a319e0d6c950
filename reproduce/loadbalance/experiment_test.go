package loadbalance

import (
	"context"
	"math"
	"strings"
	"testing"

	lb "github.com/netsched/netsched/policies/loadbalance"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
)

// TestReproduce runs the reproduction and checks it against what is known
// without it: the paper's rows are the tables of PaperTables, the ideal
// bound of the load sweep is the closed form 700·w / (4 + 3·(1 − s)), no
// makespan is below its bound, and every run was replayed.
func TestReproduce(t *testing.T) {
	seeds := 10
	if testing.Short() {
		seeds = 2
	}
	rep, err := Reproduce(context.Background(), ReproduceOptions{Seeds: seeds})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != len(reproducePolicies) || len(rep.Sweeps) != 3 || len(rep.Fit) == 0 || rep.Verified == 0 {
		t.Fatalf("runs %d, sweeps %d, fit %d, verified %d", len(rep.Runs), len(rep.Sweeps), len(rep.Fit), rep.Verified)
	}
	load := rep.Sweeps[0]
	for k, x := range load.X {
		want := lb.PaperProcessors * lb.PaperTasks * lb.PaperWork / (4 + 3*(1-x))
		if math.Abs(load.Bound[k]-want) > 1e-9*want {
			t.Errorf("share %v: bound %v, want %v", x, load.Bound[k], want)
		}
	}
	for _, s := range rep.Sweeps {
		for i, p := range s.Policies {
			for k, m := range s.Makespan[i] {
				if m < s.Bound[k]*(1-1e-12) {
					t.Errorf("%s = %s: %s makespan %v below the bound %v", s.Name, s.Values[k], p, m, s.Bound[k])
				}
			}
		}
	}
	var b strings.Builder
	for _, part := range rep.Document() {
		switch p := part.(type) {
		case string:
			b.WriteString(p)
		case *reproduce.Table:
			if err := p.WriteMarkdown(&b); err != nil {
				t.Fatal(err)
			}
		}
	}
	md := b.String()
	for _, want := range []string{"| static | paper | 52.97 | 114.20 |", "| power-diff | paper | 150 | 30 |", "| steal | ours |", "Sweep: topology"} {
		if !strings.Contains(md, want) {
			t.Errorf("the comparison lacks %q", want)
		}
	}
}

// TestRun runs paper 003's reproduction as netsched reproduce does (2
// seeds with -short): every file appears, and without -short its tables
// are the committed ones, byte for byte.
func TestRun(t *testing.T) {
	dir := reproducetest.Run(t, "003", reproduce.Options{Jobs: 2, Quick: testing.Short()},
		"tables.md", "sweep-1.png", "sweep-2.png", "sweep-3.png", "gantt-power-diff.png",
		"table1-finish.png", "table2-tasks.png", "tables/table1-finish.csv", "tables/sweep-2.tex")
	if testing.Short() {
		return
	}
	if got, want := reproducetest.Read(t, dir, "tables.md"), reproducetest.Committed(t, "loadbalance", "tables.md"); got != want {
		t.Error("tables.md differs from results/loadbalance/tables.md")
	}
}

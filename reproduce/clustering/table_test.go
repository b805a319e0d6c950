package clustering

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/models"
	cl "github.com/netsched/netsched/policies/clustering"
)

// loadSTGSet reads an STG set of the shared data as the paper counts it:
// dummy nodes kept, unit tasks, its first max graphs.
func loadSTGSet(t testing.TB, set string, max int) []*models.DAG {
	t.Helper()
	sets, err := loadSTGSets(shareddata.STGDir(t), max)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if s.label == "STG "+set {
			return s.graphs
		}
	}
	t.Skipf("STG set %s absent", set)
	return nil
}

// chain is a chain of n unit tasks.
func chain(n int) *models.DAG {
	g := &models.DAG{}
	for i := range n {
		g.Tasks = append(g.Tasks, models.Task{Weight: 1})
		if i > 0 {
			g.Edges = append(g.Edges, models.DAGEdge{From: i - 1, To: i})
		}
	}
	return g
}

func TestCompareTableSmall(t *testing.T) {
	graphs := loadSTGSet(t, "rand50", 8)
	rhos := []float64{1.5, 14}
	ctx := context.Background()
	one, err := CompareTable(ctx, "stg50", graphs, rhos, CompareOptions{Runs: 3, Seed: 5, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	two, err := CompareTable(ctx, "stg50", graphs, rhos, CompareOptions{Runs: 3, Seed: 5, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Rows, two.Rows) {
		t.Errorf("the rows depend on the number of jobs:\n%+v\n%+v", one.Rows, two.Rows)
	}
	if one.Tasks != 52 || len(one.Rows) != 2 || one.CrossMS <= 0 || one.ConvexMS <= 0 || one.CASSMS <= 0 {
		t.Errorf("result %+v", one)
	}
	for _, row := range one.Rows {
		if row.Graphs != 8 || row.ExcludedConvex > 8 || row.ExcludedCASS > 8 ||
			row.MinMinConvex != ratio(row.SumCrossMin, row.SumConvexMin) || row.AvgMinConvex < row.MinMinConvex ||
			row.MinCASS != ratio(row.SumCrossMinCASS, row.SumCASS) {
			t.Errorf("row %+v", row)
		}
	}
	if r := one.Rows[1]; r.ExcludedConvex != 8 || r.MinMinConvex != 1 {
		t.Errorf("at ρ = 14 every 52-task graph is best run sequentially by both, got %+v", r)
	}
}

// TestCompareTableClosedForms uses graphs whose outcome is known: a chain
// is sequential for every algorithm (left out, ratio 1), independent tasks
// take time 0 everywhere, and on the graph of Theorem 2 Cross-A finds the
// optimum ρ+1 while no convex clustering does better than 2ρ+1.
func TestCompareTableClosedForms(t *testing.T) {
	ctx := context.Background()
	res, err := CompareTable(ctx, "chain", []*models.DAG{chain(8)}, []float64{3}, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[0]; r.ExcludedConvex != 1 || r.ExcludedCASS != 1 || r.MinMinConvex != 1 || r.MinCASS != 1 {
		t.Errorf("chain: %+v", r)
	}
	res, err = CompareTable(ctx, "theorem 2", []*models.DAG{cl.Theorem2DAG(3)}, []float64{3}, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Rows[0]
	if r.SumCrossMin != 4 || r.SumConvexMin < 7 || r.MinMinConvex > 4.0/7 {
		t.Errorf("theorem 2 graph: %+v", r)
	}
	if _, err := CompareTable(ctx, "none", nil, []float64{3}, CompareOptions{}); err == nil {
		t.Error("no graphs: no error")
	}
}

func TestReproduceSmall(t *testing.T) {
	src := filepath.Join(shareddata.STGDir(t), "rand50")
	dir := t.TempDir()
	set := filepath.Join(dir, "rand50")
	if err := os.Mkdir(set, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"rand0000.stg", "rand0001.stg", "rand0002.stg"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(set, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Reproduce(context.Background(), ReproduceOptions{STGDir: dir, FFTPoints: []int{8}, GEMatrices: []int{5},
		CompareOptions: CompareOptions{Runs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.STG) != 1 || len(r.FFT) != 1 || len(r.GE) != 1 || r.STG[0].Tasks != 52 || r.FFT[0].Tasks != 39 || r.GE[0].Tasks != 14 {
		t.Fatalf("reproduction %+v", r)
	}
	var buf bytes.Buffer
	if err := r.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"Table 1, Min/Min", "| 302 | paper | | 0.899 |", "| 52 | ours (STG rand50) | 3 |", "| 39 | ours (FFT(8)) |",
		"| 14 | ours (GE(5)) |", "Table 9", "| 1952 | paper | | 0.890 |", "Tables 2 and 7"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

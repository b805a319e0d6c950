package clustering

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
)

var (
	ablation       = flag.Bool("ablation", false, "run issue 20's ablation and write results/clustering/ablation.md and ablation.csv")
	ablationGraphs = flag.Int("ablation.graphs", 0, "graphs of each STG set in the ablation (0: all)")
)

// TestAblationDefaultIsReproduce checks the harness against CompareTable:
// its default variant gives the same ratios on the first graphs of each
// set, and a variant that changes Cross-A changes only Cross-A's sums.
func TestAblationDefaultIsReproduce(t *testing.T) {
	dir := shareddata.STGDir(t)
	vs := Readings()
	res, err := Ablation(context.Background(), AblationOptions{STGDir: dir, MaxGraphs: 3, Jobs: 2, Variants: []Reading{vs[0], vs[1]}})
	if err != nil {
		t.Fatal(err)
	}
	sets, err := loadSTGSets(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, set := range sets {
		want, err := CompareTable(context.Background(), set.label, set.graphs, PaperRhos(), CompareOptions{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		for j, row := range res[0].Sets[i].Rows {
			if w := want.Rows[j]; row.SumCrossMin != w.SumCrossMin || row.SumConvexMin != w.SumConvexMin || row.SumCASS != w.SumCASS {
				t.Errorf("%s ρ=%g: default variant %+v, CompareTable %+v", set.label, row.Rho, row, w)
			}
			if g := res[1].Sets[i].Rows[j]; g.SumConvexMin != row.SumConvexMin || g.SumCASS != row.SumCASS {
				t.Errorf("%s ρ=%g: %s changed Convex-A or CASS-II", set.label, row.Rho, vs[1].Name)
			}
		}
	}
	var md bytes.Buffer
	if err := WriteAblationMarkdown(&md, res); err != nil || !bytes.Contains(md.Bytes(), []byte("| eval=global |")) {
		t.Errorf("markdown: %v\n%s", err, md.String())
	}
}

// TestAblationWrite runs the whole ablation into results/clustering with
// -ablation (minutes on the full sets).
func TestAblationWrite(t *testing.T) {
	if !*ablation {
		t.Skip("run with -ablation")
	}
	res, err := Ablation(context.Background(), AblationOptions{STGDir: shareddata.STGDir(t), MaxGraphs: *ablationGraphs})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "..", "results", "clustering")
	var md, csv bytes.Buffer
	if err := WriteAblationMarkdown(&md, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteAblationCSV(&csv, res); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"ablation.md": md.Bytes(), "ablation.csv": csv.Bytes()} {
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

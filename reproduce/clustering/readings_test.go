package clustering

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	cl "github.com/netsched/netsched/policies/clustering"
	"github.com/netsched/netsched/reproduce"
)

// linkedSTG makes a data folder whose stg/ holds one set, "linked", as a
// symbolic link to a folder of the first n graphs of the shared rand50
// set, beside a symbolic link to a file (not a set); it returns the
// folder of stg/.
func linkedSTG(t *testing.T, n int) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(shareddata.STGDir(t), "rand50", "*.stg"))
	if len(files) < n {
		t.Skipf("rand50 has %d graphs, want %d", len(files), n)
	}
	tmp := t.TempDir()
	src, stg := filepath.Join(tmp, "graphs"), filepath.Join(tmp, "data", "stg")
	for _, dir := range []string{src, stg} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files[:n] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(src, filepath.Join(stg, "linked")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(files[0], filepath.Join(stg, "file.stg")); err != nil {
		t.Fatal(err)
	}
	return stg
}

// TestReadingOnLinkedSet runs a reading of CASS-II on a set folder that is
// a symbolic link: the set is read, Cross-A's and Convex-A's sums are the
// default reading's, and CASS-II's are those of CASS2With's join: top,
// counted as the paper counts them.
func TestReadingOnLinkedSet(t *testing.T) {
	const n = 2
	stg := linkedSTG(t, n)
	quick := func(name string) Reading {
		r, err := LookupReading(name)
		if err != nil {
			t.Fatal(err)
		}
		r.Cross.K, r.Cross.Runs, r.Convex.K, r.Convex.Runs = 2, 2, 2, 2
		return r
	}
	run := func(r Reading) *CompareResult {
		t.Helper()
		rep, err := Reproduce(context.Background(), ReproduceOptions{STGDir: stg, FFTPoints: []int{}, GEMatrices: []int{},
			CompareOptions: CompareOptions{Jobs: 2, Reading: r}})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.STG) != 1 || rep.STG[0].Label != "STG linked" || rep.STG[0].Rows[0].Graphs != n || len(rep.FFT)+len(rep.GE) != 0 {
			t.Fatalf("want the linked set of %d graphs alone, got %+v", n, rep)
		}
		return rep.STG[0]
	}
	def, top := run(quick(DefaultReading)), run(quick("cass2:join=top"))
	sets, err := loadSTGSets(stg, 0)
	if err != nil {
		t.Fatal(err)
	}
	for j, rho := range PaperRhos() {
		d, g := def.Rows[j], top.Rows[j]
		if d.SumCrossMin != g.SumCrossMin || d.SumConvexMin != g.SumConvexMin {
			t.Errorf("ρ=%g: Table 1 sums %v/%v, default reading's %v/%v", rho, g.SumCrossMin, g.SumConvexMin, d.SumCrossMin, d.SumConvexMin)
		}
		if g.ExcludedCASS > 0 {
			continue
		}
		want := 0.0
		for _, dag := range sets[0].graphs {
			p, err := cl.CASS2With(dag, rho, cl.CASSParams{Join: cl.JoinTop})
			if err != nil {
				t.Fatal(err)
			}
			want += min(p.TimeS, float64(len(dag.Tasks)-1)) // unit tasks: sequential is n−1
		}
		if g.SumCASS != want {
			t.Errorf("ρ=%g: ΣCASS-II %v with join: top, want %v", rho, g.SumCASS, want)
		}
	}
}

// TestReadingsRegistered: paper 002 lists its readings, the default first,
// and refuses an unknown one naming the known ones, before it runs.
func TestReadingsRegistered(t *testing.T) {
	p, ok := reproduce.Lookup("002")
	if !ok || len(p.Readings) != len(Readings()) || p.Readings[0].Name != DefaultReading {
		t.Fatalf("paper 002's readings: %+v", p.Readings)
	}
	names := map[string]bool{}
	for _, r := range Readings() {
		if names[r.Name] || strings.ContainsAny(r.Name, " \t") {
			t.Errorf("reading %q repeated or not one word", r.Name)
		}
		names[r.Name] = true
	}
	err := reproduce.Run(context.Background(), t.TempDir(), p, reproduce.Options{Data: filepath.Dir(linkedSTG(t, 1)), Reading: "nonsense"})
	if err == nil || !strings.Contains(err.Error(), "combined") || !strings.Contains(err.Error(), "cass2:join=top") {
		t.Errorf("unknown reading: %v", err)
	}
}

// TestReadingsDocumented: docs/figures.md names every reading.
func TestReadingsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "figures.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Readings() {
		if !strings.Contains(string(b), "`"+r.Name+"`") {
			t.Errorf("docs/figures.md does not name the reading %s", r.Name)
		}
	}
}

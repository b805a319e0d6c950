package clustering

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestChecksAgainstDefinitions compares CheckConvex and CheckCross with
// the literal quantifiers of Definitions 2 and 3 on every clustering of
// small random graphs.
func TestChecksAgainstDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	counts := map[string]int{}
	for trial := range 30 {
		g := randomDAG(rng, 3+trial%4, 0.4)
		forEachClustering(len(g.Tasks), func(c Clustering) bool {
			convex, cross := CheckConvex(g, c) == nil, CheckCross(g, c) == nil
			if convex != convexByDefinition(g, c) || cross != crossByDefinition(g, c) {
				t.Fatalf("graph %+v clustering %v: convex %v cross %v, definitions say %v %v",
					g.Edges, c, convex, cross, convexByDefinition(g, c), crossByDefinition(g, c))
			}
			if convex && !cross {
				t.Fatalf("convex but not cross: %v", c)
			}
			counts[map[[2]bool]string{{true, true}: "convex", {false, true}: "cross only", {false, false}: "neither"}[[2]bool{convex, cross}]]++
			return true
		})
	}
	if counts["convex"] == 0 || counts["cross only"] == 0 || counts["neither"] == 0 {
		t.Errorf("the random graphs miss a case: %v", counts)
	}
	t.Logf("clusterings checked: %v", counts)
}

func TestChecksTheorem2(t *testing.T) {
	g := Theorem2DAG(2) // x1…x4, y1…y4
	chains := Clustering{0, 0, 0, 0, 1, 1, 1, 1}
	if err := CheckCross(g, chains); err != nil {
		t.Errorf("the two chains are a cross clustering: %v", err)
	}
	err := CheckConvex(g, chains)
	if err == nil || !strings.Contains(err.Error(), "x1 ≺ y4") {
		t.Errorf("the two chains are not convex (x1 ≺ y4, y1 ≺ x4): got %v", err)
	}
	g4 := Theorem4DAG(1) // x1…x5, y1…y5; x1 → y3 → x5
	err = CheckCross(g4, Clustering{0, 0, 0, 0, 0, 1, 1, 1, 1, 1})
	if err == nil || !strings.Contains(err.Error(), "≺") {
		t.Errorf("the two chains of the Theorem 4 graph are not cross: got %v", err)
	}
	if err := CheckCross(g, Clustering{0, 0}); err == nil {
		t.Error("a clustering of the wrong length passed")
	}
}

func TestCheckSchedule(t *testing.T) {
	g := &models.DAG{Tasks: []models.Task{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "c", Weight: 2}},
		Edges: []models.DAGEdge{{From: 0, To: 1}, {From: 0, To: 2}}}
	tests := []struct {
		c     Clustering
		start []float64
		bad   string
	}{
		{Clustering{0, 0, 1}, []float64{0, 1, 3}, ""},
		{Clustering{0, 0, 1}, []float64{0, 1, 2.5}, "task c starts at 2.5"}, // ρ = 2 across
		{Clustering{0, 0, 0}, []float64{0, 1, 1.5}, "overlap"},
		{Clustering{0, 0, 0}, []float64{0, 3, 1}, ""},
		{Clustering{0, 1, 1}, []float64{0, 3, 4}, ""},
		{Clustering{0, 1, 1}, []float64{0, 3, 3}, "overlap"},
	}
	for _, tt := range tests {
		err := CheckSchedule(g, tt.c, tt.start, 2)
		if (tt.bad == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.bad)) {
			t.Errorf("%v %v: got %v, want %q", tt.c, tt.start, err, tt.bad)
		}
	}
}

func TestClusteringHelpers(t *testing.T) {
	c := Clustering{7, 3, 7, 9}
	if got := c.Normalize(); got[0] != 0 || got[1] != 1 || got[2] != 0 || got[3] != 2 {
		t.Errorf("Normalize: %v", got)
	}
	if c.NumClusters() != 3 {
		t.Errorf("NumClusters: %d", c.NumClusters())
	}
	cl := c.Clusters()
	if len(cl) != 3 || len(cl[0]) != 2 || cl[0][1] != 2 || cl[2][0] != 3 {
		t.Errorf("Clusters: %v", cl)
	}
}

package multicluster

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

func TestFlatView(t *testing.T) {
	c := loadCase(t, "testdata/relay.yaml")
	c.Platform.MultiCluster.Clusters[1].Beta = 0.07 // above β: the flat view takes the slowest
	flat, err := FlatView(&c.Platform)
	if err != nil {
		t.Fatal(err)
	}
	cb := flat.Crossbar
	if cb.Beta != 0.07 || cb.Duplex != models.FullDuplex || len(cb.Processors) != c.Platform.NumNodes() {
		t.Fatalf("flat view %+v", cb)
	}
	for i, p := range cb.Processors {
		cl, k, _ := c.Platform.MultiCluster.Locate(i)
		mp := c.Platform.MultiCluster.Clusters[cl].Processors[k]
		if p.Name != mp.Name || p.Gamma != mp.Gamma || p.Load != mp.Load ||
			p.OverlapGamma(models.KindSend) != mp.OverlapGamma(models.KindInterSend) ||
			p.OverlapGamma(models.KindRecv) != mp.OverlapGamma(models.KindInterRecv) {
			t.Fatalf("P%d: %+v from %+v", i, p, mp)
		}
	}
	if _, err := FlatView(flat); err == nil {
		t.Error("FlatView of a crossbar: no error")
	}
}

// TestFlatCombined: mmdl-flat, like mmdl, plans with the rule's rates; a
// combined rate slower than the rule shows in the replay, and it warns.
func TestFlatCombined(t *testing.T) {
	c := loadCase(t, "testdata/relay.yaml")
	c.Problem.Divisible.Rounds = 10
	// M0 sends while it computes; much slower than its overlap 1.25.
	m0 := &c.Platform.MultiCluster.Clusters[0].Processors[0]
	m0.Combined = []models.CombinedRate{{Active: []string{models.KindIntraSend}, Gamma: 50}}
	e, _ := policies.Lookup("mmdl-flat")
	s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: &c.Platform, Problem: &c.Problem})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) == 0 {
		t.Error("no warning")
	}
	replayMiss(t, &c.Platform, &c.Problem, s)
}

// TestNothingToDo: no load at all, and one processor.
func TestNothingToDo(t *testing.T) {
	for _, mc := range []*models.MultiCluster{
		{Beta: 1, Clusters: []models.Cluster{{Beta: 0.5, Processors: []models.Processor{{Gamma: 1}, {Gamma: 2}}}, {Beta: 1, Processors: []models.Processor{{Gamma: 1}}}}},
		{Beta: 1, Alpha: 0.1, Clusters: []models.Cluster{{Beta: 0.5, Processors: []models.Processor{{Gamma: 1, Load: 10}}}}},
	} {
		pl, pr := &models.Platform{MultiCluster: mc}, &models.Problem{Divisible: &models.Divisible{}}
		for _, name := range []string{"multicluster", "multicluster-norelay", "mmdl-flat"} {
			s := planVerified(t, name, pl, pr, nil)
			want := 0.0
			if mc.Clusters[0].Processors[0].Load > 0 {
				want = 10
			}
			if math.Abs(s.Claimed-want) > 1e-12 {
				t.Errorf("%s: claimed %g, want %g", name, s.Claimed, want)
			}
		}
	}
}

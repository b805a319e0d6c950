package optround

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestCrossbarClosedForm checks the crossbar program against the closed
// form of one master and one worker, half duplex, no overlap, no results:
// the master sends s and computes the rest, the worker receives s then
// computes it, both for T: s(β + γ_w) = T = (x − s)γ_m + sβ, so
// s = xγ_m/(γ_m + γ_w) (while β < γ_m: sending pays).
func TestCrossbarClosedForm(t *testing.T) {
	for _, c := range []struct{ x, gm, gw, beta float64 }{
		{100, 2, 1, 0.5}, {10, 1, 3, 0.1}, {7, 5, 5, 4.9},
	} {
		pl := &models.Platform{Crossbar: &models.Crossbar{Beta: c.beta, Duplex: models.HalfDuplex,
			Processors: []models.Processor{{Gamma: c.gm, Load: c.x}, {Gamma: c.gw}}}}
		pr := &models.Problem{Divisible: &models.Divisible{}}
		got, err := Crossbar(context.Background(), pl, pr)
		if err != nil {
			t.Fatal(err)
		}
		s := c.x * c.gm / (c.gm + c.gw)
		if T := s * (c.beta + c.gw); math.Abs(got.T-T) > 1e-9*T || math.Abs(got.Y[1]-s) > 1e-9*s || math.Abs(got.Y[0]+s) > 1e-9*s {
			t.Errorf("%+v: T = %g, y = %v; want T = %g, y = [%g %g]", c, got.T, got.Y, T, -s, s)
		}
	}
}

// TestMultiClusterMatchesCrossbar checks the multi-cluster program with one
// cluster against the crossbar program on the same processors in full
// duplex: they are the same platform.
func TestMultiClusterMatchesCrossbar(t *testing.T) {
	procs := []models.Processor{
		{Gamma: 2, Load: 80, Overlap: map[string]float64{"send": 3}},
		{Gamma: 1, Load: 5},
		{Gamma: 0.5, Overlap: map[string]float64{"recv": 0.8}},
	}
	cb := &models.Platform{Crossbar: &models.Crossbar{Beta: 0.3, Duplex: models.FullDuplex, Processors: procs}}
	var mcProcs []models.Processor
	for _, p := range procs {
		q := p
		q.Overlap = map[string]float64{}
		for k, g := range p.Overlap {
			q.Overlap["intra-"+k] = g
		}
		mcProcs = append(mcProcs, q)
	}
	mc := &models.Platform{MultiCluster: &models.MultiCluster{Beta: 1, Clusters: []models.Cluster{{Beta: 0.3, Processors: mcProcs}}}}
	want, err := lpCrossbar(cb, &models.Problem{Divisible: &models.Divisible{}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := MultiCluster(context.Background(), mc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.T-want.T) > 1e-9*want.T {
		t.Errorf("one cluster: T = %g, crossbar T = %g", got.T, want.T)
	}
}

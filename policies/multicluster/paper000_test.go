package multicluster

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/mmdl"
)

// crossbarOf is the crossbar paper 000 sees when every transfer of the
// multi-cluster is of one class: β and the rates of kinds send and recv.
func crossbarOf(mc *models.MultiCluster, beta float64, send, recv string) *models.Platform {
	cb := &models.Crossbar{Beta: beta, Duplex: models.FullDuplex}
	for _, c := range mc.Clusters {
		for _, p := range c.Processors {
			q := models.Processor{Gamma: p.Gamma, Load: p.Load, Overlap: map[string]float64{
				models.KindSend: p.OverlapGamma(send), models.KindRecv: p.OverlapGamma(recv)}}
			cb.Processors = append(cb.Processors, q)
		}
	}
	return &models.Platform{Crossbar: cb}
}

func paper000T(t *testing.T, pl *models.Platform, pr *models.Problem) float64 {
	t.Helper()
	m, err := mmdl.NewModel(pl, pr)
	if err != nil {
		t.Fatal(err)
	}
	return mmdl.RoundTime(m).T
}

// TestPaper000 checks the cases where paper 001 reduces to paper 000: one
// cluster (everything inside it, at β_1 and the intra-cluster rates), and
// one processor per cluster with β_j = β (everything across, at β and the
// inter-cluster rates, each uplink being its processor's port). T must be
// mmdl.RoundTime's T on that crossbar. With β_j = β and several processors
// per cluster T is at least paper 000's, the uplinks being one more limit.
func TestPaper000(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 200
	if testing.Short() || !slowtest.Enabled() {
		n = 40
	}
	// both returns paper 001's T for a random instance and paper 000's T on
	// its crossbar: the intra-cluster rates at β_1 for one cluster, else the
	// inter-cluster rates at β.
	both := func(opt genOptions) (got, want float64) {
		pl, pr := randomInstance(rng, opt)
		r, err := RoundTime(mustModel(t, pl, pr), true)
		if err != nil {
			t.Fatal(err)
		}
		mc := pl.MultiCluster
		if opt.maxClusters == 1 {
			return r.T, paper000T(t, crossbarOf(mc, mc.Clusters[0].Beta, models.KindIntraSend, models.KindIntraRecv), pr)
		}
		return r.T, paper000T(t, crossbarOf(mc, mc.Beta, models.KindInterSend, models.KindInterRecv), pr)
	}
	same := func(got, want float64) bool { return math.Abs(got-want) <= 1e-9*max(1, want) }
	equal := 0
	for k := range n {
		if got, want := both(genOptions{maxClusters: 1, maxProcs: 8, noOverlap: 0.3}); !same(got, want) {
			t.Errorf("instance %d, one cluster: T = %.12g, paper 000 %.12g", k, got, want)
		}
		// One processor per cluster, β_j = β.
		if got, want := both(genOptions{maxClusters: 8, maxProcs: 1, equalBeta: true, noOverlap: 0.3}); !same(got, want) {
			t.Errorf("instance %d, one processor per cluster: T = %.12g, paper 000 %.12g", k, got, want)
		}
		// β_j = β, same rates inside and across: the uplinks only add limits.
		got, want := both(genOptions{maxClusters: 4, maxProcs: 4, equalBeta: true, noOverlap: 1})
		if got < want*(1-1e-9) {
			t.Errorf("instance %d, beta_j = beta: T = %.12g below paper 000's %.12g", k, got, want)
		}
		if same(got, want) {
			equal++
		}
	}
	t.Logf("beta_j = beta with several processors per cluster: T equals paper 000's in %d of %d instances", equal, n)
}

// TestPaper000Uplink is the case where β_j = β and T is not paper 000's:
// four loaded processors in one cluster, four idle ones in another. On
// paper 000's crossbar the four can send at once; here they share their
// cluster's uplink.
func TestPaper000Uplink(t *testing.T) {
	mc := &models.MultiCluster{Beta: 0.5, Clusters: []models.Cluster{{Beta: 0.5}, {Beta: 0.5}}}
	for range 4 {
		mc.Clusters[0].Processors = append(mc.Clusters[0].Processors, models.Processor{Gamma: 1, Load: 100})
		mc.Clusters[1].Processors = append(mc.Clusters[1].Processors, models.Processor{Gamma: 1})
	}
	pl, pr := &models.Platform{MultiCluster: mc}, &models.Problem{Divisible: &models.Divisible{}}
	r, err := RoundTime(mustModel(t, pl, pr), true)
	if err != nil {
		t.Fatal(err)
	}
	flat := paper000T(t, crossbarOf(mc, mc.Beta, models.KindInterSend, models.KindInterRecv), pr)
	// No overlap. Paper 000: a master sending s computes 100 − s, its port
	// busy 0.5s, so 0.5s + (100 − s) = T; a worker takes s in 1.5s = T:
	// T = 75. Here A's uplink carries the four masters' 4s in 2s ≤ T, so
	// 100 − s/2 ≤ T with s ≤ T/2: T = 80.
	if math.Abs(flat-75) > 1e-9 || math.Abs(r.T-80) > 1e-9 {
		t.Fatalf("T = %g (want 80), paper 000's %g (want 75)", r.T, flat)
	}
	lp, err := lpRoundTime(pl)
	if err != nil || math.Abs(lp-r.T) > 1e-9 {
		t.Fatalf("LP %g (%v), T %g", lp, err, r.T)
	}
}

package optround

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
)

// drawProcessor draws a processor with a load (or none) and overlap rates
// for kinds, each loss fraction none, all or in between.
func drawProcessor(r *rand.Rand, kinds []string) models.Processor {
	p := models.Processor{Gamma: 0.1 * math.Pow(100, r.Float64()), Overlap: map[string]float64{}}
	if r.Float64() < 0.6 {
		p.Load = 100 * r.Float64()
	}
	for _, k := range kinds {
		switch f := r.Float64(); {
		case f < 0.2: // no overlap: the kind is left out
		case f < 0.35:
			p.Overlap[k] = p.Gamma
		default:
			p.Overlap[k] = p.Gamma / (1 - r.Float64())
		}
	}
	return p
}

// drawCrossbar draws a crossbar of 1 to 12 processors, either duplex, with
// or without results.
func drawCrossbar(r *rand.Rand) (*models.Platform, *models.Problem) {
	cb := &models.Crossbar{Beta: 0.03 * math.Pow(300, r.Float64()), Duplex: models.HalfDuplex}
	if r.IntN(2) == 0 {
		cb.Duplex = models.FullDuplex
	}
	for range 1 + r.IntN(12) {
		cb.Processors = append(cb.Processors, drawProcessor(r, []string{models.KindSend, models.KindRecv}))
	}
	d := &models.Divisible{}
	if r.IntN(2) == 0 {
		d.CollectResults, d.ResultSize = true, 0.05+3*r.Float64()
	}
	return &models.Platform{Crossbar: cb}, &models.Problem{Divisible: d}
}

// drawMultiCluster draws 1 to 5 clusters of 1 to 6 processors, β_j up to
// 1.5 β and every loss fraction independent.
func drawMultiCluster(r *rand.Rand) *models.Platform {
	mc := &models.MultiCluster{Beta: 0.01 * math.Pow(100, r.Float64())}
	for range 1 + r.IntN(5) {
		c := models.Cluster{Beta: mc.Beta * (0.05 + 1.45*r.Float64())}
		for range 1 + r.IntN(6) {
			c.Processors = append(c.Processors, drawProcessor(r, models.MultiClusterKinds))
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	mc.Clusters[0].Processors[0].Load = 1 + 99*r.Float64()
	return &models.Platform{MultiCluster: mc}
}

// TestCrossbarMatchesLP checks Crossbar's search against the crossbar's
// linear program solved by gonum's simplex (lpCrossbar) on 300 random
// crossbars, equal to 1e-9, and that its net loads add up to 0 and are
// feasible for the program at its T.
func TestCrossbarMatchesLP(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for k := range 300 {
		pl, pr := drawCrossbar(r)
		got, err := Crossbar(context.Background(), pl, pr)
		if err != nil {
			t.Fatal(err)
		}
		want, err := lpCrossbar(pl, pr)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.T-want.T) > 1e-9*want.T {
			t.Errorf("instance %d: T = %.12g, LP %.12g", k, got.T, want.T)
		}
		sum, scale := 0.0, 0.0
		cb := pl.Crossbar
		rho := 0.0
		if pr.Divisible.CollectResults {
			rho = pr.Divisible.ResultSize
		}
		for i, y := range got.Y {
			sum, scale = sum+y, scale+math.Abs(y)+cb.Processors[i].Load
			rows := newProcRows(cb.Processors[i], cb.Beta, rho, cb.Duplex == models.FullDuplex)
			s, rv := max(0, -y), max(0, y)
			if !rows.holds(s*(1-1e-12), rv*(1-1e-12), got.T*(1+1e-9)) {
				t.Errorf("instance %d: P%d's net load %g is not feasible at T = %g", k, i, y, got.T)
			}
		}
		if math.Abs(sum) > 1e-12*scale {
			t.Errorf("instance %d: net loads add up to %g", k, sum)
		}
	}
}

// TestMultiClusterMatchesGonum checks the simplex against gonum's on the
// same multi-cluster programs (60 random instances, 200 under
// NETSCHED_SLOW=1, roles free and fixed), equal to 1e-9.
func TestMultiClusterMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for k := range slowtest.Pick(60, 200) {
		pl := drawMultiCluster(r)
		var roles []Role
		if k%3 == 0 {
			for range pl.MultiCluster.Clusters {
				roles = append(roles, Role(r.IntN(3)))
			}
		}
		got, err := MultiCluster(context.Background(), pl, roles)
		b := newMCProgram(pl.MultiCluster, roles)
		want, werr := solveGonum(b.p)
		if (err != nil) != (werr != nil) {
			t.Fatalf("instance %d: simplex %v, gonum %v", k, err, werr)
		}
		if err != nil {
			continue // both infeasible with these roles
		}
		if math.Abs(got.T-want[0]) > 1e-9*want[0] {
			t.Errorf("instance %d: T = %.12g, gonum %.12g", k, got.T, want[0])
		}
	}
}

// TestMultiClusterCancelled cancels the simplex from its pivot hook and
// checks that it stops at the next pivot with the context's error.
func TestMultiClusterCancelled(t *testing.T) {
	pl := drawMultiCluster(rand.New(rand.NewPCG(3, 3)))
	pl.MultiCluster.Clusters = append(pl.MultiCluster.Clusters, pl.MultiCluster.Clusters...)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const stopAt = 3
	pivots := 0
	_, err := multiCluster(ctx, pl, nil, func(k int) {
		pivots = k
		if k == stopAt {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || pivots != stopAt {
		t.Errorf("got %v after %d pivots, want context.Canceled after %d", err, pivots, stopAt)
	}
}

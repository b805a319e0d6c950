package multicluster

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestCoefficients checks μ, ω, t_i and ȳ_i^(I) against the formulas of
// §3.1 written with the γ's of the platform.
func TestCoefficients(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }
	for k := range 300 {
		pl, pr := randomInstance(rng, genOptions{maxClusters: 3, maxProcs: 4, noOverlap: 0.3})
		m := mustModel(t, pl, pr)
		beta := pl.MultiCluster.Beta
		for i := range m.Procs {
			c, j, _ := pl.MultiCluster.Locate(i)
			mp := pl.MultiCluster.Clusters[c].Processors[j]
			bj, g := pl.MultiCluster.Clusters[c].Beta, mp.Gamma
			gIS, gIR := mp.OverlapGamma(models.KindIntraSend), mp.OverlapGamma(models.KindIntraRecv)
			gXS, gXR := mp.OverlapGamma(models.KindInterSend), mp.OverlapGamma(models.KindInterRecv)
			want := Coef{
				MuI: bj * (1/bj + 1/gIS - 1/g), MuX: beta * (1/beta + 1/gXS - 1/g),
				OmegaI: bj * (1/bj - 1/gIR + 1/g), OmegaX: beta * (1/beta - 1/gXR + 1/g),
			}
			p := &m.Procs[i]
			if !near(p.MuI, want.MuI) || !near(p.MuX, want.MuX) || !near(p.OmegaI, want.OmegaI) || !near(p.OmegaX, want.OmegaX) {
				t.Fatalf("instance %d P%d: %+v, want %+v", k, i, p.Coef, want)
			}
			// t_i = min{xγ, xβ_jγ^(I)/(β_j+γ^(I)), xβγ^(X)/(β+γ^(X))}, with
			// γ^(I) = ∞ read as the limit xβ_j.
			lim := func(b, gk float64) float64 {
				if math.IsInf(gk, 1) {
					return mp.Load * b
				}
				return mp.Load * b * gk / (b + gk)
			}
			ti := min(mp.Load*g, lim(bj, gIS), lim(beta, gXS))
			if !near(m.MinTime(i), ti) {
				t.Fatalf("instance %d P%d: t_i = %g, want %g", k, i, m.MinTime(i), ti)
			}
			// Under μ^(X) ≤ μ^(I) and β ≥ β_j, the inter-cluster term never
			// is the smallest.
			if !near(m.startTime(i), ti) {
				t.Fatalf("instance %d P%d: start %g, t_i %g", k, i, m.startTime(i), ti)
			}
			// ȳ_i^(I) at a few T ≥ t_i.
			for _, T := range []float64{ti, 1.5 * ti, mp.Load * g, 3 * mp.Load * g} {
				slack := T/g - mp.Load
				want := math.Min(slack/want.OmegaI, T/bj)
				if slack < 0 {
					want = slack / (bj * (1/bj + 1/gIS - 1/g))
				}
				if T > 0 && !near(m.YBarIntra(i, T), want) {
					t.Fatalf("instance %d P%d: ȳ(%g) = %g, want %g", k, i, T, m.YBarIntra(i, T), want)
				}
			}
		}
	}
}

// TestRoundTimeStructure checks the parts of §3.3 on random instances:
// T ≥ T_L ≥ every T_j and t_i; where T > T_L, Ȳ(T) = 0 (the worker
// clusters take exactly what the master clusters send).
func TestRoundTimeStructure(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for k := range 300 {
		pl, pr := randomInstance(rng, genOptions{maxClusters: 5, maxProcs: 5, noOverlap: 0.3})
		m := mustModel(t, pl, pr)
		r, err := RoundTime(m, true)
		if err != nil {
			t.Fatal(err)
		}
		if r.T < r.TL || r.TL < r.TP {
			t.Fatalf("instance %d: T %g, T_L %g, t_max %g", k, r.T, r.TL, r.TP)
		}
		for i := range m.Procs {
			if m.MinTime(i) > r.TP*(1+1e-12) {
				t.Fatalf("instance %d: t_%d = %g > t_max %g", k, i, m.MinTime(i), r.TP)
			}
		}
		out, in := 0.0, 0.0
		for j, y := range r.ClusterInter {
			if r.TJ[j] > r.TL {
				t.Fatalf("instance %d: T_%d = %g > T_L %g", k, j, r.TJ[j], r.TL)
			}
			if y < 0 {
				out -= y
				if -y*m.Beta > r.T*(1+1e-9) {
					t.Fatalf("instance %d: cluster %d sends %g, its uplink carries %g in T", k, j, -y, r.T/m.Beta)
				}
			} else {
				in += y
			}
		}
		if math.Abs(out-in) > 1e-9*max(1, out) {
			t.Fatalf("instance %d: out %g, in %g", k, out, in)
		}
	}
}

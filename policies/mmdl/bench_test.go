package mmdl

import (
	"context"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// benchInstance is a random heterogeneous instance of exactly p
// processors, with β = 0.05 so that T is the root of Y (the whole method
// runs), not T_L.
func benchInstance(p int, v variant) (*models.Platform, *models.Problem) {
	r := rand.New(rand.NewPCG(1, uint64(p)))
	pl, pr := randomInstance(r, v, 1, 0)
	for len(pl.Crossbar.Processors) < p {
		more, _ := randomInstance(r, v, 1, 0)
		pl.Crossbar.Processors = append(pl.Crossbar.Processors, more.Crossbar.Processors...)
	}
	pl.Crossbar.Beta = 0.05
	return pl, pr
}

// BenchmarkRoundTime times RoundTime (breakpoints, sort, binary search,
// exact piece) for one million processors, and for 200 to compare with
// the LP.
func BenchmarkRoundTime(b *testing.B) {
	for _, p := range []int{200, 1_000_000} {
		for _, v := range []variant{variants[0], variants[3], variants[4]} {
			pl, pr := benchInstance(p, v)
			m := mustModel(b, pl, pr)
			if r := RoundTime(m); r.T == r.TL {
				b.Fatalf("%s p=%d: T = T_L, the benchmark would not search", v.name, p)
			}
			b.Run(v.name+"/p="+strconv.Itoa(p), func(b *testing.B) {
				for b.Loop() {
					RoundTime(m)
				}
			})
		}
	}
}

// BenchmarkLP times the round-time LP of the tests (gonum's simplex) for
// 200 processors, and checks it agrees with RoundTime. The full-duplex LP
// (with the overlap times τ_i) takes minutes.
func BenchmarkLP(b *testing.B) {
	for _, v := range []variant{variants[0], variants[4]} {
		pl, pr := benchInstance(200, v)
		T := RoundTime(mustModel(b, pl, pr)).T
		b.Run(v.name+"/p=200", func(b *testing.B) {
			for b.Loop() {
				lpT, err := lpRoundTime(pl, pr)
				if err != nil {
					b.Fatal(err)
				}
				if relDiff(lpT, T) > 1e-9 {
					b.Fatalf("LP T = %.15g, RoundTime T = %.15g", lpT, T)
				}
			}
		})
	}
}

// BenchmarkPlan times the whole mmdl policy (round, matching, expansion
// into actions) for 10,000 processors and 10 rounds.
func BenchmarkPlan(b *testing.B) {
	pl, pr := benchInstance(10_000, variants[3])
	pr.Divisible.Rounds = 10
	e, _ := policies.Lookup("mmdl")
	in := policies.Instance{Platform: pl, Problem: pr}
	for b.Loop() {
		if _, err := e.Planner.Plan(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

package multicluster

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
)

// roundStats counts what a set of instances exercised.
type roundStats struct {
	instances, masterClusters, workerClusters, uplinkBound, relays, relayHelps int
}

// relaysIn counts the processors that both receive and send.
func relaysIn(r *Round) int {
	n := 0
	for i := range r.Intra {
		if r.Intra[i]*r.Inter[i] < 0 {
			n++
		}
	}
	return n
}

// TestRoundTimeMatchesLP compares T with the optimum of the round LP
// (lpRoundTime) on random instances that satisfy the paper's assumptions,
// and checks that the loads achieve T.
func TestRoundTimeMatchesLP(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		o    genOptions
	}{
		{"overlap", 250, genOptions{maxClusters: 4, maxProcs: 4}},
		{"bigger", 60, genOptions{maxClusters: 5, maxProcs: 7}},
		{"no-overlap-mix", 100, genOptions{maxClusters: 4, maxProcs: 4, noOverlap: 0.5}},
		{"equal-beta", 60, genOptions{maxClusters: 4, maxProcs: 4, equalBeta: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.n
			if testing.Short() || !slowtest.Enabled() {
				n /= 5
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(tc.name))))
			var st roundStats
			for k := range n {
				pl, pr := randomInstance(rng, tc.o)
				m, err := NewModel(pl, pr)
				if err != nil {
					t.Fatal(err)
				}
				if is := m.Check(pl, pr); len(is) > 0 {
					t.Fatalf("instance %d breaks %v", k, is)
				}
				r, err := RoundTime(m, true)
				if err != nil {
					t.Fatalf("instance %d: %v", k, err)
				}
				if worst, what := roundViolations(m, r); worst > 1e-9 {
					t.Errorf("instance %d: the round breaks a rule by %.3g: %s", k, worst, what)
				}
				want, err := lpRoundTime(pl)
				if err != nil {
					t.Fatalf("instance %d: lp: %v", k, err)
				}
				if math.Abs(r.T-want) > 1e-9*max(1, want) {
					t.Errorf("instance %d: T = %.12g, LP %.12g (rel %.3g)", k, r.T, want, (r.T-want)/want)
				}
				nr, err := RoundTime(m, false)
				if err != nil {
					t.Fatalf("instance %d: no relays: %v", k, err)
				}
				if worst, what := roundViolations(m, nr); worst > 1e-9 || relaysIn(nr) > 0 {
					t.Errorf("instance %d: no relays: the round breaks a rule by %.3g: %s, or relays (%d)", k, worst, what, relaysIn(nr))
				}
				if nr.T < r.T*(1-1e-9) {
					t.Errorf("instance %d: T without relays %.12g < with %.12g", k, nr.T, r.T)
				}
				st.count(r, nr)
			}
			t.Logf("%+v", st)
		})
	}
}

func (st *roundStats) count(r, nr *Round) {
	st.instances++
	for j, y := range r.ClusterInter {
		switch {
		case y < 0:
			st.masterClusters++
		case y > 0:
			st.workerClusters++
		}
		if r.TJ[j] == r.T && r.T > r.TP {
			st.uplinkBound++
		}
	}
	if relaysIn(r) > 0 {
		st.relays++
	}
	if nr.T > r.T*(1+1e-9) {
		st.relayHelps++
	}
}

// TestRegressions are instances where T once differed from the LP's (by
// rounding: see the comments in the files).
func TestRegressions(t *testing.T) {
	for _, tc := range []struct {
		file string
		want float64
	}{
		{"testdata/boundary-mu-negative.yaml", 398.21507062054957 * 0.4707201557161345},
		{"testdata/boundary-one-processor.yaml", 1.5619753655361814 * 0.09985548360222252},
		{"testdata/balance-tolerance.yaml", 54.72594702411174},
	} {
		c := loadCase(t, tc.file)
		m := mustModel(t, &c.Platform, &c.Problem)
		r, err := RoundTime(m, true)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		lp, err := lpRoundTime(&c.Platform)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.T-tc.want) > 1e-12*tc.want || math.Abs(lp-tc.want) > 1e-9*tc.want {
			t.Errorf("%s: T = %.17g, LP %.17g, want %.17g", tc.file, r.T, lp, tc.want)
		}
		if worst, what := roundViolations(m, r); worst > 1e-9 {
			t.Errorf("%s: %s", tc.file, what)
		}
		planVerified(t, "multicluster", &c.Platform, &c.Problem, nil)
	}
}

package divisiblelp

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies/multicluster"
	"github.com/netsched/netsched/policies/optround"
	"github.com/netsched/netsched/sim"
)

// TestOptimalOutsideAssumptions plans random multi-clusters outside paper
// 001's assumptions (drawOutside) with divisible-lp and checks its round
// time against an LP oracle written apart (oracleT, to 1e-6), every
// schedule verified (timed replay, problem checks, claim kept), and the
// round of every instance where a cluster both sends and receives across
// clusters checked on its own (checkRound). Quick: the first 8 instances
// and enough more for 3 such rounds; NETSCHED_SLOW=1: 300 instances.
func TestOptimalOutsideAssumptions(t *testing.T) {
	n, wantMixed := 8, 3
	if os.Getenv("NETSCHED_SLOW") != "" {
		n, wantMixed = 300, 30
	}
	r := rand.New(rand.NewPCG(42, 1))
	done, mixed, worst := 0, 0, 0.0
	for drawn := 0; done < n || mixed < wantMixed; drawn++ {
		if drawn > 100*n {
			t.Fatalf("drew %d instances, %d with a cluster sending and receiving across clusters", drawn, mixed)
		}
		pl, pr := drawOutside(r)
		m, err := multicluster.NewModel(pl, pr)
		if err != nil {
			t.Fatal(err)
		}
		opt, err := optround.MultiCluster(context.Background(), pl, nil)
		if err != nil {
			t.Fatal(err)
		}
		isMixed := mixedClusters(m, opt) > 0
		if done >= n && !isMixed {
			continue
		}
		done++
		s := planWith(t, Name, pl, pr, nil)
		checktest.Verify(t, pl, pr, s, sim.Timed)
		want, err := oracleT(pl)
		if err != nil {
			t.Fatalf("instance %d: oracle: %v", drawn, err)
		}
		d := math.Abs(s.Metrics["T"]-want) / want
		worst = max(worst, d)
		if d > 1e-6 {
			t.Errorf("instance %d: T = %.9g, oracle %.9g", drawn, s.Metrics["T"], want)
		}
		if isMixed {
			mixed++
			trs, err := layoutMixed(m, opt, dustTol*totalLoad(allProcessors(pl.MultiCluster)))
			if err != nil {
				t.Fatalf("instance %d: %v", drawn, err)
			}
			checkRound(t, m, opt, trs)
		}
	}
	t.Logf("%d instances, %d with a cluster both sending and receiving across clusters; worst relative difference to the oracle %.2g", done, mixed, worst)
}

// checkRound checks a round's transfers against the platform's rules and
// the program's round: within [0, T], each as long as its amount takes,
// inside a cluster or across as it says, no send port, receive port or
// uplink carrying two at once, every processor's net loads inside and
// across clusters as the round's, and its work within what the rates
// its transfers leave it allow in T.
func checkRound(t *testing.T, m *multicluster.Model, r *optround.MultiClusterRound, trs []multicluster.Transfer) {
	t.Helper()
	T := r.T
	tol := 1e-9 * T
	n, C := len(m.Procs), len(m.Clusters)
	use := make([][][2]float64, 2*n+2*C) // send ports, receive ports, uplinks out, in
	netI, netX := make([]float64, n), make([]float64, n)
	busy := make([][4]float64, n) // per processor, time per kind (models.MultiClusterKinds order)
	for _, tr := range trs {
		cf, ct := m.Procs[tr.From].Cluster, m.Procs[tr.To].Cluster
		beta := m.Beta
		if !tr.Inter {
			beta = m.Clusters[cf].Beta
		}
		if tr.Start < -tol || tr.End > T+tol || math.Abs(tr.End-tr.Start-tr.Amount*beta) > tol || (cf != ct) != tr.Inter {
			t.Fatalf("transfer %+v: outside [0, %g], of the wrong length, or inter-cluster wrongly", tr, T)
		}
		res := []int{tr.From, n + tr.To}
		if tr.Inter {
			res = append(res, 2*n+2*cf, 2*n+2*ct+1)
			netX[tr.From] -= tr.Amount
			netX[tr.To] += tr.Amount
			busy[tr.From][2] += tr.End - tr.Start
			busy[tr.To][3] += tr.End - tr.Start
		} else {
			netI[tr.From] -= tr.Amount
			netI[tr.To] += tr.Amount
			busy[tr.From][0] += tr.End - tr.Start
			busy[tr.To][1] += tr.End - tr.Start
		}
		for _, k := range res {
			use[k] = append(use[k], [2]float64{tr.Start, tr.End})
		}
	}
	for k, us := range use {
		slices.SortFunc(us, func(a, b [2]float64) int { return cmpFloat(a[0], b[0]) })
		for q := 1; q < len(us); q++ {
			if us[q][0] < us[q-1][1]-tol {
				t.Fatalf("resource %d carries two transfers at once: %v and %v", k, us[q-1], us[q])
			}
		}
	}
	scale := 0.0
	for i := range m.Procs {
		scale += m.Procs[i].X
	}
	for i := range m.Procs {
		if math.Abs(netI[i]-r.Intra[i]) > 1e-9*scale || math.Abs(netX[i]-r.Inter[i]) > 1e-9*scale {
			t.Fatalf("P%d: net loads %g inside and %g across, the round's %g and %g", i, netI[i], netX[i], r.Intra[i], r.Inter[i])
		}
		p := m.Procs[i]
		work := p.X + netI[i] + netX[i]
		capacity := p.Rate[0] * T
		for k, bit := range []int{1, 2, 4, 8} {
			capacity -= (p.Rate[0] - p.Rate[bit]) * busy[i][k]
		}
		if work > capacity+1e-9*scale {
			t.Fatalf("P%d computes %g, more than the %g its rates allow in T", i, work, capacity)
		}
	}
}

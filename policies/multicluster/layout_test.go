package multicluster

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
)

// layoutViolations checks a round's layout: every transfer within [0, T]
// and of the right duration, no port or uplink carrying two at once, and
// every processor sending and receiving inside and across clusters what
// the round says. It returns the first problem found.
func layoutViolations(m *Model, r *Round, trs []Transfer) error {
	tol := 1e-9 * max(r.T, 1e-300)
	type use struct {
		t0, t1 float64
		k      int
	}
	res := map[string][]use{}
	sI, rI, sX, rX := make([]float64, len(m.Procs)), make([]float64, len(m.Procs)), make([]float64, len(m.Procs)), make([]float64, len(m.Procs))
	for k, tr := range trs {
		cf, ct := m.Procs[tr.From].Cluster, m.Procs[tr.To].Cluster
		beta := m.Beta
		if !tr.Inter {
			beta = m.Clusters[cf].Beta
		}
		if tr.Inter == (cf == ct) || tr.Amount <= 0 {
			return fmt.Errorf("transfer %d %+v: wrong kind or amount", k, tr)
		}
		if tr.Start < -tol || tr.End > r.T+tol || math.Abs(tr.End-tr.Start-tr.Amount*beta) > tol {
			return fmt.Errorf("transfer %d %+v: outside [0, %g] or lasts %g, not %g", k, tr, r.T, tr.End-tr.Start, tr.Amount*beta)
		}
		u := use{tr.Start, tr.End, k}
		res[fmt.Sprint("send", tr.From)] = append(res[fmt.Sprint("send", tr.From)], u)
		res[fmt.Sprint("recv", tr.To)] = append(res[fmt.Sprint("recv", tr.To)], u)
		if tr.Inter {
			res[fmt.Sprint("out", cf)] = append(res[fmt.Sprint("out", cf)], u)
			res[fmt.Sprint("in", ct)] = append(res[fmt.Sprint("in", ct)], u)
			sX[tr.From] += tr.Amount
			rX[tr.To] += tr.Amount
		} else {
			sI[tr.From] += tr.Amount
			rI[tr.To] += tr.Amount
		}
	}
	for name, us := range res {
		slices.SortFunc(us, func(a, b use) int { return cmp.Compare(a.t0, b.t0) })
		for k := 1; k < len(us); k++ {
			if us[k].t0 < us[k-1].t1-tol {
				return fmt.Errorf("%s: transfers %d and %d overlap: [%g, %g] and [%g, %g]", name, us[k-1].k, us[k].k, us[k-1].t0, us[k-1].t1, us[k].t0, us[k].t1)
			}
		}
	}
	for i := range m.Procs {
		scale := m.Procs[i].X + math.Abs(r.Intra[i]) + math.Abs(r.Inter[i]) + r.T/m.Beta
		if d := rI[i] - sI[i] - r.Intra[i]; math.Abs(d) > 1e-9*scale {
			return fmt.Errorf("P%d: intra net %g, round says %g", i, rI[i]-sI[i], r.Intra[i])
		}
		if d := rX[i] - sX[i] - r.Inter[i]; math.Abs(d) > 1e-9*scale {
			return fmt.Errorf("P%d: inter net %g, round says %g", i, rX[i]-sX[i], r.Inter[i])
		}
	}
	return nil
}

func TestRoundLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 300
	if testing.Short() || !slowtest.Enabled() {
		n = 60
	}
	count := 0
	for k := range n {
		pl, pr := randomInstance(rng, genOptions{maxClusters: 5, maxProcs: 6, noOverlap: 0.3})
		m, err := NewModel(pl, pr)
		if err != nil {
			t.Fatal(err)
		}
		for _, relays := range []bool{true, false} {
			r, err := RoundTime(m, relays)
			if err != nil {
				t.Fatal(err)
			}
			trs, _, err := RoundLayout(m, r)
			if err != nil {
				t.Fatalf("instance %d relays %v: %v", k, relays, err)
			}
			if err := layoutViolations(m, r, trs); err != nil {
				t.Errorf("instance %d relays %v: %v", k, relays, err)
			}
			count += len(trs)
		}
	}
	t.Logf("%d transfers", count)
}

package multicluster

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/netsched/netsched/models"
)

// lpRoundTime is the minimum steady-state round time with relays allowed,
// as a linear program written from the platform's rules (DESIGN.md,
// "multicluster") and not from the paper's formulas, solved by gonum's
// simplex. Per processor i of cluster j it has the amounts sent and
// received inside the cluster and across clusters in one round of length T,
// s_i^I, r_i^I, s_i^X, r_i^X ≥ 0:
//
//   - single port, full duplex: β_j s_i^I + β s_i^X ≤ T (send port) and
//     β_j r_i^I + β r_i^X ≤ T (receive port);
//   - the work it keeps, w_i = x_i + r_i^I + r_i^X − s_i^I − s_i^X, is ≥ 0
//     and fits the round at its rates: w_i ≤ T/γ_i − Σ_k t_k(1/γ_i − 1/γ_k)
//     with t_k the time kind k is active (β_j s_i^I for intra-send, …), the
//     work left by consistent degradation whatever overlaps what;
//   - one uplink per cluster and direction: β Σ_{i∈C_j} s_i^X ≤ T and
//     β Σ_{i∈C_j} r_i^X ≤ T;
//   - what is sent arrives: Σ_{i∈C_j} s_i^I = Σ_{i∈C_j} r_i^I for every
//     cluster, Σ_i s_i^X = Σ_i r_i^X.
//
// Nothing forbids relays, a processor that both receives and sends. It
// minimises T. The rates are models.Processor.Rate of each single kind.
func lpRoundTime(pl *models.Platform) (float64, error) {
	f := newLPForm(pl)
	if f.t0 == 0 {
		return 0, nil
	}
	return f.solve()
}

// lpForm builds lpRoundTime's program in standard form.
type lpForm struct {
	mc      *models.MultiCluster
	n       int         // processors
	nv      int         // structural variables: T and 4 per processor
	rows    [][]float64 // over the structural variables
	rhs     []float64
	eq      []bool // an equality row (no slack)
	t0      float64
	iMax    int // the processor that takes longest alone
	workRow int // its work-fits row
}

// Variable indices.
func (f *lpForm) tv() int        { return 0 }
func (f *lpForm) v(i, k int) int { return 1 + 4*i + k }
func (f *lpForm) sI(i int) int   { return f.v(i, 0) }
func (f *lpForm) rI(i int) int   { return f.v(i, 1) }
func (f *lpForm) sX(i int) int   { return f.v(i, 2) }
func (f *lpForm) rX(i int) int   { return f.v(i, 3) }
func (f *lpForm) row() []float64 { return make([]float64, f.nv) }
func (f *lpForm) add(r []float64, h float64, eq bool) int {
	f.rows, f.rhs, f.eq = append(f.rows, r), append(f.rhs, h), append(f.eq, eq)
	return len(f.rows) - 1
}

func newLPForm(pl *models.Platform) *lpForm {
	mc := pl.MultiCluster
	f := &lpForm{mc: mc, n: mc.NumProcessors()}
	f.nv = 1 + 4*f.n
	i := 0
	for _, c := range mc.Clusters {
		for _, p := range c.Processors {
			if t := p.Load * p.Gamma; t > f.t0 {
				f.t0, f.iMax = t, i
			}
			i++
		}
	}
	i = 0
	interBal := f.row()
	for _, c := range mc.Clusters {
		up, down, bal := f.row(), f.row(), f.row()
		up[f.tv()], down[f.tv()] = -1, -1
		for _, p := range c.Processors {
			f.processor(i, p, c.Beta, mc.Beta)
			up[f.sX(i)], down[f.rX(i)] = mc.Beta, mc.Beta
			bal[f.sI(i)], bal[f.rI(i)] = 1, -1
			interBal[f.sX(i)], interBal[f.rX(i)] = 1, -1
			i++
		}
		f.add(up, 0, false)
		f.add(down, 0, false)
		f.add(bal, 0, true)
	}
	f.add(interBal, 0, true)
	return f
}

// processor adds the rows of processor i of a cluster with time per unit bj.
func (f *lpForm) processor(i int, p models.Processor, bj, beta float64) {
	p.Combined = nil
	r0 := p.Rate(nil)
	loss := func(kind string) float64 { return r0 - p.Rate([]string{kind}) }
	send, recv := f.row(), f.row()
	send[f.tv()], recv[f.tv()] = -1, -1
	send[f.sI(i)], send[f.sX(i)] = bj, beta
	recv[f.rI(i)], recv[f.rX(i)] = bj, beta
	f.add(send, 0, false)
	f.add(recv, 0, false)
	// w_i − T/γ_i + Σ_k t_k·loss_k ≤ 0, with w_i = x_i + r − s.
	fits := f.row()
	fits[f.tv()] = -r0
	fits[f.rI(i)] = 1 + bj*loss(models.KindIntraRecv)
	fits[f.rX(i)] = 1 + beta*loss(models.KindInterRecv)
	fits[f.sI(i)] = -1 + bj*loss(models.KindIntraSend)
	fits[f.sX(i)] = -1 + beta*loss(models.KindInterSend)
	k := f.add(fits, -p.Load, false)
	if i == f.iMax {
		f.workRow = k
	}
	// −w_i ≤ 0.
	keeps := f.row()
	keeps[f.rI(i)], keeps[f.rX(i)], keeps[f.sI(i)], keeps[f.sX(i)] = -1, -1, 1, 1
	f.add(keeps, p.Load, false)
}

// solve puts the program in standard form (a slack per inequality) and
// runs the simplex from a known feasible basis: nothing moves and T is the
// longest own-load time, tight in that processor's work row; the
// equalities take an amount variable each, at 0.
func (f *lpForm) solve() (float64, error) {
	m := len(f.rows)
	slack := make([]int, m)
	cols := f.nv
	for k := range f.rows {
		slack[k] = -1
		if !f.eq[k] {
			slack[k] = cols
			cols++
		}
	}
	A := mat.NewDense(m, cols, nil)
	for k, r := range f.rows {
		for v, x := range r {
			A.Set(k, v, x)
		}
		if slack[k] >= 0 {
			A.Set(k, slack[k], 1)
		}
	}
	c := make([]float64, cols)
	c[f.tv()] = 1
	basic := make([]int, 0, m)
	basic = append(basic, f.tv())
	first := 0
	for k := range f.rows {
		switch {
		case k == f.workRow:
		case slack[k] >= 0:
			basic = append(basic, slack[k])
		}
	}
	// One amount per equality row: the intra-send of each cluster's first
	// processor, and the inter-send of processor 0 for the last row.
	for _, cl := range f.mc.Clusters {
		basic = append(basic, f.sI(first))
		first += len(cl.Processors)
	}
	basic = append(basic, f.sX(0))
	if len(basic) != m {
		return 0, fmt.Errorf("lp: %d basic variables for %d rows", len(basic), m)
	}
	opt, _, err := lp.Simplex(c, A, f.rhs, 1e-10, basic)
	return opt, err
}

package mmdl

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/netsched/netsched/models"
)

// lpRoundTime is the minimum round time as a linear program, written from
// the platform's rules and not from the paper's formulas, and solved by
// gonum's simplex. Per processor i it has the amount sent s_i and received
// r_i in one round of length T:
//
//   - a master's results come back, a worker's go out (ρ per unit), so the
//     send port is busy a_i = β(s_i + ρr_i) and the receive port
//     b_i = β(r_i + ρs_i);
//   - half duplex: a_i + b_i ≤ T; full duplex: a_i ≤ T, b_i ≤ T, and the
//     time τ_i both are busy lies in [max(0, a_i + b_i − T), min(a_i, b_i)];
//   - the work done in the round at the platform's rates
//     (models.Processor.Rate of each set of active kinds) is at least what
//     the processor keeps and receives, x_i − s_i + r_i ≥ 0;
//   - Σ s_i = Σ r_i.
//
// It minimises T.
func lpRoundTime(pl *models.Platform, pr *models.Problem) (float64, error) {
	cb := pl.Crossbar
	p := len(cb.Processors)
	iMax, tMax := 0, 0.0 // the processor that takes longest alone
	for i, proc := range cb.Processors {
		if t := proc.Load * proc.Gamma; t > tMax {
			iMax, tMax = i, t
		}
	}
	if tMax == 0 {
		return 0, nil
	}
	f := newLPForm(pl, pr)
	for i := range p {
		f.processor(i)
	}
	rows, rhs := f.eliminateLastReceive()
	// Standard form: one slack per row; the column of r_{p-1} is gone.
	keep := make([]int, 0, f.nv)
	for j := range f.nv {
		if j != f.r(p-1) {
			keep = append(keep, j)
		}
	}
	m, n := len(rows), len(keep)+len(rows)
	A := mat.NewDense(m, n, nil)
	for k, row := range rows {
		for c, j := range keep {
			A.Set(k, c, row[j])
		}
		A.Set(k, len(keep)+k, 1)
	}
	c := make([]float64, n)
	c[f.t()] = 1
	// A feasible basis, so that gonum's phase I (fragile on these
	// degenerate programs) is not needed: nothing moves, T = max x_iγ_i is
	// tight in the work row of that processor, every other slack is basic.
	basic := []int{f.t()}
	for k := range rows {
		if k != f.workRow[iMax] {
			basic = append(basic, len(keep)+k)
		}
	}
	opt, _, err := lp.Simplex(c, A, rhs, 1e-12, basic)
	return opt, err
}

// lpForm collects the rows G x ≤ h of lpRoundTime over the variables
// T, s_0…s_{p-1}, r_0…r_{p-1} and, in full duplex, τ_0…τ_{p-1}.
type lpForm struct {
	pl      *models.Platform
	p, nv   int
	rho     float64
	full    bool
	rows    [][]float64
	rhs     []float64
	workRow []int
}

func newLPForm(pl *models.Platform, pr *models.Problem) *lpForm {
	p := len(pl.Crossbar.Processors)
	f := &lpForm{pl: pl, p: p, nv: 1 + 2*p, full: pl.Crossbar.Duplex == models.FullDuplex, workRow: make([]int, p)}
	if f.full {
		f.nv += p
	}
	if d := pr.Divisible; d.CollectResults {
		f.rho = d.ResultSize
	}
	return f
}

func (f *lpForm) t() int        { return 0 }
func (f *lpForm) s(i int) int   { return 1 + i }
func (f *lpForm) r(i int) int   { return 1 + f.p + i }
func (f *lpForm) tau(i int) int { return 1 + 2*f.p + i }

// lin is a linear expression over the variables.
type lin map[int]float64

func (e lin) plus(o lin, scale float64) lin {
	out := lin{}
	for k, v := range e {
		out[k] += v
	}
	for k, v := range o {
		out[k] += scale * v
	}
	return out
}

// atMost adds the row e ≤ h.
func (f *lpForm) atMost(e lin, h float64) {
	row := make([]float64, f.nv)
	for k, v := range e {
		row[k] += v
	}
	f.rows = append(f.rows, row)
	f.rhs = append(f.rhs, h)
}

// processor adds the rows of processor i.
func (f *lpForm) processor(i int) {
	proc := f.pl.Crossbar.Processors[i]
	beta := f.pl.Crossbar.Beta
	s, r := f.s(i), f.r(i)
	a := lin{s: beta, r: beta * f.rho} // send port busy
	b := lin{s: beta * f.rho, r: beta} // receive port busy
	T := lin{f.t(): 1}
	r0 := proc.Rate(nil)
	r1 := proc.Rate([]string{models.KindSend})
	r2 := proc.Rate([]string{models.KindRecv})
	// need − capacity ≤ 0, need = x − s + r, capacity = r0·T + (r1−r0)a +
	// (r2−r0)b (+ (r3−r1−r2+r0)τ in full duplex).
	work := lin{s: -1, r: 1}.plus(T, -r0).plus(a, r0-r1).plus(b, r0-r2)
	if f.full {
		tau := lin{f.tau(i): 1}
		r3 := proc.Rate([]string{models.KindSend, models.KindRecv})
		f.atMost(a.plus(T, -1), 0)
		f.atMost(b.plus(T, -1), 0)
		f.atMost(tau.plus(a, -1), 0)
		f.atMost(tau.plus(b, -1), 0)
		f.atMost(a.plus(b, 1).plus(T, -1).plus(tau, -1), 0)
		work = work.plus(tau, -(r3 - r1 - r2 + r0))
	} else {
		f.atMost(a.plus(b, 1).plus(T, -1), 0)
	}
	f.workRow[i] = len(f.rows)
	f.atMost(work, -proc.Load)
	f.atMost(lin{s: 1, r: -1}, proc.Load)
}

// eliminateLastReceive replaces r_{p-1} by Σ s_i − Σ_{j<p-1} r_j (the
// balance Σ s = Σ r) in every row and adds r_{p-1} ≥ 0 as a row, so that
// the program has inequalities only and an obvious feasible basis.
func (f *lpForm) eliminateLastReceive() ([][]float64, []float64) {
	last := f.r(f.p - 1)
	sub := func(row []float64) {
		c := row[last]
		row[last] = 0
		for i := range f.p {
			row[f.s(i)] += c
			if i != f.p-1 {
				row[f.r(i)] -= c
			}
		}
	}
	for _, row := range f.rows {
		sub(row)
	}
	neg := make([]float64, f.nv)
	neg[last] = -1
	sub(neg)
	return append(f.rows, neg), append(f.rhs, 0)
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestRoundTimeMatchesLP checks T against the LP on random instances of
// every variant, to 1e-9 relative, and that the y_i it returns are feasible
// for the LP's constraints.
func TestRoundTimeMatchesLP(t *testing.T) {
	const perVariant = 250
	for vi, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(vi)))
			worst, atTL := 0.0, 0
			for n := range perVariant {
				pl, pr := randomInstance(r, v, 12, 0)
				m := mustModel(t, pl, pr)
				round := RoundTime(m)
				want, err := lpRoundTime(pl, pr)
				if err != nil {
					t.Fatalf("instance %d: LP: %v", n, err)
				}
				d := relDiff(round.T, want)
				worst = max(worst, d)
				if d > 1e-9 {
					t.Errorf("instance %d (p=%d, β=%g): RoundTime T = %.15g, LP = %.15g", n, len(m.Procs), m.Beta, round.T, want)
				}
				if round.T == round.TL {
					atTL++
				}
				checkAllocation(t, m, round)
			}
			t.Logf("%d instances, worst relative difference %.2g, %d with T = T_L", perVariant, worst, atTL)
			if atTL == 0 || atTL == perVariant {
				t.Errorf("the instances should reach both T = T_L and the root of Y (got %d of %d at T_L)", atTL, perVariant)
			}
		})
	}
}

// checkAllocation checks that y is balanced and that every processor can
// do its part in T: ports within T, work within its capacity, nothing sent
// beyond what it has.
func checkAllocation(t *testing.T, m *Model, r Round) {
	t.Helper()
	sum, scale := 0.0, 0.0
	for i := range m.Procs {
		p := &m.Procs[i]
		y := r.Y[i]
		sum += y
		scale += math.Abs(y) + p.X
		s, rc := max(-y, 0), max(y, 0)
		a, b := m.Beta*(s+m.Rho*rc), m.Beta*(rc+m.Rho*s)
		port := a + b
		if m.Full {
			port = max(a, b)
		}
		capacity := r.T*p.Rate[0] - a*p.lossSend() - b*p.lossRecv()
		tol := 1e-9 * max(1, r.T)
		if port > r.T+tol || p.X+y < -tol || (p.X+y)-capacity > 1e-9*max(1, p.X+y) {
			t.Errorf("processor %d: y = %g infeasible in T = %g: port %g, work %g of capacity %g", i, y, r.T, port, p.X+y, capacity)
		}
	}
	if math.Abs(sum) > 1e-9*max(1, scale) {
		t.Errorf("Σ y_i = %g, want 0", sum)
	}
}

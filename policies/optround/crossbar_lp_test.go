package optround

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// solveGonum solves program p with gonum's simplex: an independent solver
// of the same rows, the oracle of the tests.
func solveGonum(p *program) ([]float64, error) {
	m, n := len(p.rows), p.nv+len(p.rows)
	A := mat.NewDense(m, n, nil)
	basic := []int{0}
	for k, row := range p.rows {
		for _, t := range row {
			A.Set(k, t.v, A.At(k, t.v)+t.a)
		}
		A.Set(k, p.nv+k, 1)
		if k != p.tight {
			basic = append(basic, p.nv+k)
		}
	}
	c := make([]float64, n)
	c[0] = 1
	_, x, err := lp.Simplex(c, A, p.rhs, 1e-10, basic)
	if err != nil {
		return nil, err
	}
	return x[:p.nv], nil
}

// lpCrossbar computes the optimal round of a divisible load on a crossbar,
// with or without overlap, result collection and full-duplex ports. The
// program has, per processor, the load it sends s_i and receives r_i in a
// round of length T:
//
//   - its send port carries its load out and the results of what it
//     received back, u_i = β(s_i + ρr_i); its receive port v_i = β(r_i +
//     ρs_i); half duplex: u_i + v_i ≤ T, full duplex: u_i ≤ T and v_i ≤ T;
//   - what it computes, x_i − s_i + r_i, is at least 0 and at most the work
//     T/γ_i less the rate lost while it sends and receives,
//     u_i·(1/γ_i − 1/γ_i^send) + v_i·(1/γ_i − 1/γ_i^recv);
//   - Σ s_i = Σ r_i.
//
// It minimises T, as one program solved by gonum's simplex: the oracle of
// Crossbar's search.
func lpCrossbar(pl *models.Platform, pr *models.Problem) (*CrossbarRound, error) {
	cb := pl.Crossbar
	rho := 0.0
	if d := pr.Divisible; d.CollectResults {
		rho = d.ResultSize
	}
	p := &program{nv: 1}
	n := len(cb.Processors)
	s, r := make([]int, n), make([]int, n)
	var sent, got []term
	t0 := 0.0
	for i := range cb.Processors {
		proc := cb.Processors[i]
		proc.Combined = nil // the rule's rates
		s[i], r[i] = p.newVar(), p.newVar()
		sent, got = append(sent, term{s[i], 1}), append(got, term{r[i], -1})
		b := cb.Beta
		u := []term{{s[i], b}, {r[i], rho * b}} // send port time
		v := []term{{r[i], b}, {s[i], rho * b}} // receive port time
		if cb.Duplex == models.FullDuplex {
			p.atMost(0, append(u, term{0, -1})...)
			p.atMost(0, append(v, term{0, -1})...)
		} else {
			p.atMost(0, append(append(u, v...), term{0, -1})...)
		}
		base := proc.Rate(nil)
		ls := base - proc.Rate([]string{models.KindSend})
		lr := base - proc.Rate([]string{models.KindRecv})
		work := p.atMost(-proc.Load, term{s[i], -1 + ls*b + lr*rho*b}, term{r[i], 1 + lr*b + ls*rho*b}, term{0, -base})
		if proc.Load*proc.Gamma > t0 {
			t0, p.tight = proc.Load*proc.Gamma, work
		}
		p.atMost(proc.Load, term{s[i], 1}, term{r[i], -1})
	}
	if t0 == 0 {
		return &CrossbarRound{Y: make([]float64, n)}, nil
	}
	p.equal(append(sent, got...)...)
	x, err := solveGonum(p)
	if err != nil {
		return nil, fmt.Errorf("optimal round on %d processors: %w", n, err)
	}
	out := &CrossbarRound{T: x[0], Y: make([]float64, n)}
	for i := range out.Y {
		out.Y[i] = x[r[i]] - x[s[i]]
	}
	return out, nil
}

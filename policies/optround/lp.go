// Package optround computes the optimal steady-state round of a divisible
// load (the round of length T in which every processor does its share, R =
// 1 and α = 0) by linear programming, with gonum's simplex
// (gonum.org/v1/gonum/optimize/convex/lp), on the crossbar of paper 000 and
// the two-level multi-cluster of paper 001, for any parameters: the papers'
// closed forms need their assumptions, the linear program does not.
//
// The programs are written from the platforms' rules (ports, uplinks, the
// work a processor does at the rates its communications leave it), not
// from the papers' formulas; the policy divisible-lp (package divisiblelp)
// expands their rounds into schedules, and multicluster reports its gap to
// the optimum under force.
//
// Rates are those of the consistent-degradation rule taken as linear: a
// processor that communicates in several ways at once loses the sum of
// their rate losses. Where the platform floors that rate at 0 (losses
// adding up to more than the rate) the processor computes faster than the
// program assumes, so its T is achieved but a lower one might be too.
package optround

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// program is a linear program min T subject to rows Σ a·x ≤ h, x ≥ 0,
// over variable 0 (the round time T) and the amounts it creates, whose
// point "T = T0, every amount 0" is feasible with row tight tight.
type program struct {
	nv    int
	rows  [][]term
	rhs   []float64
	tight int // the row T is basic in at the start
}

// term is one coefficient of a row.
type term struct {
	v int
	a float64
}

// noVar is a variable left out of the program (fixed at 0).
const noVar = -1

// newVar adds a variable.
func (p *program) newVar() int {
	p.nv++
	return p.nv - 1
}

// atMost adds the row Σ terms ≤ h (terms of noVar left out) and returns its index.
func (p *program) atMost(h float64, terms ...term) int {
	row := make([]term, 0, len(terms))
	for _, t := range terms {
		if t.v != noVar && t.a != 0 {
			row = append(row, t)
		}
	}
	p.rows = append(p.rows, row)
	p.rhs = append(p.rhs, h)
	return len(p.rows) - 1
}

// equal adds Σ terms = 0 as two rows.
func (p *program) equal(terms ...term) {
	p.atMost(0, terms...)
	neg := make([]term, len(terms))
	for k, t := range terms {
		neg[k] = term{t.v, -t.a}
	}
	p.atMost(0, neg...)
}

// solveTol is the simplex's tolerance on reduced costs.
const solveTol = 1e-10

// solve runs the simplex in standard form (a slack per row) from the
// basis of T and every slack but the tight row's, and returns the optimal
// variables.
func (p *program) solve() ([]float64, error) {
	m, n := len(p.rows), p.nv+len(p.rows)
	if m == 0 {
		return nil, errors.New("lp: no rows")
	}
	A := mat.NewDense(m, n, nil)
	basic := make([]int, 0, m)
	basic = append(basic, 0)
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
	_, x, err := lp.Simplex(c, A, p.rhs, solveTol, basic)
	if err != nil {
		return nil, fmt.Errorf("lp: %d rows, %d variables: %w", m, p.nv, err)
	}
	return x[:p.nv], nil
}

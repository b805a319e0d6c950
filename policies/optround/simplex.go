package optround

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Tolerances of the simplex: a reduced cost below −reducedTol improves
// the objective; a pivot element must exceed pivotTol; a ratio may exceed
// the least one by harrisTol (Harris's two-pass ratio test) to take a
// larger, steadier pivot.
const (
	reducedTol = 1e-10
	pivotTol   = 1e-9
	harrisTol  = 1e-11
)

// blandAfter is the number of degenerate pivots in a row after which the
// simplex enters by Bland's rule (smallest index), which cannot cycle,
// until a pivot makes progress.
const blandAfter = 50

// TableauBytes is the memory of the dense simplex tableau of a program of
// m rows and nv variables: m+1 rows of nv+m+1 float64.
func TableauBytes(m, nv int) float64 { return 8 * float64(m+1) * float64(nv+m+1) }

// tableau is a dense simplex tableau of min x_0 subject to A x + s = h,
// x, s ≥ 0: rows 0 … m−1 the constraints (columns: the nv variables, the m
// slacks, the right-hand side last), row m the reduced costs with minus
// the objective's value last.
type tableau struct {
	m, nv, w int
	t        []float64
	basis    []int
	pivots   int
	nz       []int            // scratch: the pivot row's nonzero columns
	onPivot  func(pivots int) // test hook, called after every pivot
}

// newTableau writes program p with every slack basic.
func newTableau(p *program) *tableau {
	m := len(p.rows)
	tb := &tableau{m: m, nv: p.nv, w: p.nv + m + 1, basis: make([]int, m)}
	tb.t = make([]float64, (m+1)*tb.w)
	for k, row := range p.rows {
		r := tb.row(k)
		for _, t := range row {
			r[t.v] += t.a
		}
		r[p.nv+k] = 1
		r[tb.w-1] = p.rhs[k]
		tb.basis[k] = p.nv + k
	}
	tb.row(m)[0] = 1 // minimise x_0
	return tb
}

func (tb *tableau) row(k int) []float64 { return tb.t[k*tb.w : (k+1)*tb.w] }

// pivot makes column c basic in row r.
func (tb *tableau) pivot(r, c int) {
	pr := tb.row(r)
	inv := 1 / pr[c]
	for j := range pr {
		pr[j] *= inv
	}
	pr[c] = 1
	tb.nz = tb.nz[:0] // the pivot row's entries, most of them 0 in these programs
	for j, v := range pr {
		if v != 0 {
			tb.nz = append(tb.nz, j)
		}
	}
	for k := 0; k <= tb.m; k++ {
		row := tb.row(k)
		f := row[c]
		if k == r || f == 0 {
			continue // most rows have no entry in c either
		}
		for _, j := range tb.nz {
			row[j] -= f * pr[j]
		}
		row[c] = 0
		if k < tb.m && row[tb.w-1] < 0 && row[tb.w-1] > -1e-12 {
			row[tb.w-1] = 0 // rounding below a bound at 0
		}
	}
	tb.basis[r] = c
}

// entering is the column to enter: the most negative reduced cost
// (Dantzig), or with bland the first negative one; −1 at the optimum.
func (tb *tableau) entering(bland bool) int {
	d := tb.row(tb.m)[:tb.w-1]
	best, at := -reducedTol, -1
	for j, v := range d {
		if v < best {
			if bland {
				return j
			}
			best, at = v, j
		}
	}
	return at
}

// leaving is the row to leave for column c by the ratio test: Harris's
// two passes (the largest pivot among ratios within harrisTol of the
// least), or with bland the least ratio and then the smallest basic index;
// −1 if c is unbounded.
func (tb *tableau) leaving(c int, bland bool) int {
	h := tb.w - 1
	bound := math.Inf(1)
	for k := range tb.m {
		if a := tb.t[k*tb.w+c]; a > pivotTol {
			slack := harrisTol
			if bland {
				slack = 0
			}
			bound = min(bound, (max(tb.t[k*tb.w+h], 0)+slack)/a)
		}
	}
	at, big := -1, 0.0
	for k := range tb.m {
		a := tb.t[k*tb.w+c]
		if a <= pivotTol || max(tb.t[k*tb.w+h], 0)/a > bound {
			continue
		}
		switch {
		case at < 0, bland && tb.basis[k] < tb.basis[at], !bland && a > big:
			at, big = k, a
		}
	}
	return at
}

// solve runs the primal simplex from a feasible basis until no reduced
// cost is negative. It checks ctx after every pivot.
func (tb *tableau) solve(ctx context.Context) error {
	limit := 50 * (tb.m + tb.nv)
	degenerate := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if tb.pivots > limit {
			return fmt.Errorf("no optimum after %d pivots", tb.pivots)
		}
		bland := degenerate > blandAfter
		c := tb.entering(bland)
		if c < 0 {
			return nil
		}
		r := tb.leaving(c, bland)
		if r < 0 {
			return errors.New("the program is unbounded")
		}
		if tb.t[r*tb.w+tb.w-1] <= 1e-12*max(1, math.Abs(tb.t[tb.m*tb.w+tb.w-1])) {
			degenerate++
		} else {
			degenerate = 0
		}
		tb.pivot(r, c)
		tb.pivots++
		if tb.onPivot != nil {
			tb.onPivot(tb.pivots)
		}
	}
}

// values are the variables of the basic solution.
func (tb *tableau) values() []float64 {
	x := make([]float64, tb.nv)
	for k, b := range tb.basis {
		if b < tb.nv {
			x[b] = max(0, tb.t[k*tb.w+tb.w-1])
		}
	}
	return x
}

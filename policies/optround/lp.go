// Package optround computes the optimal steady-state round of a divisible
// load (the round of length T in which every processor does its share, R =
// 1 and α = 0) by linear programming, on the crossbar of paper 000 and the
// two-level multi-cluster of paper 001, for any parameters: the papers'
// closed forms need their assumptions, the linear program does not.
//
// On a crossbar the program splits by processor once T is fixed: each
// processor's feasible net loads form an interval, and T is feasible when
// the intervals' sums bracket 0 (Crossbar bisects on T, O(P) per step). The
// multi-cluster program couples processors through uplinks and clusters;
// it is solved by a dense primal simplex (tableau) that checks its context
// after every pivot, of MultiClusterBytes memory (about 32 P² bytes) and
// time growing about as P³.
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
	"context"
	"errors"
	"fmt"
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

// solve runs the simplex from the basis of T in the tight row and every
// other row's slack, and returns the optimal variables. It stops with
// ctx's error within a pivot of ctx being done; onPivot, if not nil, is
// called after every pivot (tests cancel from it).
func (p *program) solve(ctx context.Context, onPivot func(pivots int)) ([]float64, error) {
	m := len(p.rows)
	if m == 0 {
		return nil, errors.New("lp: no rows")
	}
	tb := newTableau(p)
	tb.onPivot = onPivot
	tb.pivot(p.tight, 0)
	h := tb.w - 1
	for k := range m {
		if v := tb.t[k*tb.w+h]; v < -1e-9*max(1, tb.t[p.tight*tb.w+h]) {
			return nil, fmt.Errorf("lp: the starting point breaks row %d by %g (a bug)", k, -v)
		} else if v < 0 {
			tb.t[k*tb.w+h] = 0
		}
	}
	if err := tb.solve(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("lp: %d rows, %d variables: %w", m, p.nv, err)
	}
	return tb.values(), nil
}

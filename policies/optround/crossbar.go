package optround

import (
	"context"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
)

// CrossbarRound is the optimal round on a crossbar (paper 000, §2 and
// §4): its time T and the net load y_i of every processor (y_i < 0: it
// sends −y_i; y_i > 0: it receives y_i).
type CrossbarRound struct {
	T float64
	Y []float64
}

// Crossbar computes the optimal round of a divisible load on a crossbar,
// with or without overlap, result collection and full-duplex ports. The
// linear program has, per processor, the load it sends s_i and receives
// r_i in a round of length T:
//
//   - its send port carries its load out and the results of what it
//     received back, u_i = β(s_i + ρr_i); its receive port v_i = β(r_i +
//     ρs_i); half duplex: u_i + v_i ≤ T, full duplex: u_i ≤ T and v_i ≤ T;
//   - what it computes, x_i − s_i + r_i, is at least 0 and at most the work
//     T/γ_i less the rate lost while it sends and receives,
//     u_i·(1/γ_i − 1/γ_i^send) + v_i·(1/γ_i − 1/γ_i^recv);
//   - Σ s_i = Σ r_i.
//
// It minimises T. For a fixed T the only row that joins processors is the
// last, so T is feasible exactly when every processor's set of feasible
// net loads y_i = r_i − s_i (an interval, netRange) is not empty and the
// intervals' lower ends add up to at most 0 and their upper ends to at
// least 0. Feasibility only grows with T, and T = max x_iγ_i (nobody
// sends) is feasible, so Crossbar bisects on T to the last bit, O(P) per
// step, and then picks every y_i at the same fraction of its interval so
// that they add up to 0. It checks ctx at every step. The platform is
// validated by the caller.
func Crossbar(ctx context.Context, pl *models.Platform, pr *models.Problem) (*CrossbarRound, error) {
	cb := pl.Crossbar
	rho := 0.0
	if d := pr.Divisible; d.CollectResults {
		rho = d.ResultSize
	}
	procs := make([]procRows, len(cb.Processors))
	t0 := 0.0
	for i := range cb.Processors {
		procs[i] = newProcRows(cb.Processors[i], cb.Beta, rho, cb.Duplex == models.FullDuplex)
		t0 = max(t0, cb.Processors[i].Load*cb.Processors[i].Gamma)
	}
	out := &CrossbarRound{Y: make([]float64, len(procs))}
	if t0 == 0 {
		return out, nil
	}
	lo, hi := 0.0, t0
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if feasibleAt(procs, mid, nil) {
			hi = mid
		} else {
			lo = mid
		}
	}
	out.T = hi
	ranges := make([][2]float64, len(procs))
	if !feasibleAt(procs, hi, ranges) {
		return nil, fmt.Errorf("optimal round on %d processors: T = %g is not feasible (a bug)", len(procs), hi)
	}
	sumLo, sumHi := 0.0, 0.0
	for _, r := range ranges {
		sumLo, sumHi = sumLo+r[0], sumHi+r[1]
	}
	theta := 0.0
	if sumHi > sumLo {
		theta = min(1, max(0, -sumLo/(sumHi-sumLo)))
	}
	for i, r := range ranges {
		out.Y[i] = r[0] + theta*(r[1]-r[0])
	}
	Balance(out.Y)
	return out, nil
}

// feasibleAt reports whether round time T is feasible, and writes every
// processor's interval of net loads into ranges if not nil.
func feasibleAt(procs []procRows, T float64, ranges [][2]float64) bool {
	sumLo, sumHi := 0.0, 0.0
	for i := range procs {
		lo, hi, ok := procs[i].netRange(T)
		if !ok {
			return false
		}
		sumLo, sumHi = sumLo+lo, sumHi+hi
		if ranges != nil {
			ranges[i] = [2]float64{lo, hi}
		}
	}
	scale := max(-sumLo, sumHi) * 1e-13
	return sumLo <= scale && sumHi >= -scale
}

// halfPlane is the row a·s + b·r ≤ h0 + hT·T of one processor.
type halfPlane struct{ a, b, h0, hT float64 }

// procRows are the rows of one processor's (s, r) in Crossbar's program.
type procRows struct{ rows []halfPlane }

// newProcRows writes the rows of processor p (the rule's rates).
func newProcRows(p models.Processor, beta, rho float64, fullDuplex bool) procRows {
	p.Combined = nil // the rule's rates
	base := p.Rate(nil)
	ls := base - p.Rate([]string{models.KindSend})
	lr := base - p.Rate([]string{models.KindRecv})
	rows := []halfPlane{{-1, 0, 0, 0}, {0, -1, 0, 0}} // s, r ≥ 0
	if fullDuplex {
		rows = append(rows, halfPlane{beta, rho * beta, 0, 1}, halfPlane{rho * beta, beta, 0, 1})
	} else {
		rows = append(rows, halfPlane{beta * (1 + rho), beta * (1 + rho), 0, 1})
	}
	rows = append(rows,
		halfPlane{-1 + ls*beta + lr*rho*beta, 1 + lr*beta + ls*rho*beta, -p.Load, base}, // work within the rate left
		halfPlane{1, -1, p.Load, 0}) // work ≥ 0
	return procRows{rows: rows}
}

// netRange is the interval [lo, hi] of r − s over the processor's
// feasible (s, r) at round time T, from the vertices of that polygon
// (bounded: the port rows bound s and r); ok is false when it is empty.
func (p procRows) netRange(T float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	rows := p.rows
	for i := range rows {
		for j := i + 1; j < len(rows); j++ {
			u, v := rows[i], rows[j]
			det := u.a*v.b - u.b*v.a
			if math.Abs(det) <= 1e-14*(math.Abs(u.a*v.b)+math.Abs(u.b*v.a)) {
				continue // parallel
			}
			hu, hv := u.h0+u.hT*T, v.h0+v.hT*T
			s, r := (hu*v.b-u.b*hv)/det, (u.a*hv-hu*v.a)/det
			if !p.holds(s, r, T) {
				continue
			}
			lo, hi = min(lo, r-s), max(hi, r-s)
		}
	}
	return lo, hi, lo <= hi
}

// holds reports whether (s, r) keeps every row at T, to rounding.
func (p procRows) holds(s, r, T float64) bool {
	for _, h := range p.rows {
		lhs, rhs := h.a*s+h.b*r, h.h0+h.hT*T
		if lhs-rhs > 1e-12*(math.Abs(h.a*s)+math.Abs(h.b*r)+math.Abs(h.h0)+math.Abs(h.hT*T)) {
			return false
		}
	}
	return true
}

// Balance scales the positive entries of y so that they add up to minus
// the negative ones: what is received is what is sent, to the last bit a
// solver leaves. In Crossbar's rounds scaling a positive net load towards
// 0 keeps it feasible (0 is feasible for a processor that can receive).
func Balance(y []float64) {
	out, in := 0.0, 0.0
	for _, v := range y {
		out, in = out+max(0, -v), in+max(0, v)
	}
	if in == 0 {
		return
	}
	for i, v := range y {
		if v > 0 {
			y[i] = v * out / in
		}
	}
}

package multicluster

import "math"

// lin is the linear function a·T + b of the round time T. Every quantity of
// §3 is piecewise linear in T (§3.4); evaluated at one T with lin values,
// it comes out as the linear function it equals around T.
type lin struct{ a, b float64 }

// tee is T itself.
var tee = lin{1, 0}

func constant(b float64) lin            { return lin{0, b} }
func (f lin) at(T float64) float64      { return f.a*T + f.b }
func (f lin) add(g lin) lin             { return lin{f.a + g.a, f.b + g.b} }
func (f lin) sub(g lin) lin             { return lin{f.a - g.a, f.b - g.b} }
func (f lin) scale(k float64) lin       { return lin{k * f.a, k * f.b} }
func (f lin) plus(b float64) lin        { return lin{f.a, f.b + b} }
func (f lin) axpy(k float64, g lin) lin { return lin{f.a + k*g.a, f.b + k*g.b} }

// piece is where the branches taken by an evaluation at T stay the same:
// every comparison of two linear functions made at T holds on one side of
// where they cross, and piece narrows [lo, hi] to it. On [lo, hi] a
// quantity evaluated as a lin is exactly that linear function (§3.4: the
// function is linear between two breakpoints).
type piece struct {
	T, lo, hi float64
}

func newPiece(T float64) piece { return piece{T: T, lo: math.Inf(-1), hi: math.Inf(1)} }

// holdsNonPos records that d ≤ 0 was found at T, and keeps to where it still is.
func (p *piece) holdsNonPos(d lin) {
	switch r := -d.b / d.a; {
	case d.a > 0:
		p.hi = min(p.hi, r)
	case d.a < 0:
		p.lo = max(p.lo, r)
	}
}

// holdsPos records that d > 0 was found at T.
func (p *piece) holdsPos(d lin) { p.holdsNonPos(d.scale(-1)) }

// le reports f(T) ≤ g(T) and records it.
func (p *piece) le(f, g lin) bool {
	d := f.sub(g)
	if d.at(p.T) <= 0 {
		p.holdsNonPos(d)
		return true
	}
	p.holdsPos(d)
	return false
}

// neg reports f(T) < 0 and records it.
func (p *piece) neg(f lin) bool { return !p.le(constant(0), f) }

// min is the smaller of f and g at T.
func (p *piece) min(f, g lin) lin {
	if p.le(f, g) {
		return f
	}
	return g
}

// max is the larger of f and g at T.
func (p *piece) max(f, g lin) lin {
	if p.le(f, g) {
		return g
	}
	return f
}

// clamp0 is max(f, 0).
func (p *piece) clamp0(f lin) lin { return p.max(f, constant(0)) }

// clamp is f kept within [0, hi].
func (p *piece) clamp(f, hi lin) lin { return p.min(p.clamp0(f), hi) }

// unbounded marks a limit that does not apply.
var unbounded = lin{0, math.Inf(1)}

// minOf is the smallest of the limits at T (unbounded when there are none).
func (p *piece) minOf(limits ...lin) lin {
	out := unbounded
	for _, f := range limits {
		if math.IsInf(f.b, 1) {
			continue
		}
		if math.IsInf(out.b, 1) {
			out = f
			continue
		}
		out = p.min(out, f)
	}
	return out
}

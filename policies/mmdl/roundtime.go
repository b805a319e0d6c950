package mmdl

import (
	"math"
	"slices"
)

// Round is the optimal steady-state round of §3.2 for R = 1 and α = 0:
// the minimum round time T, its lower bound T_L = max_i T_i, and the
// additional load y_i of every processor (y_i < 0: a master that sends
// −y_i; y_i > 0: a worker that receives y_i).
type Round struct {
	T  float64
	TL float64
	Y  []float64
}

// Masters lists the processors that send load, in number order.
func (r *Round) Masters() []int { return r.role(-1) }

// Workers lists the processors that receive load, in number order.
func (r *Round) Workers() []int { return r.role(1) }

func (r *Round) role(sign float64) []int {
	var out []int
	for i, y := range r.Y {
		if y*sign > 0 {
			out = append(out, i)
		}
	}
	return out
}

// RoundTime computes the minimum round time T of §3.2 (with the ȳ_i and
// T_i of §4.1–4.3 for result collection, overlap and full duplex) by the
// paper's O(p log p) method: Y(T) = Σ ȳ_i(T) is continuous, strictly
// increasing and piecewise linear, so T is T_L if Y(T_L) ≥ 0, and otherwise
// the root of Y, found by sorting the breakpoints of Y above T_L, a binary
// search for the piece where Y changes sign, and solving that linear piece
// exactly. It then sets y_i: masters send exactly what they must
// (y_i = ȳ_i(T)), and workers take ȳ_i(T) each, scaled down together when
// Y(T) > 0 so that Σ y_i = 0.
func RoundTime(m *Model) Round {
	fs := yBars{ac: m.portSlope(), f: make([]yBarFn, len(m.Procs))}
	tl := 0.0
	for i := range m.Procs {
		fs.f[i] = m.yBarOf(&m.Procs[i])
		tl = max(tl, m.minTime(&m.Procs[i]))
	}
	T := tl
	if fs.sum(tl) < 0 {
		T = fs.root(tl)
	}
	return Round{T: T, TL: tl, Y: fs.allocate(T)}
}

// yBars are the ȳ_i of every processor, and the slope of their port line.
type yBars struct {
	ac float64
	f  []yBarFn
}

// sum is Y(T).
func (fs *yBars) sum(T float64) float64 {
	y := 0.0
	for i := range fs.f {
		y += fs.f[i].value(T, fs.ac)
	}
	return y
}

// root finds T > tl with Y(T) = 0, given Y(tl) < 0.
func (fs *yBars) root(tl float64) float64 {
	bps := make([]float64, 0, len(fs.f))
	for i := range fs.f {
		bps = fs.f[i].breakpoints(bps, fs.ac)
	}
	bps = slices.DeleteFunc(bps, func(t float64) bool { return !(t > tl) })
	slices.Sort(bps)
	bps = slices.Compact(bps)
	// The first breakpoint at which Y is no longer negative.
	k, _ := slices.BinarySearchFunc(bps, 0.0, func(t, _ float64) int {
		if fs.sum(t) < 0 {
			return -1
		}
		return 1
	})
	lo, hi := tl, math.Inf(1)
	if k > 0 {
		lo = bps[k-1]
	}
	if k < len(bps) {
		hi = bps[k]
	}
	return fs.solvePiece(lo, hi)
}

// solvePiece solves Y(T) = 0 on (lo, hi], where Y is one linear function.
func (fs *yBars) solvePiece(lo, hi float64) float64 {
	probe := lo + max(lo, 1)
	if !math.IsInf(hi, 1) {
		probe = lo + (hi-lo)/2
	}
	var a, b float64
	for i := range fs.f {
		ai, bi := fs.f[i].piece(probe, fs.ac)
		a += ai
		b += bi
	}
	return min(max(-b/a, lo), hi)
}

// allocate chooses y_i at round time T (see RoundTime).
func (fs *yBars) allocate(T float64) []float64 {
	y := make([]float64, len(fs.f))
	send, take := 0.0, 0.0
	for i := range fs.f {
		y[i] = fs.f[i].value(T, fs.ac)
		if y[i] < 0 {
			send -= y[i]
		} else {
			take += y[i]
		}
	}
	scale := 0.0
	if take > 0 {
		scale = send / take
	}
	for i := range y {
		if y[i] > 0 {
			y[i] *= scale
		}
	}
	return y
}

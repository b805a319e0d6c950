// Package reservetest is the brute-force oracle the tests of sim's
// reservation calendar and of the tree replay check EarliestFit against.
package reservetest

import (
	"math"
	"slices"
)

// EarliestCandidate is the brute-force earliest fit: a transfer can only
// start at t0 or when a booking ends (ends) on a link it reaches offset
// later, so the first of those candidate starts that fits is the earliest.
// It is +Inf when none fits.
func EarliestCandidate(t0 float64, ends, offsets []float64, fits func(float64) bool) float64 {
	cands := []float64{t0}
	for _, end := range ends {
		for _, o := range offsets {
			if c := end - o; c > t0 {
				cands = append(cands, c)
			}
		}
	}
	slices.Sort(cands)
	for _, c := range cands {
		if fits(c) {
			return c
		}
	}
	return math.Inf(1)
}

// BookingEnds lists when each booking ends.
func BookingEnds[B any](books []B, end func(B) float64) []float64 {
	out := make([]float64, len(books))
	for i, b := range books {
		out[i] = end(b)
	}
	return out
}

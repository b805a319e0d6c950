package heft

import (
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/reservetest"
)

// TestTimelineFit compares fit with a plain scan of every interval, on
// random bookings of up to 300 intervals (so that blocks are skipped).
func TestTimelineFit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		var tl timeline
		var all []span
		for range r.IntN(300) {
			d := r.Float64() * 3
			if r.IntN(10) == 0 {
				d = 0
			}
			s := tl.fit(r.Float64()*400, d)
			tl.add(s, s+d)
			all = append(all, span{s, s + d})
		}
		for range 50 {
			ready, d := r.Float64()*450, r.Float64()*4
			want := scan(all, ready, d)
			if got := tl.fit(ready, d); got != want {
				t.Fatalf("trial %d: fit(%g, %g) = %g, want %g", trial, ready, d, got, want)
			}
		}
	}
}

// scan is the earliest t ≥ ready such that [t, t+d) overlaps no interval
// of all (in any order), a zero-length interval counting as a point
// strictly inside: the brute-force candidates of reservetest (ready and
// every interval's end), the first that fits.
func scan(all []span, ready, d float64) float64 {
	ends := reservetest.BookingEnds(all, func(x span) float64 { return x.e })
	return reservetest.EarliestCandidate(ready, ends, []float64{0}, func(t float64) bool {
		for _, x := range all {
			if x.s < t+d && t < x.e || x.s == x.e && t < x.s && x.s < t+d {
				return false
			}
		}
		return true
	})
}

package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/netsched/netsched/internal/reservetest"
)

func TestReservationsEarliestFit(t *testing.T) {
	type booking struct {
		link     int
		from, to float64
		bw       float64
	}
	cases := []struct {
		name     string
		capacity []float64
		booked   []booking
		t0       float64
		links    []int
		offsets  []float64
		dur, bw  float64
		want     float64
	}{
		{name: "empty", capacity: []float64{1}, links: []int{0}, offsets: []float64{0}, dur: 2, bw: 1, want: 0},
		{name: "from t0", capacity: []float64{1}, t0: 3, links: []int{0}, offsets: []float64{0}, dur: 2, bw: 1, want: 3},
		{name: "full link: after it", capacity: []float64{1}, booked: []booking{{0, 0, 2, 1}},
			links: []int{0}, offsets: []float64{0}, dur: 2, bw: 1, want: 2},
		{name: "shared within capacity", capacity: []float64{1.5}, booked: []booking{{0, 0, 2, 1}},
			links: []int{0}, offsets: []float64{0}, dur: 2, bw: 0.5, want: 0},
		{name: "fits a gap", capacity: []float64{1}, booked: []booking{{0, 0, 2, 1}, {0, 3, 5, 1}},
			links: []int{0}, offsets: []float64{0}, dur: 1, bw: 1, want: 2},
		{name: "too long for the gap", capacity: []float64{1}, booked: []booking{{0, 0, 2, 1}, {0, 3, 5, 1}},
			links: []int{0}, offsets: []float64{0}, dur: 2, bw: 1, want: 5},
		// Link 1 is busy during [1, 3); its window opens 2 after the start:
		// s + 2 ≥ 3.
		{name: "latency offsets", capacity: []float64{1, 1}, booked: []booking{{1, 1, 3, 1}},
			links: []int{0, 1}, offsets: []float64{1, 2}, dur: 2, bw: 1, want: 1},
		// Then link 0 busy during [2.5, 4) pushes its window [s+1, s+3) to s ≥ 3.
		{name: "latency offsets, both links", capacity: []float64{1, 1}, booked: []booking{{1, 1, 3, 1}, {0, 2.5, 4, 1}},
			links: []int{0, 1}, offsets: []float64{1, 2}, dur: 2, bw: 1, want: 3},
		{name: "over capacity never fits", capacity: []float64{1}, links: []int{0}, offsets: []float64{0}, dur: 1, bw: 2, want: math.Inf(1)},
		{name: "zero duration fits anywhere", capacity: []float64{1}, booked: []booking{{0, 0, 2, 1}},
			links: []int{0}, offsets: []float64{0}, dur: 0, bw: 1, want: 0},
		// Rounding: a reservation ending at 0.1+0.2 leaves room at 0.3.
		{name: "tolerant at touching ends", capacity: []float64{1}, booked: []booking{{0, 0.1, 0.1 + 0.2, 1}},
			t0: 0.3, links: []int{0}, offsets: []float64{0}, dur: 1, bw: 1, want: 0.3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReservations(c.capacity)
			for _, b := range c.booked {
				r.Reserve(b.from, []int{b.link}, []float64{0}, b.to-b.from, b.bw)
			}
			got := r.EarliestFit(c.t0, c.links, c.offsets, c.dur, c.bw)
			if !near(got, c.want) {
				t.Fatalf("EarliestFit = %g, want %g", got, c.want)
			}
			if math.IsInf(got, 1) {
				return
			}
			if !r.Fits(got, c.links, c.offsets, c.dur, c.bw) {
				t.Errorf("Fits(%g) = false at the earliest fit", got)
			}
		})
	}
}

func TestReservationsUsageReleaseClone(t *testing.T) {
	r := NewReservations([]float64{2, 1})
	r.Reserve(1, []int{0, 1}, []float64{0, 0.5}, 2, 1) // link 0 [1,3), link 1 [1.5,3.5)
	r.Reserve(2, []int{0}, []float64{0}, 2, 0.5)       // link 0 [2,4)
	for _, c := range []struct {
		link int
		t    float64
		want float64
	}{
		{0, 0.5, 0}, {0, 1, 1}, {0, 2, 1.5}, {0, 2.99, 1.5}, {0, 3, 0.5}, {0, 4, 0},
		{1, 1.4, 0}, {1, 1.5, 1}, {1, 3.5, 0},
	} {
		if got := r.Usage(c.link, c.t); !near(got, c.want) {
			t.Errorf("Usage(%d, %g) = %g, want %g", c.link, c.t, got, c.want)
		}
	}
	if at, over := r.FirstOverload(0, 0, 10, 1); !over || at != 2 {
		t.Errorf("FirstOverload(link 0, 1 more) = %g, %v; want 2, true", at, over)
	}
	if _, over := r.FirstOverload(0, 0, 10, 0.5); over {
		t.Errorf("FirstOverload(link 0, 0.5 more) reports an overload; peak 1.5+0.5 = capacity 2")
	}
	if at, over := r.FirstOverload(1, 0.5, 10, 3); !over || at != 0.5 {
		t.Errorf("FirstOverload(link 1, 3 > capacity 1) = %g, %v; want 0.5, true: too much from the start", at, over)
	}
	c := r.Clone()
	c.Release(2, []int{0}, []float64{0}, 2, 0.5)
	c.Release(1, []int{0, 1}, []float64{0, 0.5}, 2, 1)
	for l := range 2 {
		if len(c.steps[l]) != 0 {
			t.Errorf("link %d after releasing everything: steps %v, want none", l, c.steps[l])
		}
	}
	if got := r.Usage(0, 2); got != 1.5 {
		t.Errorf("the original changed with its clone: usage %g, want 1.5", got)
	}
}

// TestReservationsRandom checks EarliestFit against brute force: usage
// summed from the list of bookings, sampled inside every piece of the
// window, and every candidate start (t0, or a booking's end minus an
// offset) tried in increasing order.
func TestReservationsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type booking struct {
		link        int
		from, to, b float64
	}
	for trial := range 300 {
		nl := 1 + rng.IntN(3)
		capacity := make([]float64, nl)
		for i := range capacity {
			capacity[i] = float64(1 + rng.IntN(3))
		}
		r := NewReservations(capacity)
		var books []booking
		for range rng.IntN(8) {
			b := booking{link: rng.IntN(nl), from: float64(rng.IntN(20)), b: float64(1 + rng.IntN(2))}
			b.to = b.from + float64(1+rng.IntN(5))
			if !r.Fits(b.from, []int{b.link}, []float64{0}, b.to-b.from, b.b) {
				continue
			}
			r.Reserve(b.from, []int{b.link}, []float64{0}, b.to-b.from, b.b)
			books = append(books, b)
		}
		links := rng.Perm(nl)[:1+rng.IntN(nl)]
		offsets := make([]float64, len(links))
		for i := 1; i < len(offsets); i++ {
			offsets[i] = offsets[i-1] + float64(rng.IntN(3))
		}
		dur, bw, t0 := float64(1+rng.IntN(4)), float64(1+rng.IntN(2)), float64(rng.IntN(10))
		usage := func(l int, at float64) float64 {
			u := 0.0
			for _, b := range books {
				if b.link == l && b.from <= at && at < b.to {
					u += b.b
				}
			}
			return u
		}
		fits := func(s float64) bool {
			for i, l := range links {
				if bw > capacity[l] {
					return false
				}
				cuts := []float64{s + offsets[i], s + offsets[i] + dur}
				for _, b := range books {
					cuts = append(cuts, b.from, b.to)
				}
				slices.Sort(cuts)
				for k := 0; k+1 < len(cuts); k++ {
					mid := (cuts[k] + cuts[k+1]) / 2
					if mid > s+offsets[i] && mid < s+offsets[i]+dur && usage(l, mid)+bw > capacity[l] {
						return false
					}
				}
			}
			return true
		}
		want := reservetest.EarliestCandidate(t0, reservetest.BookingEnds(books, func(b booking) float64 { return b.to }), offsets, fits)
		if got := r.EarliestFit(t0, links, offsets, dur, bw); !near(got, want) {
			t.Fatalf("trial %d: EarliestFit(t0=%g, links %v, offsets %v, dur %g, bw %g) = %g, brute force %g; bookings %v, capacity %v",
				trial, t0, links, offsets, dur, bw, got, want, books, capacity)
		}
	}
}

func near(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

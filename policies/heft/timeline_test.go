package heft

import (
	"math"
	"math/rand/v2"
	"sort"
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

// TestTimelineMatchesLinear compares the blocked timeline with the
// linear one it replaced (linearTimeline, the test's oracle) on random
// timelines of up to 4,000 intervals, many blocks of them, booked by both
// as HEFT books (each interval where fit puts it, so any difference
// shows in the intervals too); then queries it at random and with
// durations of exactly, and one rounding step either side of, the gaps
// booked, against a scan of every interval from ready on. (There the
// linear timeline's skip, which compares a gap end − start with d, can
// differ from its own scan, which compares start + d with end; the
// blocked one skips only blocks whose gaps are short by a margin above
// that rounding, and always agrees with the scan.)
func TestTimelineMatchesLinear(t *testing.T) {
	trials := 60
	if testing.Short() {
		trials = 10
	}
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range trials {
		var tl timeline
		var old linearTimeline
		n := r.IntN(4000)
		horizon := float64(n) * (0.5 + 2*r.Float64())
		for k := range n {
			d := r.Float64() * 3
			switch r.IntN(10) {
			case 0:
				d = 0
			case 1:
				d = math.Floor(d) // whole durations that fill gaps exactly
			}
			ready := r.Float64() * horizon
			s, want := tl.fit(ready, d), old.fit(ready, d)
			if s != want {
				t.Fatalf("trial %d, booking %d: fit(%v, %v) = %v, the linear search %v", trial, k, ready, d, s, want)
			}
			tl.add(s, s+d)
			old.add(s, s+d)
		}
		checkTimeline(t, &tl, old.sp)
		for range 200 {
			ready, d := r.Float64()*horizon*1.1, r.Float64()*4
			if k := r.IntN(len(old.sp) + 1); k > 0 && k < len(old.sp) && r.IntN(2) == 0 {
				// A duration the gap before interval k holds exactly, or
				// just not.
				ready = old.sp[k-1].e - r.Float64()
				d = old.sp[k].s - old.sp[k-1].e
				d = [...]float64{d, math.Nextafter(d, 0), math.Nextafter(d, math.Inf(1))}[r.IntN(3)]
			}
			want := scanSorted(old.sp, ready, d)
			if got := tl.fit(ready, d); got != want {
				t.Fatalf("trial %d: fit(%v, %v) = %v, the plain scan %v", trial, ready, d, got, want)
			}
		}
	}
}

// checkTimeline checks tl's blocks against the intervals want, and its
// ends and tree against its blocks.
func checkTimeline(t *testing.T, tl *timeline, want []span) {
	t.Helper()
	k := 0
	for b, sp := range tl.blocks {
		if len(sp) == 0 || len(sp) > maxBlock {
			t.Fatalf("block %d holds %d intervals", b, len(sp))
		}
		for _, x := range sp {
			if k >= len(want) || x != want[k] {
				t.Fatalf("interval %d is %v, want %v", k, x, want[k:min(k+1, len(want))])
			}
			k++
		}
		if tl.ends[b] != sp[len(sp)-1].e {
			t.Fatalf("block %d ends at %v, its last interval at %v", b, tl.ends[b], sp[len(sp)-1].e)
		}
		if g := tl.gaps[tl.leaves+b]; g != tl.gap(b) {
			t.Fatalf("block %d: gap %v in the tree, %v in the block", b, g, tl.gap(b))
		}
	}
	if k != len(want) {
		t.Fatalf("%d intervals, want %d", k, len(want))
	}
	if len(want) > 0 && tl.end != want[len(want)-1].e {
		t.Fatalf("the timeline ends at %v, its last interval at %v", tl.end, want[len(want)-1].e)
	}
	for i := 1; i < tl.leaves; i++ {
		if tl.gaps[i] != max(tl.gaps[2*i], tl.gaps[2*i+1]) {
			t.Fatalf("tree node %d is %v, not the max of its children", i, tl.gaps[i])
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

// scanSorted is the earliest t ≥ ready such that [t, t+d) overlaps no
// interval of sp, sorted and disjoint: each in turn from the first that
// ends after ready, as linearTimeline does without its skip.
func scanSorted(sp []span, ready, d float64) float64 {
	t := ready
	for _, x := range sp {
		if x.e <= ready {
			continue
		}
		if t+d <= x.s {
			return t
		}
		t = max(t, x.e)
	}
	return t
}

// linearTimeline is the timeline HEFT and CPOP used before the blocked
// one: the intervals in one sorted slice, a booking shifting those after
// it, the search scanning them from ready on and skipping runs of
// linearBlock intervals whose gaps are all too short.
type linearTimeline struct {
	sp   []span
	gmax []float64 // by block: the largest sp[k].s − sp[k−1].e over its k (k > 0)
}

// linearBlock is the number of intervals summarised by one gap maximum.
const linearBlock = 32

// fit is the earliest t ≥ ready such that [t, t+d) overlaps no busy
// interval.
func (tl *linearTimeline) fit(ready, d float64) float64 {
	sp := tl.sp
	i, j := 0, len(sp) // the first interval that ends after ready
	for i < j {
		if h := int(uint(i+j) >> 1); sp[h].e > ready {
			j = h
		} else {
			i = h + 1
		}
	}
	t := ready
	for i < len(sp) {
		if i%linearBlock == 0 && i > 0 && tl.gmax[i/linearBlock] < d && t <= sp[i-1].e {
			// No gap of this block is long enough: t ends up at its end.
			i = min(i+linearBlock, len(sp))
			t = max(t, sp[i-1].e)
			continue
		}
		if t+d <= sp[i].s {
			return t
		}
		t = max(t, sp[i].e)
		i++
	}
	return t
}

// add books [s, e), which must be free.
func (tl *linearTimeline) add(s, e float64) {
	sp := tl.sp
	i := sort.Search(len(sp), func(k int) bool { return sp[k].s > s || sp[k].s == s && sp[k].e > e })
	sp = append(sp, span{})
	copy(sp[i+1:], sp[i:])
	sp[i] = span{s, e}
	tl.sp = sp
	nb := (len(sp) + linearBlock - 1) / linearBlock
	for len(tl.gmax) < nb {
		tl.gmax = append(tl.gmax, 0)
	}
	for b := i / linearBlock; b < nb; b++ {
		g := 0.0
		for k := max(b*linearBlock, 1); k < min((b+1)*linearBlock, len(sp)); k++ {
			g = max(g, sp[k].s-sp[k-1].e)
		}
		tl.gmax[b] = g
	}
}

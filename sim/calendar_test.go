package sim

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
)

// calRun is one event as it ran: its id and the time it ran at.
type calRun struct {
	id int
	t  float64
}

// TestCalendarOrder checks that events run in time order, equal times in
// the order they were scheduled, against a stable sort of the schedule.
func TestCalendarOrder(t *testing.T) {
	tests := []struct {
		name  string
		times func(rng *rand.Rand, i int) float64
	}{
		{"distinct", func(rng *rand.Rand, _ int) float64 { return rng.Float64() * 100 }},
		{"all equal", func(*rand.Rand, int) float64 { return 5 }},
		{"few distinct", func(rng *rand.Rand, _ int) float64 { return float64(rng.IntN(4)) }},
		{"descending", func(_ *rand.Rand, i int) float64 { return float64(1000 - i) }},
		{"zero and minus zero", func(_ *rand.Rand, i int) float64 { return math.Copysign(0, float64(i%2*2-1)) }},
		{"with +Inf", func(rng *rand.Rand, i int) float64 {
			if i%7 == 0 {
				return math.Inf(1)
			}
			return float64(rng.IntN(10))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 8))
			var c Calendar
			var got, want []calRun
			for i := range 1000 {
				at := tt.times(rng, i)
				want = append(want, calRun{i, at})
				c.At(at, func() { got = append(got, calRun{i, c.Now()}) })
			}
			slices.SortStableFunc(want, func(a, b calRun) int { return cmp.Compare(a.t, b.t) })
			if c.Len() != len(want) {
				t.Fatalf("Len = %d, want %d", c.Len(), len(want))
			}
			if err := c.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			calCompareRuns(t, got, want)
			if c.Len() != 0 {
				t.Errorf("Len after Run = %d, want 0", c.Len())
			}
		})
	}
}

func calCompareRuns(t *testing.T, got, want []calRun) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("ran %d events, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].id != want[i].id || got[i].t != want[i].t {
			t.Fatalf("event %d: ran id %d at %v, want id %d at %v", i, got[i].id, got[i].t, want[i].id, want[i].t)
		}
	}
}

func TestCalendarCancel(t *testing.T) {
	var c Calendar
	ran := map[string]bool{}
	mark := func(s string) func() { return func() { ran[s] = true } }
	a := c.At(1, mark("a"))
	b := c.At(2, mark("b"))
	x := c.At(4, mark("x"))
	c.At(3, func() {
		ran["c"] = true
		if !c.Cancel(x) { // a later event cancelled by a callback
			t.Error("Cancel(x) from a callback = false, want true")
		}
	})
	if !c.Cancel(b) {
		t.Error("Cancel(b) = false, want true")
	}
	if c.Cancel(b) {
		t.Error("second Cancel(b) = true, want false")
	}
	if c.Pending(b) || !c.Pending(a) {
		t.Errorf("Pending(b), Pending(a) = %v, %v, want false, true", c.Pending(b), c.Pending(a))
	}
	if c.Len() != 3 {
		t.Errorf("Len = %d, want 3", c.Len())
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !ran["a"] || !ran["c"] || ran["b"] || ran["x"] {
		t.Errorf("ran %v, want a and c only", ran)
	}
	if c.Now() != 3 {
		t.Errorf("Now = %v, want 3 (the cancelled event at 4 does not advance time)", c.Now())
	}
}

func TestCalendarReschedule(t *testing.T) {
	var c Calendar
	var got []calRun
	ev := func(id int) func() { return func() { got = append(got, calRun{id, c.Now()}) } }
	h1 := c.At(5, ev(1))
	c.At(2, ev(2))
	h3 := c.At(2, ev(3))
	c.At(8, ev(4))

	n1 := c.Reschedule(h1, 1) // earlier
	if c.Pending(h1) || !c.Pending(n1) || n1 == h1 {
		t.Fatalf("after Reschedule: old pending %v, new pending %v, same %v", c.Pending(h1), c.Pending(n1), n1 == h1)
	}
	if c.Cancel(h1) {
		t.Error("Cancel of the old handle = true, want false")
	}
	if h := c.Reschedule(h1, 3); h != (Handle{}) {
		t.Errorf("Reschedule of the old handle = %v, want the zero Handle", h)
	}
	n3 := c.Reschedule(h3, 2) // same time: goes behind event 2 (it already was)
	n3 = c.Reschedule(n3, 9)  // later than everything
	c.At(9, ev(5))            // scheduled after the move, so runs after it
	if c.Len() != 5 {
		t.Errorf("Len = %d, want 5", c.Len())
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	calCompareRuns(t, got, []calRun{{1, 1}, {2, 2}, {4, 8}, {3, 9}, {5, 9}})
	if c.Pending(n3) {
		t.Error("handle of an event that ran is still pending")
	}
}

// TestCalendarRescheduleTie checks that a moved event takes a new insertion
// sequence: it runs after the events already scheduled at its new time.
func TestCalendarRescheduleTie(t *testing.T) {
	var c Calendar
	var got []calRun
	ev := func(id int) func() { return func() { got = append(got, calRun{id, c.Now()}) } }
	h := c.At(1, ev(1))
	c.At(1, ev(2))
	c.Reschedule(h, 1)
	c.RunUntil(1)
	calCompareRuns(t, got, []calRun{{2, 1}, {1, 1}})
}

// TestCalendarStaleHandles checks that handles of events that ran, were
// cancelled or moved, and the zero Handle, touch nothing, even once their
// slot serves another event.
func TestCalendarStaleHandles(t *testing.T) {
	var c Calendar
	ran := 0
	old := c.At(1, func() {})
	c.Step()
	fresh := c.At(2, func() { ran++ }) // reuses old's slot
	if old.slot != fresh.slot {
		t.Fatalf("test premise: slot not reused (%d, %d)", old.slot, fresh.slot)
	}
	cancelled := c.At(3, func() {})
	c.Cancel(cancelled)
	for _, h := range []Handle{old, cancelled, {}} {
		if c.Pending(h) || c.Cancel(h) || c.Reschedule(h, 10) != (Handle{}) {
			t.Errorf("stale handle %v acted on the calendar", h)
		}
	}
	var other Calendar // a handle from another calendar is out of range here
	if other.Pending(fresh) || other.Cancel(fresh) {
		t.Error("a handle from another calendar acted on an empty one")
	}
	c.RunUntil(math.Inf(1))
	if ran != 1 {
		t.Errorf("the event in the reused slot ran %d times, want 1", ran)
	}
}

// calRefEvent and calRefHeap are the independent reference: container/heap
// ordered by (time, sequence), with cancelled entries skipped on pop.
type calRefEvent struct {
	t   float64
	seq uint64
	id  int
}

type calRefHeap []calRefEvent

func (h calRefHeap) Len() int { return len(h) }
func (h calRefHeap) Less(i, j int) bool {
	return h[i].t < h[j].t || h[i].t == h[j].t && h[i].seq < h[j].seq
}
func (h calRefHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *calRefHeap) Push(x any)   { *h = append(*h, x.(calRefEvent)) }
func (h *calRefHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TestCalendarRandomMatchesReference schedules a million events at random
// times with many ties, cancels and reschedules some at random, and checks
// the run against a sorted reference (all scheduled up front) and against
// container/heap in lock step (events scheduled, cancelled and moved by the
// callbacks themselves, the way models use the calendar).
func TestCalendarRandomMatchesReference(t *testing.T) {
	n := slowtest.Pick(100_000, 1_000_000) // 10^6 events take 4 s of CPU
	// quantized times make many ties, which the sequence must order
	when := func(rng *rand.Rand, scale float64) float64 { return math.Floor(rng.Float64()*scale) / 4 }

	t.Run("sorted", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 1))
		var c Calendar
		var got []calRun
		type sched struct {
			h    Handle
			t    float64
			seq  uint64
			live bool
		}
		evs := make([]sched, n)
		seq := uint64(0)
		for i := range evs {
			at := when(rng, 4000)
			seq++
			evs[i] = sched{c.At(at, func() { got = append(got, calRun{i, c.Now()}) }), at, seq, true}
		}
		for range n / 5 {
			i := rng.IntN(n)
			e := &evs[i]
			if rng.IntN(2) == 0 {
				if c.Cancel(e.h) != e.live {
					t.Fatalf("Cancel(%d) disagrees with the reference", i)
				}
				e.live = false
				continue
			}
			at := when(rng, 4000)
			h := c.Reschedule(e.h, at)
			if (h != Handle{}) != e.live {
				t.Fatalf("Reschedule(%d) disagrees with the reference", i)
			}
			if e.live {
				seq++
				e.h, e.t, e.seq = h, at, seq
			}
		}
		var want []calRun
		var order []sched
		for i, e := range evs {
			if e.live {
				want = append(want, calRun{i, e.t})
				order = append(order, e)
			}
		}
		idx := make([]int, len(want))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int {
			return cmp.Or(cmp.Compare(order[a].t, order[b].t), cmp.Compare(order[a].seq, order[b].seq))
		})
		sorted := make([]calRun, len(idx))
		for i, k := range idx {
			sorted[i] = want[k]
		}
		if c.Len() != len(sorted) {
			t.Fatalf("Len = %d, want %d", c.Len(), len(sorted))
		}
		if err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		calCompareRuns(t, got, sorted)
	})

	t.Run("lock step", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(2, 2))
		var c Calendar
		var ref calRefHeap
		type rec struct {
			h    Handle
			seq  uint64
			live bool
		}
		var recs []rec
		seq := uint64(0)
		ran := 0
		var schedule func(at float64)
		body := func(id int) func() {
			return func() {
				ran++
				var want calRefEvent
				for {
					want = heap.Pop(&ref).(calRefEvent)
					if r := recs[want.id]; r.live && r.seq == want.seq {
						break
					}
				}
				if want.id != id || want.t != c.Now() {
					t.Fatalf("event %d: ran id %d at %v, reference says id %d at %v", ran, id, c.Now(), want.id, want.t)
				}
				recs[id].live = false
				// 1.2 new events per event against 0.1 cancelled: the
				// population grows until n events have been scheduled
				for k := 1 + rng.IntN(5)/4; k > 0 && len(recs) < n; k-- {
					schedule(c.Now() + when(rng, 40))
				}
				if rng.IntN(10) == 0 {
					j := rng.IntN(len(recs))
					if c.Cancel(recs[j].h) != recs[j].live {
						t.Fatalf("Cancel(%d) disagrees with the reference", j)
					}
					recs[j].live = false
				}
				if rng.IntN(10) == 0 {
					j := rng.IntN(len(recs))
					at := c.Now() + when(rng, 40)
					h := c.Reschedule(recs[j].h, at)
					if (h != Handle{}) != recs[j].live {
						t.Fatalf("Reschedule(%d) disagrees with the reference", j)
					}
					if recs[j].live {
						seq++
						recs[j].h, recs[j].seq = h, seq
						heap.Push(&ref, calRefEvent{at, seq, j})
					}
				}
			}
		}
		schedule = func(at float64) {
			id := len(recs)
			seq++
			recs = append(recs, rec{c.At(at, body(id)), seq, true})
			heap.Push(&ref, calRefEvent{at, seq, id})
		}
		for range 1000 {
			schedule(when(rng, 40))
		}
		if err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		for ref.Len() > 0 {
			if e := heap.Pop(&ref).(calRefEvent); recs[e.id].live && recs[e.id].seq == e.seq {
				t.Fatalf("reference still holds event %d at %v", e.id, e.t)
			}
		}
		if len(recs) != n {
			t.Fatalf("%d events scheduled, want %d", len(recs), n)
		}
	})
}

func TestCalendarRunUntilNextTime(t *testing.T) {
	var c Calendar
	var got []calRun
	for _, at := range []float64{1, 2, 2, 3} {
		c.At(at, func() { got = append(got, calRun{len(got), c.Now()}) })
	}
	if nt := c.NextTime(); nt != 1 {
		t.Errorf("NextTime = %v, want 1", nt)
	}
	c.RunUntil(2) // inclusive
	calCompareRuns(t, got, []calRun{{0, 1}, {1, 2}, {2, 2}})
	if c.Now() != 2 || c.NextTime() != 3 || c.Len() != 1 {
		t.Errorf("after RunUntil(2): Now %v NextTime %v Len %d, want 2, 3, 1", c.Now(), c.NextTime(), c.Len())
	}
	c.RunUntil(2.5) // no event: time still advances
	if c.Now() != 2.5 {
		t.Errorf("after RunUntil(2.5): Now = %v", c.Now())
	}
	c.RunUntil(1) // the past: nothing happens
	if c.Now() != 2.5 || len(got) != 3 {
		t.Errorf("RunUntil(1) moved time back or ran events: Now %v, %d ran", c.Now(), len(got))
	}
	h := c.At(4, func() { t.Error("cancelled event ran") })
	c.Cancel(h)
	if nt := c.NextTime(); nt != 3 {
		t.Errorf("NextTime = %v, want 3", nt)
	}
	c.RunUntil(10)
	if c.NextTime() != math.Inf(1) || c.Now() != 10 || c.Step() {
		t.Errorf("empty calendar: NextTime %v Now %v", c.NextTime(), c.Now())
	}
}

func TestCalendarRunContext(t *testing.T) {
	t.Run("cancelled before", func(t *testing.T) {
		var c Calendar
		c.At(1, func() { t.Error("event ran under a cancelled context") })
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := c.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
		if c.Len() != 1 {
			t.Errorf("Len = %d, want the event still pending", c.Len())
		}
	})
	t.Run("cancelled while running", func(t *testing.T) {
		var c Calendar
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		var tick func()
		tick = func() { // a model that never ends on its own
			if n++; n == 10_000 {
				cancel()
			}
			c.After(1, tick)
		}
		c.At(0, tick)
		if err := c.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
		if n < 10_000 || n > 10_000+4096 {
			t.Errorf("ran %d events, want Run to stop within 4096 events of the cancel", n)
		}
	})
}

// TestCalendarPastPanics checks that scheduling in the past panics:
// time going backwards is a bug in the model, not bad input, so the
// calendar stops the run instead of reordering events.
func TestCalendarPastPanics(t *testing.T) {
	tests := []struct {
		name string
		do   func(c *Calendar, h Handle)
	}{
		{"At before Now", func(c *Calendar, _ Handle) { c.At(4, func() {}) }},
		{"At NaN", func(c *Calendar, _ Handle) { c.At(math.NaN(), func() {}) }},
		{"After negative", func(c *Calendar, _ Handle) { c.After(-1e-9, func() {}) }},
		{"Reschedule before Now", func(c *Calendar, h Handle) { c.Reschedule(h, 1) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Calendar
			h := c.At(10, func() {})
			c.RunUntil(5)
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, "in the past") {
					t.Errorf("panic = %v, want one about scheduling in the past", r)
				}
				if !c.Pending(h) || c.Len() != 1 {
					t.Error("the failed call changed the pending events")
				}
			}()
			tt.do(&c, h)
		})
	}
}

// TestCalendarCompaction checks that cancelled events do not pile up in
// the heap when they never reach its top (memory stays proportional to the
// pending events), and that compacting from inside a running callback
// loses nothing.
func TestCalendarCompaction(t *testing.T) {
	var c Calendar
	var far []float64
	record := func() { far = append(far, c.Now()) }
	for range 5 {
		c.At(5e8, record) // never moved: must survive every compaction
	}
	hs := make([]Handle, 5)
	for i := range hs {
		hs[i] = c.At(1e9, record)
	}
	const rounds = 100_000
	ticks := 0
	var tick func()
	tick = func() {
		i := ticks % len(hs)
		hs[i] = c.Reschedule(hs[i], 1e9+float64(ticks))
		if len(c.heap) > 2*c.Len()+65 {
			t.Fatalf("tick %d: heap holds %d entries for %d pending events", ticks, len(c.heap), c.Len())
		}
		if ticks++; ticks < rounds {
			c.After(1, tick)
		}
	}
	c.At(0, tick)
	procRun(t, &c)
	want := []float64{5e8, 5e8, 5e8, 5e8, 5e8, 1e9 + rounds - 5, 1e9 + rounds - 4, 1e9 + rounds - 3, 1e9 + rounds - 2, 1e9 + rounds - 1}
	if ticks != rounds || !slices.Equal(far, want) {
		t.Errorf("after compactions: %d ticks, far events ran at %v, want %v", ticks, far, want)
	}
}

// TestCalendarNoAllocs checks that scheduling and running an event
// allocate nothing once the calendar has grown.
func TestCalendarNoAllocs(t *testing.T) {
	var c Calendar
	rng := rand.New(rand.NewPCG(3, 4))
	var fn func()
	fn = func() { c.After(rng.ExpFloat64(), fn) }
	for range 100 {
		c.After(rng.ExpFloat64(), fn)
	}
	h := c.At(1e9, func() {})
	allocs := testing.AllocsPerRun(10_000, func() {
		c.Step()
		h = c.Reschedule(h, c.Now()+1e9)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per event, want 0", allocs)
	}
}

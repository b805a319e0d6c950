package sim

import (
	"context"
	"math"
)

// Handle names a scheduled event, for Cancel and Reschedule. The zero Handle
// names no event.
type Handle struct {
	slot int32 // index into Calendar.slots, plus one (0: no event)
	gen  uint32
}

// entry is one event in the heap. Events are ordered by (time, seq): equal
// times run in the order they were scheduled.
type entry struct {
	time float64
	seq  uint64
	slot int32
	gen  uint32
}

// slot holds the callback of a pending event; gen changes when the event
// runs or is cancelled, which invalidates stale handles and heap entries
// (lazy deletion).
type slot struct {
	fn  func()
	gen uint32
}

// Calendar is the event calendar: a binary heap ordered by (time, insertion
// sequence), so every run is deterministic. The zero value is ready to use.
// It is not safe for concurrent use: run one calendar per goroutine.
//
// Scheduling allocates nothing once the heap and slot table have grown to
// the number of pending events.
type Calendar struct {
	now   float64
	seq   uint64
	heap  []entry
	slots []slot
	free  []int32
	live  int
}

// Now is the current simulated time.
func (c *Calendar) Now() float64 { return c.now }

// Len is the number of pending (not cancelled) events.
func (c *Calendar) Len() int { return c.live }

// At schedules fn at absolute time t. A t before Now, or NaN, panics: it is
// a bug in the model, not bad input.
func (c *Calendar) At(t float64, fn func()) Handle {
	if !(t >= c.now) {
		panic("sim: event scheduled in the past or at NaN")
	}
	var s int32
	if n := len(c.free); n > 0 {
		s = c.free[n-1]
		c.free = c.free[:n-1]
	} else {
		c.slots = append(c.slots, slot{})
		s = int32(len(c.slots) - 1)
	}
	c.slots[s].fn = fn
	gen := c.slots[s].gen
	c.seq++
	c.heap = append(c.heap, entry{time: t, seq: c.seq, slot: s, gen: gen})
	c.up(len(c.heap) - 1)
	c.live++
	return Handle{slot: s + 1, gen: gen}
}

// After schedules fn d time units from now.
func (c *Calendar) After(d float64, fn func()) Handle { return c.At(c.now+d, fn) }

// Pending reports whether h names an event that has neither run nor been
// cancelled.
func (c *Calendar) Pending(h Handle) bool {
	return h.slot > 0 && c.slots[h.slot-1].gen == h.gen
}

// Cancel removes the event h names; it reports whether it was pending.
func (c *Calendar) Cancel(h Handle) bool {
	if !c.Pending(h) {
		return false
	}
	c.release(h.slot - 1)
	return true
}

// Reschedule moves the event h names to time t, keeping its callback, and
// returns its new handle. It returns the zero Handle if h was not pending.
func (c *Calendar) Reschedule(h Handle, t float64) Handle {
	if !c.Pending(h) {
		return Handle{}
	}
	fn := c.slots[h.slot-1].fn
	c.release(h.slot - 1)
	return c.At(t, fn)
}

func (c *Calendar) release(s int32) {
	c.slots[s].gen++
	c.slots[s].fn = nil
	c.free = append(c.free, s)
	c.live--
}

// Step runs the next pending event, advancing Now to its time. It reports
// false when no event is pending.
func (c *Calendar) Step() bool {
	for len(c.heap) > 0 {
		e := c.heap[0]
		c.pop()
		if c.slots[e.slot].gen != e.gen {
			continue // cancelled
		}
		fn := c.slots[e.slot].fn
		c.release(e.slot)
		c.now = e.time
		fn()
		return true
	}
	return false
}

// NextTime is the time of the next pending event, or +Inf if none.
func (c *Calendar) NextTime() float64 {
	for len(c.heap) > 0 {
		e := c.heap[0]
		if c.slots[e.slot].gen == e.gen {
			return e.time
		}
		c.pop()
	}
	return math.Inf(1)
}

// Run steps until no event is pending, or until ctx is done (checked every
// 4096 events), returning ctx's error in that case.
func (c *Calendar) Run(ctx context.Context) error {
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !c.Step() {
			return nil
		}
	}
}

// RunUntil runs every event with time ≤ t, then sets Now to t (if t is
// later).
func (c *Calendar) RunUntil(t float64) {
	for c.NextTime() <= t {
		c.Step()
	}
	c.now = max(c.now, t)
}

func less(a, b *entry) bool {
	return a.time < b.time || (a.time == b.time && a.seq < b.seq)
}

func (c *Calendar) up(i int) {
	h := c.heap
	e := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !less(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

func (c *Calendar) pop() {
	h := c.heap
	n := len(h) - 1
	e := h[n]
	c.heap = h[:n]
	if n == 0 {
		return
	}
	h = c.heap
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && less(&h[r], &h[l]) {
			l = r
		}
		if !less(&h[l], &e) {
			break
		}
		h[i] = h[l]
		i = l
	}
	h[i] = e
}

package sim

import (
	"context"
	"math"
	"math/bits"
)

// Handle names a scheduled event, for Cancel and Reschedule. The zero Handle
// names no event. A handle goes stale when its event runs, is cancelled or
// is rescheduled; a stale handle is harmless: Pending reports false, Cancel
// does nothing and Reschedule returns the zero Handle.
type Handle struct {
	slot int32 // index into Calendar.slots, plus one (0: no event)
	gen  uint32
}

// entry is one event in the heap. Events are ordered by (time, seq): equal
// times run in the order they were scheduled. An entry whose gen differs
// from its slot's is stale (the event ran, was cancelled or rescheduled)
// and is dropped when it reaches the top (lazy deletion).
type entry struct {
	// tb is math.Float64bits of the event time. Times are never negative
	// (they start at 0 and never go back) and -0 is stored as +0, and for
	// such floats the bit patterns order as the numbers do, so (tb, seq)
	// compares as one 128-bit unsigned integer without a branch.
	tb   uint64
	seq  uint64
	slot int32
	gen  uint32
}

// slot holds the callback of a pending event. gen changes whenever the
// event runs or is cancelled, which makes its handle and heap entry stale.
type slot struct {
	fn   func()
	gen  uint32
	next int32 // while free: the next free slot, plus one (0: none)
}

// Calendar is the event calendar: a 4-ary heap ordered by (time, insertion
// sequence), so every run is deterministic. The zero value is ready to use.
// It is not safe for concurrent use: run one calendar per goroutine.
//
// Scheduling allocates nothing once the heap and slot table have grown to
// the number of pending events. Cancelled events stay in the heap until
// they reach the top or until they outnumber the pending ones, when the heap
// is compacted, so memory stays proportional to the pending events.
//
// Scheduling an event in the past (or at NaN) panics: it is a bug in the
// model, not bad input, and continuing would silently reorder time.
//
// A calendar that runs processes (Spawn) must be closed with Close when it
// is abandoned before they finish; one that runs actors (SpawnActor) may be.
type Calendar struct {
	now   float64
	seq   uint64
	heap  []entry
	slots []slot
	free  int32 // first free slot, plus one (0: none)
	live  int

	// hole reports that heap[0] is the stale entry of the event Step is
	// running. The common callback schedules one new event; At then puts
	// it in place of the spent top with a single sift-down instead of a
	// pop and a push. Whatever removes heap[0] clears hole.
	hole bool

	running *proc    // the process or actor whose code is executing, if any
	procs   procList // processes and actors started and not yet finished
}

// Now is the current simulated time.
func (c *Calendar) Now() float64 { return c.now }

// Len is the number of pending (not cancelled) events.
func (c *Calendar) Len() int { return c.live }

// At schedules fn at absolute time t. A t before Now, or NaN, panics: it is
// a bug in the model, not bad input.
func (c *Calendar) At(t float64, fn func()) Handle {
	c.checkTime(t)
	var s int32
	if c.free > 0 {
		s = c.free - 1
		c.free = c.slots[s].next
	} else {
		s = int32(len(c.slots))
		c.slots = append(c.slots, slot{})
	}
	sl := &c.slots[s]
	sl.fn = fn
	c.seq++
	c.live++
	e := entry{tb: math.Float64bits(t + 0), seq: c.seq, slot: s, gen: sl.gen} // t+0 turns -0 into +0
	if c.hole {
		c.hole = false
		c.down(0, e)
	} else {
		c.heap = append(c.heap, e)
		c.up(len(c.heap)-1, e)
	}
	return Handle{slot: s + 1, gen: sl.gen}
}

// After schedules fn d time units from now.
func (c *Calendar) After(d float64, fn func()) Handle { return c.At(c.now+d, fn) }

func (c *Calendar) checkTime(t float64) {
	if !(t >= c.now) {
		panic("sim: event scheduled in the past or at NaN (a bug in the model)")
	}
}

// Pending reports whether h names an event that has neither run nor been
// cancelled.
func (c *Calendar) Pending(h Handle) bool {
	i := uint(h.slot) - 1 // the zero Handle wraps around and fails the bound
	return i < uint(len(c.slots)) && c.slots[i].gen == h.gen
}

// Cancel removes the event h names; it reports whether it was pending.
func (c *Calendar) Cancel(h Handle) bool {
	if !c.Pending(h) {
		return false
	}
	c.release(h.slot - 1)
	if n := len(c.heap); n > 64 && n > 2*c.live {
		c.compact()
	}
	return true
}

// Reschedule moves the event h names to time t, keeping its callback, and
// returns its new handle; h goes stale. The moved event takes a new
// insertion sequence: among events at t it runs after those already
// scheduled. Reschedule returns the zero Handle if h was not pending, and
// panics, like At, if t is before Now.
func (c *Calendar) Reschedule(h Handle, t float64) Handle {
	if !c.Pending(h) {
		return Handle{}
	}
	c.checkTime(t)
	fn := c.slots[h.slot-1].fn
	c.Cancel(h)
	return c.At(t, fn)
}

// release frees slot s, which makes its handle and heap entry stale.
func (c *Calendar) release(s int32) {
	sl := &c.slots[s]
	sl.fn = nil
	sl.gen++
	sl.next = c.free
	c.free = s + 1
	c.live--
}

// Step runs the next pending event, advancing Now to its time. It reports
// false when no event is pending. Calling it from a process body or an
// actor's turn panics.
func (c *Calendar) Step() bool {
	if c.running != nil {
		c.outside("sim: Step, Run or RunUntil called from inside a process or actor")
	}
	for len(c.heap) > 0 {
		e := &c.heap[0]
		sl := &c.slots[e.slot]
		if sl.gen != e.gen {
			c.pop() // cancelled
			continue
		}
		fn := sl.fn
		c.now = math.Float64frombits(e.tb)
		c.release(e.slot)
		c.hole = true
		fn()
		if c.hole {
			c.pop()
		}
		return true
	}
	return false
}

// NextTime is the time of the next pending event, or +Inf if none.
func (c *Calendar) NextTime() float64 {
	for len(c.heap) > 0 {
		e := &c.heap[0]
		if c.slots[e.slot].gen == e.gen {
			return math.Float64frombits(e.tb)
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
	for c.NextTime() <= t && c.Step() { // Step: NextTime is +Inf when empty
	}
	c.now = max(c.now, t)
}

// Reset empties c and sets its time back to 0, keeping its memory for the
// events to come. Handles of the events it held must not be used again:
// they may name new events.
func (c *Calendar) Reset() {
	*c = Calendar{heap: c.heap[:0], slots: c.slots[:0]}
}

// discard drops every pending event; their handles go stale.
func (c *Calendar) discard() {
	for i := range c.heap {
		if e := &c.heap[i]; c.slots[e.slot].gen == e.gen {
			c.release(e.slot)
		}
	}
	c.heap = c.heap[:0]
	c.hole = false
}

// compact drops the stale entries and rebuilds the heap.
func (c *Calendar) compact() {
	h := c.heap[:0]
	for _, e := range c.heap {
		if c.slots[e.slot].gen == e.gen {
			h = append(h, e)
		}
	}
	c.heap = h
	c.hole = false // a spent top is stale, so it is gone
	for i := (len(h) - 2) / 4; i >= 0 && len(h) > 1; i-- {
		c.down(i, h[i])
	}
}

// lessMask is all ones if a orders before b, else zero: the borrow of the
// 128-bit subtraction (a.tb, a.seq) − (b.tb, b.seq), with no branch.
func lessMask(a, b *entry) uint64 {
	_, borrow := bits.Sub64(a.seq, b.seq, 0)
	_, borrow = bits.Sub64(a.tb, b.tb, borrow)
	return -borrow
}

func less(a, b *entry) bool { return lessMask(a, b) != 0 }

func (c *Calendar) pop() {
	c.hole = false
	n := len(c.heap) - 1
	e := c.heap[n]
	c.heap = c.heap[:n]
	if n > 0 {
		c.down(0, e)
	}
}

// up puts e at index i and moves it towards the root to its place.
func (c *Calendar) up(i int, e entry) {
	h := c.heap
	for i > 0 {
		p := (i - 1) / 4
		if !less(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// down puts e at index i and moves it towards the leaves to its place. The
// least of four children is found by a branch-free tournament: which child
// wins is as good as random, and a mispredicted branch costs more than the
// arithmetic.
func (c *Calendar) down(i int, e entry) {
	h := c.heap
	n := len(h)
	for {
		f := 4*i + 1
		var m int
		if f+3 < n {
			ch := h[f : f+4 : f+4]
			a := 1 & lessMask(&ch[1], &ch[0])   // 0 or 1
			b := 2 | 1&lessMask(&ch[3], &ch[2]) // 2 or 3
			w := a ^ (a^b)&lessMask(&ch[b&3], &ch[a&3])
			m = f + int(w&3)
		} else if f < n {
			m = f
			for j := f + 1; j < n; j++ {
				if less(&h[j], &h[m]) {
					m = j
				}
			}
		} else {
			break
		}
		if !less(&h[m], &e) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = e
}

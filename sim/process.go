package sim

import (
	"fmt"
	"iter"
	"runtime/debug"
)

// Process is a model component written as sequential code: its body
// advances time (Wait, WaitUntil), waits on a Signal or for a message in a
// Mailbox, and is resumed by the calendar, the way SimPy processes and
// godes runners work.
//
// A process runs as a coroutine (iter.Pull): switching between the
// calendar and a process is a direct coroutine switch, with no goroutine
// hand-off, channel or lock, but a wake-up still costs four to five times
// a callback's (results/benchmarks.md). An Actor has the same meaning
// without a stack of its own, written as turns, and costs about what a
// callback does. Wake-ups of both are ordinary calendar events, so processes, actors
// and callbacks interleave deterministically by (time, insertion sequence),
// and a model written either way runs its events in the same order.
//
// The blocking methods (Wait, WaitUntil, Signal.Wait, Mailbox.Receive and
// their timeout variants) may only be called from the process's own body;
// anywhere else they panic. So do Step, Run, RunUntil and Close called from
// a body. A panic in a body comes out of the Step that resumed it, as an
// error naming the process, with the body's stack, wrapping the value if it
// was an error.
//
// A live process holds a coroutine, which is a parked goroutine with its
// stack: a calendar abandoned before its processes finish must be closed
// (Calendar.Close).
type Process struct {
	proc
	body func(*Process)

	resumeCo func() (struct{}, bool) // iter.Pull's next: run the body until it blocks
	stopCo   func()                  // iter.Pull's stop: unwind a suspended body
	yield    func(struct{}) bool     // the body's way back to the calendar
}

// proc is what processes and actors share: their books in the calendar and
// in the wait queue of a Signal or Mailbox.
type proc struct {
	name      string
	c         *Calendar
	self      halter     // the *Process or *Actor this is part of
	wakeFn    func()     // its wake-up, bound once so a wake-up allocates nothing
	timer     Handle     // pending wake-up event, if any
	queue     *waitQueue // the queue it waits in, if any
	signalled bool       // whether the last wait on a queue ended by a notification
	done      bool

	links [2]links // in the calendar's list of live processes; in queue
}

// halter ends a process or actor that has not finished, for Close.
type halter interface{ halt() }

// processStopped is the panic value that unwinds a process body when its
// calendar is closed; the process's own wrapper recovers it.
type processStopped struct{}

// Spawn creates a process that runs body and starts it at the current time,
// as an event: it runs after the events already scheduled for now, and
// Spawn itself returns at once. The process finishes when body returns.
func (c *Calendar) Spawn(name string, body func(p *Process)) *Process {
	p := &Process{body: body}
	p.resumeCo, p.stopCo = iter.Pull(p.run)
	p.start(c, name, p, p.wake)
	return p
}

// start books p, part of self, in c and schedules its first turn now.
func (p *proc) start(c *Calendar, name string, self halter, wake func()) {
	p.name, p.c, p.self, p.wakeFn = name, c, self, wake
	c.procs.push(p, liveLinks)
	p.timer = c.At(c.now, wake)
}

// Close stops every process and actor that has not finished: each
// suspended process body is unwound where it blocks, so its deferred calls
// run (in spawn order), and its coroutine ends; actors just end. Then Close
// discards every pending event. The calendar stays usable, at the same Now.
//
// A calendar whose processes may still be suspended (Run stopped by its
// context, RunUntil, or a model that simply stops stepping) must be closed,
// or each such process keeps a parked coroutine, and all it references, for
// the life of the program (actors hold no more than their closures).
// Calling Close from a process body or an actor's turn panics; calling it
// again does nothing.
//
// Signals and Mailboxes keep their state: a message sent to a receiver that
// Close stopped before it ran stays promised to it. Give a new model new
// ones.
func (c *Calendar) Close() {
	c.outside("sim: Close called from inside a process or actor")
	for p := c.procs.head; p != nil; p = c.procs.head {
		c.running = p // a body's deferred calls run as p
		p.self.halt()
		c.running = nil
	}
	c.discard()
}

// halt unwinds p's body where it blocks.
func (p *Process) halt() {
	p.stopCo()
	p.exit() // a process that never started has no body to unwind
}

// Name is the name the process or actor was spawned with.
func (p *proc) Name() string { return p.name }

// Now is the current simulated time.
func (p *proc) Now() float64 { return p.c.now }

// Done reports whether the process or actor has finished: its body
// returned, or its last turn named nothing to wait for; it panicked; or
// Close stopped it.
func (p *proc) Done() bool { return p.done }

// Wait suspends the process for d time units. Wait(0) lets the events
// already scheduled for now run first. A negative d panics, like At.
func (p *Process) Wait(d float64) { p.WaitUntil(p.c.now + d) }

// WaitUntil suspends the process until time t. A t before Now panics, like
// At.
func (p *Process) WaitUntil(t float64) {
	p.checkRunning()
	p.timer = p.c.At(t, p.wakeFn)
	p.block()
}

// await suspends p in q until it is notified, or until time t if timed. It
// reports whether p was notified.
func (p *Process) await(q *waitQueue, t float64, timed bool) bool {
	p.checkRunning()
	p.enqueue(q, t, timed)
	p.block()
	return p.signalled
}

// enqueue puts p in q, with a timeout at t if timed.
func (p *proc) enqueue(q *waitQueue, t float64, timed bool) {
	if timed {
		p.timer = p.c.At(t, p.wakeFn)
	}
	q.push(p)
}

func (p *Process) checkRunning() {
	if p.c.running != &p.proc {
		panic(fmt.Sprintf("sim: process %q blocked from outside its own body", p.name))
	}
}

// block hands control back to the calendar until p's next wake-up.
func (p *Process) block() {
	if !p.yield(struct{}{}) {
		panic(processStopped{})
	}
}

// wake is p's wake-up event.
func (p *Process) wake() {
	p.woken()
	c := p.c
	c.running = &p.proc
	p.resumeCo()
	c.running = nil
}

// woken starts p's wake-up event: the timer has fired, and ends p's wait
// in a queue, if it still waits in one, as a timeout.
func (p *proc) woken() {
	p.timer = Handle{}
	if p.queue != nil {
		p.timedOut()
	}
}

// timedOut ends p's wait in a queue as a timeout.
func (p *proc) timedOut() {
	p.queue.remove(p)
	p.signalled = false
}

// notify ends p's wait in a queue (p has been removed from it): p wakes at
// the current time, after the events already scheduled for it.
func (p *proc) notify() {
	c := p.c
	p.signalled = true
	c.Cancel(p.timer)
	p.timer = c.At(c.now, p.wakeFn)
}

// run is the coroutine's body.
func (p *Process) run(yield func(struct{}) bool) {
	p.yield = yield
	defer func() {
		p.exit()
		p.c.running = nil
		if r := recover(); r != nil {
			if _, ok := r.(processStopped); !ok {
				panic(&processPanic{name: p.name, value: r, stack: debug.Stack()})
			}
		}
	}()
	p.body(p)
}

// exit removes a finished process or actor from the calendar's books.
func (p *proc) exit() {
	if p.done {
		return
	}
	p.done = true
	c := p.c
	if p.queue != nil {
		p.queue.remove(p)
	}
	c.Cancel(p.timer)
	p.timer = Handle{}
	c.procs.remove(p, liveLinks)
}

// processPanic carries a panic out of a process body, with the body's
// stack (iter.Pull re-raises the value on the calendar's stack, which
// would otherwise hide where it happened).
type processPanic struct {
	name  string
	value any
	stack []byte
}

func (e *processPanic) Error() string {
	return fmt.Sprintf("sim: process %q panicked: %v\n\n%s", e.name, e.value, e.stack)
}

// Unwrap returns the panic value if it is an error.
func (e *processPanic) Unwrap() error {
	err, _ := e.value.(error)
	return err
}

// Which links of a proc a procList uses: a process or actor is in its
// calendar's list of live ones and, while it waits, in one wait queue.
const (
	liveLinks = iota
	queueLinks
)

// procList is a doubly linked list of processes and actors through
// p.links[k].
type procList struct{ head, tail *proc }

func (l *procList) push(p *proc, k int) {
	p.links[k] = links{prev: l.tail}
	if l.tail != nil {
		l.tail.links[k].next = p
	} else {
		l.head = p
	}
	l.tail = p
}

func (l *procList) remove(p *proc, k int) {
	lk := &p.links[k]
	if lk.prev != nil {
		lk.prev.links[k].next = lk.next
	} else {
		l.head = lk.next
	}
	if lk.next != nil {
		lk.next.links[k].prev = lk.prev
	} else {
		l.tail = lk.prev
	}
	*lk = links{}
}

type links struct{ prev, next *proc }

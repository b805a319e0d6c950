package sim

import (
	"fmt"
	"iter"
	"runtime/debug"
)

// Process is a model component written as sequential code: its body
// advances time (Wait, WaitUntil), waits on a Signal or for a message in a
// Mailbox, and is resumed by the calendar, the way SimPy processes and
// godes runners work. Paper 003's workstation, for example, is three
// processes (CheckMessage, EstimateLoad, ProcessingTask) sharing queues.
//
// A process runs as a coroutine (iter.Pull): switching between the
// calendar and a process is a direct coroutine switch, with no goroutine
// hand-off, channel or lock. Its wake-ups are ordinary calendar events, so
// processes and callbacks interleave deterministically by (time, insertion
// sequence). Callbacks stay the faster way to write a model.
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
	name string
	c    *Calendar
	body func(*Process)

	resumeCo func() (struct{}, bool) // iter.Pull's next: run the body until it blocks
	stopCo   func()                  // iter.Pull's stop: unwind a suspended body
	yield    func(struct{}) bool     // the body's way back to the calendar

	wakeFn    func()     // p.wake, bound once so a wake-up allocates nothing
	timer     Handle     // pending wake-up event, if any
	queue     *waitQueue // the queue p waits in, if any
	signalled bool       // whether the last wait on a queue ended by a notification
	done      bool

	links [2]links // in the calendar's list of live processes; in queue
}

// processStopped is the panic value that unwinds a process body when its
// calendar is closed; the process's own wrapper recovers it.
type processStopped struct{}

// Spawn creates a process that runs body and starts it at the current time,
// as an event: it runs after the events already scheduled for now, and
// Spawn itself returns at once. The process finishes when body returns.
func (c *Calendar) Spawn(name string, body func(p *Process)) *Process {
	p := &Process{name: name, c: c, body: body}
	p.wakeFn = p.wake
	p.resumeCo, p.stopCo = iter.Pull(p.run)
	c.procs.push(p, liveLinks)
	p.timer = c.At(c.now, p.wakeFn)
	return p
}

// Close stops every process that has not finished: each suspended body is
// unwound where it blocks, so its deferred calls run (in spawn order), and
// its coroutine ends. Then Close discards every pending event. The calendar
// stays usable, at the same Now.
//
// A calendar whose processes may still be suspended (Run stopped by its
// context, RunUntil, or a model that simply stops stepping) must be closed,
// or each such process keeps a parked coroutine, and all it references, for
// the life of the program. Calling Close from a process body panics; calling
// it again does nothing.
//
// Signals and Mailboxes keep their state: a message sent to a receiver that
// Close stopped before it ran stays promised to it. Give a new model new
// ones.
func (c *Calendar) Close() {
	if c.running != nil {
		panic("sim: Close called from inside a process")
	}
	for p := c.procs.head; p != nil; p = c.procs.head {
		c.running = p // the body's deferred calls run as p
		p.stopCo()
		p.exit() // a process that never started has no body to unwind
	}
	c.discard()
}

// Name is the name the process was spawned with.
func (p *Process) Name() string { return p.name }

// Now is the current simulated time.
func (p *Process) Now() float64 { return p.c.now }

// Done reports whether the process has finished (its body returned,
// panicked, or was stopped by Close).
func (p *Process) Done() bool { return p.done }

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
	if timed {
		p.timer = p.c.At(t, p.wakeFn)
	}
	q.push(p)
	p.block()
	return p.signalled
}

func (p *Process) checkRunning() {
	if p.c.running != p {
		panic(fmt.Sprintf("sim: process %q blocked from outside its own body", p.name))
	}
}

// block hands control back to the calendar until p's next wake-up.
func (p *Process) block() {
	if !p.yield(struct{}{}) {
		panic(processStopped{})
	}
}

// wake is p's wake-up event: a timeout if p still waits in a queue.
func (p *Process) wake() {
	p.timer = Handle{}
	if q := p.queue; q != nil {
		q.remove(p)
		p.signalled = false
	}
	c := p.c
	c.running = p
	p.resumeCo()
	c.running = nil
}

// notify ends p's wait in a queue (p has been removed from it): p wakes at
// the current time, after the events already scheduled for it.
func (p *Process) notify() {
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
		if r := recover(); r != nil {
			if _, ok := r.(processStopped); !ok {
				panic(&processPanic{name: p.name, value: r, stack: debug.Stack()})
			}
		}
	}()
	p.body(p)
}

// exit removes a finished process from the calendar's books.
func (p *Process) exit() {
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
	c.running = nil
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

// Which links of a Process a processList uses: a process is in its
// calendar's list of live processes and, while it waits, in one wait queue.
const (
	liveLinks = iota
	queueLinks
)

// processList is a doubly linked list of processes through p.links[k].
type processList struct{ head, tail *Process }

func (l *processList) push(p *Process, k int) {
	p.links[k] = links{prev: l.tail}
	if l.tail != nil {
		l.tail.links[k].next = p
	} else {
		l.head = p
	}
	l.tail = p
}

func (l *processList) remove(p *Process, k int) {
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

type links struct{ prev, next *Process }

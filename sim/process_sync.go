package sim

// waitQueue holds the processes and actors waiting on a Signal or Mailbox,
// longest waiting first.
type waitQueue struct {
	list procList
	n    int
}

func (q *waitQueue) push(p *proc) {
	q.list.push(p, queueLinks)
	p.queue = q
	q.n++
}

func (q *waitQueue) remove(p *proc) {
	q.list.remove(p, queueLinks)
	p.queue = nil
	q.n--
}

// notifyFirst wakes the longest-waiting process or actor, if any, and
// reports whether there was one.
func (q *waitQueue) notifyFirst() bool {
	p := q.list.head
	if p == nil {
		return false
	}
	q.remove(p)
	p.notify()
	return true
}

// Signal is a condition that processes and actors wait on (Wait, WaitFor;
// WaitThen, WaitForThen) and that callbacks or other processes and actors
// notify: a sync.Cond for simulated time. A notification wakes
// the waiter at the current time, as an event after those already
// scheduled for it. Like sync.Cond, a Signal has no memory: a Notify with
// nobody waiting is lost, so a process that waits for some state checks it
// in a loop:
//
//	for len(queue) == 0 {
//		work.Wait(p)
//	}
//
// The zero Signal is ready to use. A Signal must not be copied after first
// use, and serves the processes and actors of one calendar.
type Signal struct{ waiters waitQueue }

// Wait suspends p until the signal is notified.
func (s *Signal) Wait(p *Process) { p.await(&s.waiters, 0, false) }

// WaitFor suspends p until the signal is notified or d time units have
// passed, and reports whether it was notified.
func (s *Signal) WaitFor(p *Process, d float64) bool {
	return p.await(&s.waiters, p.c.now+d, true)
}

// Notify wakes the process or actor that has waited longest, and reports
// whether one was waiting.
func (s *Signal) Notify() bool { return s.waiters.notifyFirst() }

// NotifyAll wakes every waiting process and actor, in the order they began
// to wait, and returns how many there were.
func (s *Signal) NotifyAll() int {
	n := 0
	for s.waiters.notifyFirst() {
		n++
	}
	return n
}

// Waiting is the number of processes and actors waiting on the signal.
func (s *Signal) Waiting() int { return s.waiters.n }

// Mailbox is a first-in first-out queue of messages of type T: anything
// (a callback, a process, an actor) may Send; processes Receive, blocking
// while it is empty, and actors ReceiveThen. Messages and receivers are
// both served in order: a message sent while receivers wait goes to the
// one that has waited longest, even if another asks before that one runs.
// Paper 003's CheckMessage thread is a loop around Receive.
//
// The zero Mailbox is ready to use. A Mailbox must not be copied after
// first use, and serves the processes and actors of one calendar. Once its
// buffers have grown, sending and receiving allocate nothing.
type Mailbox[T any] struct {
	free    ring[T] // messages no receiver has been woken for
	handed  ring[T] // messages for woken receivers, in the order they wake
	waiters waitQueue
	taken   T // the message an actor's receive took at once, until its next turn runs
}

// Send delivers msg: to the longest-waiting receiver, which wakes at the
// current time, or else to the queue.
func (m *Mailbox[T]) Send(msg T) {
	if m.waiters.notifyFirst() {
		m.handed.push(msg)
	} else {
		m.free.push(msg)
	}
}

// Receive returns the next message, suspending p until there is one.
func (m *Mailbox[T]) Receive(p *Process) T {
	msg, _ := m.receive(p, 0, false)
	return msg
}

// ReceiveFor returns the next message and true, or, if none comes within
// d time units, the zero T and false.
func (m *Mailbox[T]) ReceiveFor(p *Process, d float64) (T, bool) {
	return m.receive(p, p.c.now+d, true)
}

func (m *Mailbox[T]) receive(p *Process, t float64, timed bool) (T, bool) {
	p.checkRunning()
	if m.free.n > 0 {
		return m.free.pop(), true
	}
	if !p.await(&m.waiters, t, timed) {
		var zero T
		return zero, false
	}
	return m.handed.pop(), true
}

// TryReceive returns the next message and true without blocking, or the
// zero T and false if none is queued; callbacks use it too.
func (m *Mailbox[T]) TryReceive() (T, bool) {
	if m.free.n == 0 {
		var zero T
		return zero, false
	}
	return m.free.pop(), true
}

// Len is the number of messages queued and not yet promised to a woken
// receiver.
func (m *Mailbox[T]) Len() int { return m.free.n }

// ring is a growable first-in first-out queue.
type ring[T any] struct {
	buf  []T // len(buf) is zero or a power of two
	head int
	n    int
}

func (r *ring[T]) push(v T) {
	if r.n == len(r.buf) {
		buf := make([]T, max(8, 2*len(r.buf)))
		k := copy(buf, r.buf[r.head:])
		copy(buf[k:], r.buf[:r.head])
		r.buf, r.head = buf, 0
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

func (r *ring[T]) pop() T {
	var zero T
	v := r.buf[r.head]
	r.buf[r.head] = zero // drop the reference for the collector
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return v
}

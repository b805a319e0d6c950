package sim

import (
	"fmt"
	"reflect"
	"runtime"
)

// Actor is a process without a stack of its own: the same model component
// as a Process, with the same waits, Signals and Mailboxes and the same
// order of events, written as a chain of turns instead of one body. A turn
// is a function the calendar calls when the actor resumes; it runs to its
// end and names, as its last act, what the actor waits for and the turn
// that follows:
//
//	a.Wait(d, next)                  // for d time units
//	a.WaitUntil(t, next)             // until time t
//	sig.WaitThen(a, next)            // for a notification
//	sig.WaitForThen(a, d, next)      // ... at most d time units
//	box.ReceiveThen(a, next)         // for a message
//	box.ReceiveForThen(a, d, next)   // ... at most d time units
//
// A turn that names no wait ends the actor. A loop of a Process body
// becomes a turn that names itself as its next; the body's local
// variables become variables its turns share (see the example of
// Calendar.SpawnActor).
//
// A wake-up of an actor is one calendar event that calls its turn
// directly: no coroutine switch, so a turn costs about what a callback
// does (results/benchmarks.md), and an actor holds no goroutine. Wake-ups
// are scheduled exactly where a Process schedules them, so a model written
// with actors runs its events in the same order as the same model written
// with processes, and both interleave with callbacks by (time, insertion
// sequence).
//
// The waits may only be named by the actor's own turn, once per turn;
// otherwise they panic, as do Step, Run, RunUntil and Close called from a
// turn. A turn runs on the stack of the Step that resumed it, so a panic in
// a turn comes out of that Step as it was raised, with the turn in its
// stack trace; the actor has ended when the calendar is next stepped or
// closed.
type Actor struct {
	proc
	next  Turn       // the turn to run when the actor resumes
	cont  any        // the continuation of a receive or timed signal wait, which next calls
	src   receiver   // the *Mailbox[T] of a pending receive
	state actorState // where the actor is in its turn
	taken bool       // the pending receive took its message at once (Mailbox.taken)
}

// receiver is the Mailbox of a pending receive of an actor.
type receiver interface{ deliver(a *Actor) }

// Turn is one turn of an actor: the code it runs between two waits.
type Turn func(a *Actor)

// actorState says where an actor is in its turn.
type actorState uint8

const (
	actorTurning actorState = iota // its turn runs and has named no wait yet
	actorWaiting                   // its turn named a wait
	actorReady                     // its turn named a receive that found its message: next runs at once
	actorDone                      // it has ended
)

// SpawnActor creates an actor whose first turn is first and starts it at
// the current time, as an event: it runs after the events already
// scheduled for now, and SpawnActor itself returns at once. The actor
// finishes when a turn returns without naming a wait.
func (c *Calendar) SpawnActor(name string, first Turn) *Actor {
	a := &Actor{next: first, state: actorWaiting}
	if first == nil {
		panic(fmt.Sprintf("sim: actor %q spawned with no turn", name))
	}
	a.start(c, name, a, a.wake)
	return a
}

// Wait suspends the actor for d time units, then runs next. Wait(0, next)
// lets the events already scheduled for now run first. A negative d panics,
// like At.
func (a *Actor) Wait(d float64, next Turn) { a.WaitUntil(a.c.now+d, next) }

// WaitUntil suspends the actor until time t, then runs next. A t before
// Now panics, like At.
func (a *Actor) WaitUntil(t float64, next Turn) {
	a.then(next)
	a.timer = a.c.At(t, a.wakeFn)
}

// then records that a's turn waits, and then runs next. (a's state is
// actorTurning only while its turn runs, or after it panicked.)
func (a *Actor) then(next Turn) {
	if a.state != actorTurning || next == nil {
		a.badWait(next == nil)
	}
	a.next = next
	a.state = actorWaiting
}

// badWait panics with what is wrong with a wait of a.
func (a *Actor) badWait(noNext bool) {
	switch {
	case a.done:
		panic(fmt.Sprintf("sim: actor %q waits after it has ended", a.name))
	case a.c.running != &a.proc:
		panic(fmt.Sprintf("sim: actor %q waits from outside its own turn", a.name))
	case a.state != actorTurning:
		panic(fmt.Sprintf("sim: actor %q named a second wait in one turn", a.name))
	case noNext:
		panic(fmt.Sprintf("sim: actor %q waits with no turn to follow", a.name))
	}
}

// wake is a's wake-up event: it runs a's turns until one waits, or ends a
// if one names no wait. It sets no deferred call, which would cost a
// tenth of a turn: if a turn panics, c.running still names a when the
// panic has left Step, and the next Step or Close ends a
// (Calendar.outside).
func (a *Actor) wake() {
	a.woken()
	c := a.c
	c.running = &a.proc
	for {
		turn := a.next
		a.state = actorTurning
		turn(a)
		if a.state != actorReady {
			break
		}
	}
	c.running = nil
	if a.state == actorTurning {
		a.halt()
	}
}

// outside panics with msg if it is called from a process body or an
// actor's turn. When c.running names an actor but no turn is on the
// stack, that actor's turn panicked: outside ends it.
func (c *Calendar) outside(msg string) {
	p := c.running
	if p == nil {
		return
	}
	if a, ok := p.self.(*Actor); ok && !inTurn() {
		c.running = nil
		a.halt()
		return
	}
	panic(msg)
}

// inTurn reports whether an actor's turn is on the calling goroutine's
// stack (Actor.wake is).
func inTurn() bool {
	wake := runtime.FuncForPC(reflect.ValueOf((*Actor).wake).Pointer()).Name()
	pcs := make([]uintptr, 64)
	for {
		n := runtime.Callers(1, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function == wake {
			return true
		}
		if !more {
			return false
		}
	}
}

// halt ends a, dropping what it waits for.
func (a *Actor) halt() {
	a.exit()
	a.next, a.cont, a.src, a.taken = nil, nil, nil, false
	a.state = actorDone
}

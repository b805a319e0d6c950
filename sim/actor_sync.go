package sim

// WaitThen has actor a wait until the signal is notified, then run next:
// Wait for an actor.
func (s *Signal) WaitThen(a *Actor, next Turn) {
	a.then(next)
	a.enqueue(&s.waiters, 0, false)
}

// WaitForThen has actor a wait until the signal is notified or d time
// units have passed, then run next, told whether it was notified: WaitFor
// for an actor.
func (s *Signal) WaitForThen(a *Actor, d float64, next func(a *Actor, notified bool)) {
	a.thenCall(next, next == nil, notifiedTurn)
	a.enqueue(&s.waiters, a.c.now+d, true)
}

// notifiedTurn is the turn that follows WaitForThen.
func notifiedTurn(a *Actor) {
	next := a.cont.(func(*Actor, bool))
	a.cont = nil
	next(a, a.signalled)
}

// ReceiveThen has actor a take the next message, waiting while there is
// none, then run next with it: Receive for an actor. If a message is
// queued, a takes it at once, and next runs as soon as the current turn
// returns, with no event between.
func (m *Mailbox[T]) ReceiveThen(a *Actor, next func(a *Actor, msg T)) {
	m.receiveThen(a, next, next == nil, 0, false)
}

// ReceiveForThen has actor a take the next message, waiting at most d time
// units for one, then run next with the message and true, or the zero T
// and false if none came: ReceiveFor for an actor.
func (m *Mailbox[T]) ReceiveForThen(a *Actor, d float64, next func(a *Actor, msg T, ok bool)) {
	m.receiveThen(a, next, next == nil, a.c.now+d, true)
}

// receiveThen is ReceiveThen and ReceiveForThen; next is their
// continuation, missing if it is nil.
func (m *Mailbox[T]) receiveThen(a *Actor, next any, missing bool, t float64, timed bool) {
	a.thenCall(next, missing, receivedTurn)
	a.src = m
	if m.free.n > 0 {
		m.taken = m.free.pop()
		a.taken = true
		a.state = actorReady
		return
	}
	a.enqueue(&m.waiters, t, timed)
}

// receivedTurn is the turn that follows a receive.
func receivedTurn(a *Actor) { a.src.deliver(a) }

// deliver hands the message of a's receive, if one came, to the receive's
// continuation. (A func value of a generic function, received[T], would
// allocate at every receive.)
func (m *Mailbox[T]) deliver(a *Actor) {
	var msg, zero T
	ok := true
	switch {
	case a.taken:
		msg, m.taken = m.taken, zero
		a.taken = false
	case a.signalled:
		msg = m.handed.pop()
	default:
		ok = false
	}
	cont := a.cont
	a.cont, a.src = nil, nil
	if next, untimed := cont.(func(*Actor, T)); untimed {
		next(a, msg)
		return
	}
	cont.(func(*Actor, T, bool))(a, msg, ok)
}

// thenCall records that a's turn waits, and then runs turn, which calls
// next, the wait's continuation (missing if it is a nil func).
func (a *Actor) thenCall(next any, missing bool, turn Turn) {
	if missing {
		a.badWait(true)
	}
	a.then(turn)
	a.cont = next
}

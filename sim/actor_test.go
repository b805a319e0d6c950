package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestActorSleepsMatchCallbacks runs random sleepers written as
// callbacks, actors and processes, and checks that the three run the same
// wake-ups in the same order: an actor schedules its events exactly where
// the callback version does. Durations are whole or half units, zero
// included, so many wake-ups tie.
func TestActorSleepsMatchCallbacks(t *testing.T) {
	type wakeUp struct {
		t        float64
		who, nth int
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 40))
		sleeps := make([][]float64, 1+rng.IntN(30))
		for i := range sleeps {
			sleeps[i] = make([]float64, rng.IntN(40))
			for k := range sleeps[i] {
				sleeps[i][k] = float64(rng.IntN(5)) / 2
			}
		}
		run := func(form string) []wakeUp {
			var c Calendar
			defer c.Close()
			var got []wakeUp
			for i, ds := range sleeps {
				log := func(k int) { got = append(got, wakeUp{c.Now(), i, k}) }
				switch form {
				case "callback": // a start event, as Spawn schedules, then the sleeps
					k := 0
					var fn func()
					fn = func() {
						log(k)
						if k < len(ds) {
							k++
							c.After(ds[k-1], fn)
						}
					}
					c.At(0, fn)
				case "actor":
					k := 0
					var turn Turn
					turn = func(a *Actor) {
						log(k)
						if k < len(ds) {
							k++
							a.Wait(ds[k-1], turn)
						}
					}
					c.SpawnActor("sleeper", turn)
				case "process":
					c.Spawn("sleeper", func(p *Process) {
						for k, d := range ds {
							log(k)
							p.Wait(d)
						}
						log(len(ds))
					})
				}
			}
			procRun(t, &c)
			return got
		}
		want := run("callback")
		for _, form := range []string{"actor", "process"} {
			if got := run(form); !slices.Equal(got, want) {
				t.Fatalf("seed %d: %s wake-ups differ from the callbacks' (%d and %d)", seed, form, len(got), len(want))
			}
		}
	}
}

// progOp is one step of a random program that testProgram runs as a
// process or as an actor.
type progOp struct {
	kind int // one of the op* constants
	k    int // which signal or mailbox
	d    float64
}

const (
	opWait = iota
	opSignalWait
	opSignalWaitFor
	opNotify
	opNotifyAll
	opSend
	opReceive
	opReceiveFor
	opKinds
)

// progEnv is what the programs of one model share, and its log.
type progEnv struct {
	c     *Calendar
	sigs  [2]Signal
	boxes [2]Mailbox[int]
	log   []procLine
}

func (e *progEnv) say(who string, format string, args ...any) {
	e.log = append(e.log, procLine{e.c.Now(), who + " " + fmt.Sprintf(format, args...)})
}

// do runs a non-blocking op for who; it reports false for an op that waits.
func (e *progEnv) do(who string, i int, o progOp) bool {
	switch o.kind {
	case opNotify:
		e.say(who, "notify %d: %v", o.k, e.sigs[o.k].Notify())
	case opNotifyAll:
		e.say(who, "notify all %d: %d", o.k, e.sigs[o.k].NotifyAll())
	case opSend:
		e.boxes[o.k].Send(i)
		e.say(who, "sent %d to %d", i, o.k)
	default:
		return false
	}
	return true
}

// randomProgram draws n ops.
func randomProgram(rng *rand.Rand, n int) []progOp {
	prog := make([]progOp, n)
	for i := range prog {
		prog[i] = progOp{kind: rng.IntN(opKinds), k: rng.IntN(2), d: float64(rng.IntN(4)) / 2}
	}
	return prog
}

// processProgram is prog as a process body.
func processProgram(e *progEnv, prog []progOp) func(*Process) {
	return func(p *Process) {
		who := p.Name()
		for i, o := range prog {
			if e.do(who, i, o) {
				continue
			}
			switch o.kind {
			case opWait:
				p.Wait(o.d)
				e.say(who, "waited")
			case opSignalWait:
				e.sigs[o.k].Wait(p)
				e.say(who, "signalled")
			case opSignalWaitFor:
				e.say(who, "wait for: %v", e.sigs[o.k].WaitFor(p, o.d))
			case opReceive:
				e.say(who, "got %d", e.boxes[o.k].Receive(p))
			case opReceiveFor:
				v, ok := e.boxes[o.k].ReceiveFor(p, o.d)
				e.say(who, "got %d, %v", v, ok)
			}
		}
		e.say(who, "ends")
	}
}

// actorProgram is prog as an actor's first turn.
func actorProgram(e *progEnv, who string, prog []progOp) Turn {
	i := 0
	var turn Turn
	turn = func(a *Actor) {
		for ; i < len(prog); i++ {
			o := prog[i]
			if e.do(who, i, o) {
				continue
			}
			i++
			switch o.kind {
			case opWait:
				a.Wait(o.d, func(a *Actor) { e.say(who, "waited"); turn(a) })
			case opSignalWait:
				e.sigs[o.k].WaitThen(a, func(a *Actor) { e.say(who, "signalled"); turn(a) })
			case opSignalWaitFor:
				e.sigs[o.k].WaitForThen(a, o.d, func(a *Actor, ok bool) { e.say(who, "wait for: %v", ok); turn(a) })
			case opReceive:
				e.boxes[o.k].ReceiveThen(a, func(a *Actor, v int) { e.say(who, "got %d", v); turn(a) })
			case opReceiveFor:
				e.boxes[o.k].ReceiveForThen(a, o.d, func(a *Actor, v int, ok bool) { e.say(who, "got %d, %v", v, ok); turn(a) })
			}
			return
		}
		e.say(who, "ends")
	}
	return turn
}

// TestActorProgramsMatchProcesses runs random programs of waits, signals,
// mailboxes and timeouts, with a callback that notifies and sends, written
// as processes, as actors, and half one half the other, and checks the
// three logs are identical.
func TestActorProgramsMatchProcesses(t *testing.T) {
	lines := 0
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 41))
		progs := make([][]progOp, 2+rng.IntN(10))
		for i := range progs {
			progs[i] = randomProgram(rng, rng.IntN(60))
		}
		run := func(asActor func(i int) bool) ([]procLine, int) {
			var c Calendar
			defer c.Close()
			e := &progEnv{c: &c}
			for i, prog := range progs {
				who := fmt.Sprint("p", i)
				if asActor(i) {
					c.SpawnActor(who, actorProgram(e, who, prog))
				} else {
					c.Spawn(who, processProgram(e, prog))
				}
			}
			var tick func()
			n := 0
			tick = func() {
				e.say("tick", "woke %d", e.sigs[n%2].NotifyAll())
				if n%3 == 0 {
					e.boxes[n%2].Send(-n)
				}
				n++
				c.After(1.5, tick)
			}
			c.At(0.5, tick)
			c.RunUntil(40)
			live := 0
			for p := c.procs.head; p != nil; p = p.links[liveLinks].next {
				live++
			}
			return e.log, live
		}
		want, wantLive := run(func(int) bool { return false })
		lines += len(want)
		for _, mix := range []struct {
			name string
			f    func(int) bool
		}{{"actors", func(int) bool { return true }}, {"odd actors", func(i int) bool { return i%2 == 1 }}} {
			got, live := run(mix.f)
			if i := mismatch(got, want); i >= 0 || live != wantLive {
				t.Fatalf("seed %d, %s: logs differ at line %d of %d and %d (%s); %d and %d left waiting",
					seed, mix.name, i, len(got), len(want), lineAt(got, want, i), live, wantLive)
			}
		}
	}
	if lines < 2000 {
		t.Errorf("only %d lines in all: the programs did little", lines)
	}
}

// mismatch is the first index where a and b differ, or −1.
func mismatch(a, b []procLine) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func lineAt(got, want []procLine, i int) string {
	at := func(l []procLine) string {
		if i < 0 || i >= len(l) {
			return "none"
		}
		return fmt.Sprintf("%v: %s", l[i].t, l[i].what)
	}
	return "actors " + at(got) + ", processes " + at(want)
}

// TestActorSignal checks Signal's meaning for actors: waiters wake in the
// order they began to wait, at the time of the notification; a
// notification with nobody waiting is lost; a timed wait reports whether
// it was notified.
func TestActorSignal(t *testing.T) {
	var c Calendar
	var sig Signal
	var got []procLine
	for _, name := range []string{"a", "b", "c"} {
		c.SpawnActor(name, func(a *Actor) {
			sig.WaitThen(a, func(a *Actor) {
				got = append(got, procLine{a.Now(), a.Name()})
				sig.WaitForThen(a, 1, func(a *Actor, notified bool) {
					got = append(got, procLine{a.Now(), fmt.Sprint(a.Name(), " ", notified)})
				})
			})
		})
	}
	c.At(1, func() { sig.Notify() })
	c.At(3, func() {
		if n := sig.Waiting(); n != 2 {
			t.Errorf("Waiting = %d, want 2", n)
		}
		if n := sig.NotifyAll(); n != 2 {
			t.Errorf("NotifyAll = %d, want 2", n)
		}
	})
	c.At(3.5, func() { sig.Notify() })
	c.At(10, func() {
		if sig.Notify() {
			t.Error("Notify with nobody waiting reported a waiter")
		}
	})
	procRun(t, &c)
	want := []procLine{{1, "a"}, {2, "a false"}, {3, "b"}, {3, "c"}, {3.5, "b true"}, {4, "c false"}}
	if !slices.Equal(got, want) {
		t.Errorf("log %v, want %v", got, want)
	}
	if c.procs.head != nil || c.Len() != 0 || sig.Waiting() != 0 {
		t.Error("finished actors still listed, events or waiters left")
	}
}

// TestActorMailbox checks a producer and a consumer actor against
// Lindley's recursion, like TestProcessProducerConsumer, and that a
// consumer taking queued messages at once runs its turns without growing
// its stack.
func TestActorMailbox(t *testing.T) {
	const n = 2000
	rng := rand.New(rand.NewPCG(5, 6))
	gaps, services := make([]float64, n), make([]float64, n)
	for i := range n {
		gaps[i], services[i] = rng.ExpFloat64(), 0.9*rng.ExpFloat64()
	}
	var c Calendar
	var box Mailbox[int]
	var departures []float64
	i := 0
	var produce Turn
	produce = func(a *Actor) {
		if i > 0 {
			box.Send(i - 1)
		}
		if i < n {
			i++
			a.Wait(gaps[i-1], produce)
		}
	}
	var consume func(a *Actor, job int)
	consume = func(a *Actor, job int) {
		if job != len(departures) {
			t.Errorf("received job %d, want %d (first in, first out)", job, len(departures))
		}
		a.Wait(services[job], func(a *Actor) {
			departures = append(departures, a.Now())
			box.ReceiveThen(a, consume)
		})
	}
	c.SpawnActor("producer", produce)
	consumer := c.SpawnActor("consumer", func(a *Actor) { box.ReceiveThen(a, consume) })
	procRun(t, &c)
	checkLindley(t, gaps, services, departures)
	if consumer.Done() || box.waiters.n != 1 {
		t.Error("the consumer should still wait for a message")
	}
	c.Close()

	// 10^4 queued messages taken one turn after another: the turns run one
	// after the other from the same frame, not nested.
	for k := range 10000 {
		box.Send(k)
	}
	depths := map[int]bool{}
	var drain func(a *Actor, v int)
	drain = func(a *Actor, v int) {
		depths[runtime.Callers(0, make([]uintptr, 64))] = true
		if box.Len() > 0 {
			box.ReceiveThen(a, drain)
		}
	}
	c.SpawnActor("drain", func(a *Actor) { box.ReceiveThen(a, drain) })
	procRun(t, &c)
	if len(depths) != 1 || box.Len() != 0 {
		t.Errorf("stack depths of the turns %v, %d messages left; want one depth, none left", depths, box.Len())
	}
}

// TestActorClose checks cancellation: a model stopped part way (RunUntil,
// Run stopped by its context), then Close ends every actor, whatever it waits for, drops their events and
// wait queues, and leaves the calendar usable. Actors never start a
// goroutine.
func TestActorClose(t *testing.T) {
	goroutines := runtime.NumGoroutine() // may fall as earlier tests' goroutines end
	var c Calendar
	var sig Signal
	var box Mailbox[int]
	waits := []func(a *Actor, next Turn){
		func(a *Actor, next Turn) { sig.WaitThen(a, next) },
		func(a *Actor, next Turn) { box.ReceiveThen(a, func(a *Actor, _ int) { next(a) }) },
		func(a *Actor, next Turn) { a.Wait(1e9, next) },
		func(a *Actor, next Turn) { sig.WaitForThen(a, 1e9, func(a *Actor, _ bool) { next(a) }) },
		func(a *Actor, next Turn) {
			box.ReceiveForThen(a, 1e9, func(a *Actor, _ int, _ bool) { next(a) })
		},
	}
	var actors []*Actor
	for i := range 1000 {
		actors = append(actors, c.SpawnActor(fmt.Sprint("a", i), func(a *Actor) {
			waits[i%len(waits)](a, func(*Actor) { t.Errorf("%s went on after Close", a.Name()) })
		}))
	}
	c.RunUntil(10)
	c.At(20, func() { t.Error("event ran after Close") })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	never := c.SpawnActor("never started", func(*Actor) { t.Error("an actor spawned before Close started") })
	if n, in := runtime.NumGoroutine(), actorGoroutines(); n > goroutines || in > 0 {
		t.Errorf("%d goroutines with %d actors alive, %d before; %d run actor code", n, len(actors), goroutines, in)
	}
	c.Close()
	for _, a := range append(actors, never) {
		if !a.Done() {
			t.Fatalf("%s not done after Close", a.Name())
		}
	}
	if c.Len() != 0 || sig.Waiting() != 0 || box.waiters.n != 0 || c.procs.head != nil {
		t.Errorf("after Close: %d events, %d and %d waiters, actors listed %v",
			c.Len(), sig.Waiting(), box.waiters.n, c.procs.head != nil)
	}
	now := c.Now()
	ran := false
	c.SpawnActor("after", func(a *Actor) { a.Wait(1, func(*Actor) { ran = true }) })
	procRun(t, &c)
	if !ran || c.Now() != now+1 {
		t.Errorf("calendar unusable after Close: ran %v, Now %v", ran, c.Now())
	}
	if n, in := runtime.NumGoroutine(), actorGoroutines(); n > goroutines || in > 0 {
		t.Errorf("%d goroutines after Close, %d before; %d run actor code", n, goroutines, in)
	}
}

// actorGoroutines counts the goroutines with an Actor's method on their
// stack (the caller's has none).
func actorGoroutines() int {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "sim.(*Actor)")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestActorMisuse checks the panics that report bugs in a model, and that
// the calendar can still be closed after them.
func TestActorMisuse(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *Calendar)
		want string
	}{
		{"Wait from a callback", func(c *Calendar) {
			a := c.SpawnActor("a", func(a *Actor) { a.Wait(5, func(*Actor) {}) })
			c.At(1, func() { a.Wait(1, func(*Actor) {}) })
		}, `actor "a" waits from outside its own turn`},
		{"Receive for another actor", func(c *Calendar) {
			var box Mailbox[int]
			b := c.SpawnActor("b", func(a *Actor) { a.Wait(5, func(*Actor) {}) })
			c.SpawnActor("a", func(*Actor) { box.ReceiveThen(b, func(*Actor, int) {}) })
		}, `actor "b" waits from outside its own turn`},
		{"Wait after the end", func(c *Calendar) {
			a := c.SpawnActor("a", func(*Actor) {}) // ends at its first turn
			c.At(1, func() { a.Wait(1, func(*Actor) { panic("a turn of an ended actor ran") }) })
		}, `actor "a" waits after it has ended`},
		{"two waits in a turn", func(c *Calendar) {
			var sig Signal
			c.SpawnActor("a", func(a *Actor) {
				a.Wait(1, func(*Actor) {})
				sig.WaitThen(a, func(*Actor) {})
			})
		}, `actor "a" named a second wait in one turn`},
		{"no next turn", func(c *Calendar) {
			var box Mailbox[int]
			c.SpawnActor("a", func(a *Actor) { box.ReceiveForThen(a, 1, nil) })
		}, `actor "a" waits with no turn to follow`},
		{"Step from a turn", func(c *Calendar) {
			c.SpawnActor("a", func(*Actor) { c.Step() })
		}, "called from inside a process or actor"},
		{"Close from a turn", func(c *Calendar) {
			c.SpawnActor("a", func(*Actor) { c.Close() })
		}, "Close called from inside a process or actor"},
		{"Wait into the past", func(c *Calendar) {
			c.SpawnActor("a", func(a *Actor) { a.Wait(-1, func(*Actor) {}) })
		}, "in the past"},
		{"turn panics", func(c *Calendar) {
			c.SpawnActor("a", func(a *Actor) { a.Wait(1, func(*Actor) { panic(errProcTest) }) })
		}, `model broke`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Calendar
			tt.run(&c)
			r := procPanic(t, &c, tt.want)
			if err, _ := r.(error); tt.name == "turn panics" && err != errProcTest {
				t.Errorf("panic %v, want the turn's own value", r)
			}
			if tt.name == "turn panics" {
				// the calendar goes on after a panic in a turn, without the actor
				ran := false
				c.At(c.Now(), func() { ran = true })
				procRun(t, &c)
				if !ran || c.procs.head != nil {
					t.Errorf("after the panic: event ran %v, actors listed %v", ran, c.procs.head != nil)
				}
			}
			c.Close() // works after a panic, too
			if c.procs.head != nil || c.Len() != 0 {
				t.Error("actors or events left after Close")
			}
		})
	}
}

// TestActorNoAllocs checks that a turn, a notification and a message
// allocate nothing once everything has grown.
func TestActorNoAllocs(t *testing.T) {
	var c Calendar
	defer c.Close()
	type msg struct { // a message with pointers, as policies send
		from  int
		tasks []int
	}
	var sig Signal
	var box Mailbox[msg]
	var wait, sleep Turn
	wait = func(a *Actor) { a.Wait(1, wait) }
	var notified func(a *Actor, ok bool)
	notified = func(a *Actor, ok bool) { sig.WaitForThen(a, 10, notified) }
	var receive func(a *Actor, m msg)
	receive = func(a *Actor, m msg) { box.ReceiveThen(a, receive) }
	tasks := []int{1, 2}
	i := 0
	sleep = func(a *Actor) {
		box.Send(msg{i, tasks})
		i++
		sig.Notify()
		a.Wait(0.5, sleep)
	}
	c.SpawnActor("waiter", wait)
	c.SpawnActor("notified", func(a *Actor) { notified(a, false) })
	c.SpawnActor("receiver", func(a *Actor) { box.ReceiveThen(a, receive) })
	c.SpawnActor("sender", func(a *Actor) { a.Wait(0.5, sleep) })
	c.RunUntil(10)
	// a time unit per run, about 7 events: AllocsPerRun truncates its mean
	allocs := testing.AllocsPerRun(100, func() { c.RunUntil(c.Now() + 1) })
	if allocs != 0 {
		t.Errorf("%v allocations per time unit, want 0", allocs)
	}
}

package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// procRun runs c to the end and fails the test on error.
func procRun(t *testing.T, c *Calendar) {
	t.Helper()
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// procLine is one line of a model's log: what happened, and when.
type procLine struct {
	t    float64
	what string
}

func TestProcessPingPong(t *testing.T) {
	var c Calendar
	defer c.Close()
	var toPing, toPong Mailbox[int]
	var got []procLine
	ping := c.Spawn("ping", func(p *Process) {
		for i := range 3 {
			p.Wait(1)
			toPong.Send(i)
			v := toPing.Receive(p)
			got = append(got, procLine{p.Now(), fmt.Sprint("ping got ", v)})
		}
	})
	pong := c.Spawn("pong", func(p *Process) {
		for {
			v := toPong.Receive(p)
			p.Wait(0.5)
			toPing.Send(10 * v)
		}
	})
	procRun(t, &c)
	// ping sends at 1, 2.5, 4; pong answers half a unit later
	want := []procLine{{1.5, "ping got 0"}, {3, "ping got 10"}, {4.5, "ping got 20"}}
	if !slices.Equal(got, want) {
		t.Errorf("log %v, want %v", got, want)
	}
	if !ping.Done() || pong.Done() {
		t.Errorf("after Run: ping done %v, pong done %v; want true, false (pong waits)", ping.Done(), pong.Done())
	}
	c.Close()
	if !pong.Done() {
		t.Error("Close left pong running")
	}
}

// TestProcessProducerConsumer runs a single-server queue as a producer and
// a consumer process around a Mailbox and checks every departure against
// Lindley's recursion d_i = max(a_i, d_{i-1}) + s_i.
func TestProcessProducerConsumer(t *testing.T) {
	type job struct {
		id      int
		service float64
	}
	const n = 2000
	rng := rand.New(rand.NewPCG(5, 6))
	gaps := make([]float64, n)
	services := make([]float64, n)
	for i := range n {
		gaps[i], services[i] = rng.ExpFloat64(), 0.9*rng.ExpFloat64() // load 0.9: queues form
	}

	var c Calendar
	defer c.Close()
	var box Mailbox[job]
	departures := make([]float64, 0, n)
	maxQueued := 0
	c.Spawn("producer", func(p *Process) {
		for i := range n {
			p.Wait(gaps[i])
			box.Send(job{i, services[i]})
			maxQueued = max(maxQueued, box.Len())
		}
	})
	c.Spawn("consumer", func(p *Process) {
		for {
			j := box.Receive(p)
			if j.id != len(departures) {
				t.Errorf("received job %d, want %d (first in, first out)", j.id, len(departures))
			}
			p.Wait(j.service)
			departures = append(departures, p.Now())
		}
	})
	procRun(t, &c)

	checkLindley(t, gaps, services, departures)
	if maxQueued < 2 {
		t.Errorf("at most %d jobs queued: the test never exercised queueing", maxQueued)
	}
}

func TestProcessTimeout(t *testing.T) {
	tests := []struct {
		name     string
		notifyAt float64 // when a callback notifies (or sends); 0: never
		early    bool    // the callback is scheduled before the process's timeout
		timeout  float64
		wantOK   bool
		wantT    float64
	}{
		{"notified first", 1, false, 2, true, 1},
		{"times out", 3, false, 2, false, 2},
		{"never notified", 0, false, 2, false, 2},
		{"same time, notify scheduled first", 2, true, 2, true, 2},
		{"same time, timeout scheduled first", 2, false, 2, false, 2},
	}
	for _, tt := range tests {
		for _, kind := range []string{"signal", "mailbox"} {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				var c Calendar
				defer c.Close()
				var sig Signal
				var box Mailbox[string]
				var lateNotify bool
				notify := func() {
					if kind == "signal" {
						lateNotify = !sig.Notify()
					} else {
						box.Send("hello")
					}
				}
				if tt.notifyAt > 0 && tt.early {
					c.At(tt.notifyAt, notify)
				}
				var ok bool
				var at float64
				c.Spawn("waiter", func(p *Process) {
					if kind == "signal" {
						ok = sig.WaitFor(p, tt.timeout)
					} else {
						var msg string
						msg, ok = box.ReceiveFor(p, tt.timeout)
						if ok != (msg == "hello") {
							t.Errorf("ReceiveFor = %q, %v", msg, ok)
						}
					}
					at = p.Now()
					p.Wait(10) // no leftover of the wait may wake it early
					if p.Now() != at+10 {
						t.Errorf("Wait(10) from %v ended at %v", at, p.Now())
					}
				})
				if tt.notifyAt > 0 && !tt.early {
					// scheduled at 0 after the waiter has run, so after its timeout
					c.At(0, func() { c.At(tt.notifyAt, notify) })
				}
				procRun(t, &c)
				if ok != tt.wantOK || at != tt.wantT {
					t.Errorf("wait ended at %v with %v, want %v with %v", at, ok, tt.wantT, tt.wantOK)
				}
				if tt.notifyAt > 0 && !tt.wantOK {
					// a notification after the timeout finds nobody; a message waits
					if kind == "signal" && !lateNotify {
						t.Error("late Notify reported a waiter")
					}
					if kind == "mailbox" && box.Len() != 1 {
						t.Errorf("late message: Len = %d, want 1", box.Len())
					}
				}
				if sig.Waiting() != 0 {
					t.Errorf("%d processes still wait on the signal", sig.Waiting())
				}
			})
		}
	}
}

// TestProcessTimeoutAfterNotify checks that a wait that times out reports
// false even if the previous wait of the same process was notified.
func TestProcessTimeoutAfterNotify(t *testing.T) {
	var c Calendar
	defer c.Close()
	var sig Signal
	var box Mailbox[int]
	var got []bool
	c.Spawn("waiter", func(p *Process) {
		got = append(got, sig.WaitFor(p, 2), sig.WaitFor(p, 2))
		_, ok1 := box.ReceiveFor(p, 2)
		_, ok2 := box.ReceiveFor(p, 2)
		got = append(got, ok1, ok2)
	})
	c.At(1, func() { sig.Notify() })
	c.At(4, func() { box.Send(1) })
	procRun(t, &c)
	if want := []bool{true, false, true, false}; !slices.Equal(got, want) || c.Now() != 6 {
		t.Errorf("waits ended %v at %v, want %v at 6", got, c.Now(), want)
	}
}

// TestProcessInterleaving checks the order of processes and callbacks that
// run at equal times: by insertion sequence, like callbacks alone.
func TestProcessInterleaving(t *testing.T) {
	t.Run("by hand", func(t *testing.T) {
		var c Calendar
		defer c.Close()
		var got []procLine
		log := func(s string) { got = append(got, procLine{c.Now(), s}) }
		c.Spawn("A", func(p *Process) { // starts at (0, seq 1)
			log("A starts")
			p.Wait(1) // (1, seq 4)
			log("A at 1")
		})
		c.At(1, func() { log("callback at 1") }) // (1, seq 2)
		c.Spawn("B", func(p *Process) {          // (0, seq 3)
			log("B starts")
			p.Wait(1) // (1, seq 5)
			log("B at 1")
			c.At(1, func() { log("callback from B") }) // (1, seq 6)
			p.Wait(0)                                  // (1, seq 7)
			log("B after Wait(0)")
		})
		procRun(t, &c)
		want := []procLine{{0, "A starts"}, {0, "B starts"}, {1, "callback at 1"}, {1, "A at 1"},
			{1, "B at 1"}, {1, "callback from B"}, {1, "B after Wait(0)"}}
		if !slices.Equal(got, want) {
			t.Errorf("log\n%v\nwant\n%v", got, want)
		}
	})

	// The same clocks written as callbacks and as processes schedule the
	// same events in the same order, so their logs must be identical.
	t.Run("processes as callbacks", func(t *testing.T) {
		periods := []float64{1, 0.5, 1.5, 1, 0.25, 2, 1, 0.75}
		clocks := func(asProcess func(i int) bool) []procLine {
			var c Calendar
			defer c.Close()
			var got []procLine
			for i, d := range periods {
				name := fmt.Sprint("clock ", i)
				tick := func() { got = append(got, procLine{c.Now(), name}) }
				if asProcess(i) {
					c.Spawn(name, func(p *Process) {
						for {
							tick()
							p.Wait(d)
						}
					})
					continue
				}
				var fn func()
				fn = func() { tick(); c.After(d, fn) }
				c.At(0, fn)
			}
			c.RunUntil(50)
			return got
		}
		want := clocks(func(int) bool { return false })
		for _, mix := range []struct {
			name string
			f    func(int) bool
		}{{"all processes", func(int) bool { return true }}, {"odd processes", func(i int) bool { return i%2 == 1 }}} {
			if got := clocks(mix.f); !slices.Equal(got, want) {
				t.Errorf("%s: log differs from the callbacks' (%d and %d lines)", mix.name, len(got), len(want))
			}
		}
		if len(want) < 400 {
			t.Errorf("only %d ticks", len(want))
		}
	})
}

// TestProcessDeterministic runs a random model of processes, signals,
// mailboxes and callbacks twice and checks the runs are identical.
func TestProcessDeterministic(t *testing.T) {
	model := func() []procLine {
		var c Calendar
		defer c.Close()
		rng := rand.New(rand.NewPCG(9, 9))
		var got []procLine
		var sig Signal
		var box Mailbox[int]
		for i := range 20 {
			name := fmt.Sprint("p", i)
			c.Spawn(name, func(p *Process) {
				for k := 0; p.Now() < 100; k++ {
					switch rng.IntN(4) {
					case 0:
						p.Wait(float64(rng.IntN(4)) / 2)
					case 1:
						if sig.WaitFor(p, float64(rng.IntN(3))) {
							got = append(got, procLine{p.Now(), name + " signalled"})
						}
					case 2:
						if v, ok := box.ReceiveFor(p, 1); ok {
							got = append(got, procLine{p.Now(), fmt.Sprint(name, " got ", v)})
						}
					default:
						box.Send(k)
					}
				}
			})
		}
		var tick func()
		tick = func() {
			got = append(got, procLine{c.Now(), fmt.Sprint("tick woke ", sig.NotifyAll())})
			c.After(0.5, tick)
		}
		c.At(0, tick)
		c.RunUntil(120)
		return got
	}
	a, b := model(), model()
	if !slices.Equal(a, b) {
		t.Fatalf("two runs of one model differ (%d and %d lines)", len(a), len(b))
	}
	if !slices.IsSortedFunc(a, func(x, y procLine) int { return cmp.Compare(x.t, y.t) }) {
		t.Error("log times go backwards")
	}
	if len(a) < 500 {
		t.Errorf("only %d lines: the model did little", len(a))
	}
}

func TestProcessSignalNotifyAll(t *testing.T) {
	var c Calendar
	defer c.Close()
	var sig Signal
	var got []procLine
	for _, name := range []string{"a", "b", "c"} {
		c.Spawn(name, func(p *Process) {
			sig.Wait(p)
			got = append(got, procLine{p.Now(), name})
		})
	}
	c.At(5, func() {
		if n := sig.Waiting(); n != 3 {
			t.Errorf("Waiting = %d, want 3", n)
		}
		if n := sig.NotifyAll(); n != 3 {
			t.Errorf("NotifyAll = %d, want 3", n)
		}
		if sig.Notify() {
			t.Error("Notify with nobody waiting = true")
		}
	})
	procRun(t, &c)
	want := []procLine{{5, "a"}, {5, "b"}, {5, "c"}}
	if !slices.Equal(got, want) {
		t.Errorf("woke %v, want %v", got, want)
	}
}

// TestProcessMailboxFairness checks that a message sent while a process waits
// goes to that process, even if another asks before it runs.
func TestProcessMailboxFairness(t *testing.T) {
	var c Calendar
	defer c.Close()
	var box Mailbox[string]
	got := map[string]string{}
	c.Spawn("first", func(p *Process) { got["first"] = box.Receive(p) })
	c.Spawn("late", func(p *Process) {
		p.Wait(1) // wakes at 1 before "first", whose wake-up the send schedules
		got["late"] = box.Receive(p)
	})
	c.At(1, func() {
		box.Send("m1") // for "first", who waits
		box.Send("m2") // queued
		if box.Len() != 1 {
			t.Errorf("Len = %d, want 1 (m1 is promised)", box.Len())
		}
	})
	procRun(t, &c)
	if got["first"] != "m1" || got["late"] != "m2" {
		t.Errorf("got %v, want first: m1, late: m2", got)
	}
	if v, ok := box.TryReceive(); ok {
		t.Errorf("TryReceive on an empty mailbox = %q, true", v)
	}
	box.Send("m3")
	if v, ok := box.TryReceive(); !ok || v != "m3" {
		t.Errorf("TryReceive = %q, %v, want m3, true", v, ok)
	}
}

// procCoroutines counts the goroutines that run a process body (live
// coroutines), waiting for it to drop to want: a coroutine's goroutine
// ends just after its last switch. It polls until then, for at most a
// minute (far longer than a loaded machine takes), and returns the count.
func procCoroutines(want int) int {
	count := func() int {
		buf := make([]byte, 1<<20)
		for {
			n := runtime.Stack(buf, true)
			if n < len(buf) {
				return strings.Count(string(buf[:n]), "sim.(*Process).run(")
			}
			buf = make([]byte, 2*len(buf))
		}
	}
	n := count()
	for deadline := time.Now().Add(time.Minute); n > want && time.Now().Before(deadline); n = count() {
		time.Sleep(time.Millisecond)
	}
	return n
}

// TestProcessClose checks that Close stops suspended processes, running
// their deferred calls, ends their coroutines, discards pending events,
// and leaves the calendar usable.
func TestProcessClose(t *testing.T) {
	base := procCoroutines(math.MaxInt) // other tests' leaks are not ours
	var c Calendar
	var sig Signal
	var box Mailbox[int]
	var unwound []string
	blocks := map[string]func(p *Process){
		"signal":  func(p *Process) { sig.Wait(p) },
		"mailbox": func(p *Process) { box.Receive(p) },
		"wait":    func(p *Process) { p.Wait(1e9) },
		"timeout": func(p *Process) { sig.WaitFor(p, 1e9) },
		"blocks in a deferred call": func(p *Process) {
			defer p.Wait(1) // unwinding: blocking again panics, and is recovered
			sig.Wait(p)
		},
	}
	var procs []*Process
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range blocks {
			if !yield(k) {
				return
			}
		}
	}) {
		for range 20 {
			procs = append(procs, c.Spawn(name, func(p *Process) {
				defer func() { unwound = append(unwound, p.Name()) }()
				blocks[name](p)
				t.Errorf("%s: body went on after Close", name)
			}))
		}
	}
	c.RunUntil(10)
	c.At(20, func() { t.Error("event ran after Close") })
	never := c.Spawn("never started", func(*Process) { t.Error("a process spawned before Close started") })
	if n := procCoroutines(base + len(procs)); n != base+len(procs) {
		t.Fatalf("%d coroutines for %d suspended processes (%d before)", n, len(procs), base)
	}
	c.Close()
	if len(unwound) != len(procs) {
		t.Errorf("%d deferred calls ran, want %d", len(unwound), len(procs))
	}
	for _, p := range append(procs, never) {
		if !p.Done() {
			t.Errorf("%s not done after Close", p.Name())
		}
	}
	if n := procCoroutines(base); n != base {
		t.Errorf("%d coroutines left after Close, want %d", n, base)
	}
	if c.Len() != 0 || sig.Waiting() != 0 || c.procs.head != nil {
		t.Errorf("after Close: %d events, %d waiters, processes listed %v", c.Len(), sig.Waiting(), c.procs.head != nil)
	}
	procRun(t, &c) // nothing left
	if c.Now() != 10 {
		t.Errorf("Now = %v after Close, want 10", c.Now())
	}
	ran := false
	c.Spawn("after", func(p *Process) { p.Wait(1); ran = true })
	procRun(t, &c)
	if !ran || c.Now() != 11 {
		t.Errorf("calendar unusable after Close: ran %v, Now %v", ran, c.Now())
	}
	c.Close()
	c.Close() // again: nothing to do
}

// TestProcessFinishLeavesNothing checks that processes that return leave
// no goroutine and no bookkeeping behind, without Close.
func TestProcessFinishLeavesNothing(t *testing.T) {
	base := procCoroutines(math.MaxInt)
	var c Calendar
	var sig Signal
	procs := make([]*Process, 50)
	for i := range procs {
		procs[i] = c.Spawn("worker", func(p *Process) {
			p.Wait(float64(i))
			sig.WaitFor(p, 1) // times out
		})
	}
	procRun(t, &c)
	for _, p := range procs {
		if !p.Done() {
			t.Fatal("a process did not finish")
		}
	}
	if n := procCoroutines(base); n != base {
		t.Errorf("%d coroutines left after every process returned, want %d", n, base)
	}
	if c.procs.head != nil || c.Len() != 0 {
		t.Error("finished processes still listed, or events left")
	}
}

// TestProcessMisuse checks the panics that report bugs in a model.
func TestProcessMisuse(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *Calendar)
		want string
	}{
		{"Wait from a callback", func(c *Calendar) {
			p := c.Spawn("p", func(p *Process) { p.Wait(5) })
			c.At(1, func() { p.Wait(1) })
		}, `process "p" blocked from outside its own body`},
		{"Receive for another process", func(c *Calendar) {
			var box Mailbox[int]
			q := c.Spawn("q", func(p *Process) { p.Wait(5) })
			c.Spawn("p", func(p *Process) { box.Receive(q) })
		}, `process "q" blocked from outside its own body`},
		{"Step from a process", func(c *Calendar) {
			c.Spawn("p", func(p *Process) { c.Step() })
		}, "called from inside a process"},
		{"Close from a process", func(c *Calendar) {
			c.Spawn("p", func(p *Process) { c.Close() })
		}, "Close called from inside a process"},
		{"Wait into the past", func(c *Calendar) {
			c.Spawn("p", func(p *Process) { p.Wait(-1) })
		}, "in the past"},
		{"body panics", func(c *Calendar) {
			c.Spawn("p", func(p *Process) { p.Wait(1); panic(errProcTest) })
		}, `process "p" panicked: model broke`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Calendar
			defer c.Close() // works after a panic, too
			tt.run(&c)
			r := procPanic(t, &c, tt.want)
			if err, _ := r.(error); tt.name == "body panics" && !errors.Is(err, errProcTest) {
				t.Errorf("panic %v does not wrap the body's error", r)
			}
		})
	}
}

var errProcTest = errors.New("model broke")

// procPanic runs c to the end, which must panic with a message containing
// want, and returns the panic's value.
func procPanic(t *testing.T, c *Calendar, want string) (r any) {
	t.Helper()
	defer func() {
		r = recover()
		msg := fmt.Sprint(r)
		if err, ok := r.(error); ok {
			msg = err.Error()
		}
		if !strings.Contains(msg, want) {
			t.Errorf("panic %q, want one containing %q", msg, want)
		}
	}()
	procRun(t, c)
	return nil
}

// TestProcessNoAllocs checks that a process switch, a notification and a
// message allocate nothing once everything has grown.
func TestProcessNoAllocs(t *testing.T) {
	var c Calendar
	defer c.Close()
	var sig Signal
	var box Mailbox[int]
	c.Spawn("waiter", func(p *Process) {
		for {
			p.Wait(1)
		}
	})
	c.Spawn("notified", func(p *Process) {
		for {
			sig.WaitFor(p, 10)
		}
	})
	c.Spawn("receiver", func(p *Process) {
		for {
			box.Receive(p)
		}
	})
	c.Spawn("sender", func(p *Process) {
		for i := 0; ; i++ {
			p.Wait(0.5)
			box.Send(i)
			sig.Notify()
		}
	})
	c.RunUntil(10)
	// a time unit per run, about 7 events: AllocsPerRun truncates its mean
	allocs := testing.AllocsPerRun(100, func() { c.RunUntil(c.Now() + 1) })
	if allocs != 0 {
		t.Errorf("%v allocations per time unit, want 0", allocs)
	}
}

// checkLindley checks a single-server FIFO queue's departures against
// Lindley's recursion: job i departs at max(its arrival, the departure
// before it) + its service, arrivals the running sums of gaps.
func checkLindley(t *testing.T, gaps, services, departures []float64) {
	t.Helper()
	if len(departures) != len(services) {
		t.Fatalf("%d departures, want %d", len(departures), len(services))
	}
	arrival, prev := 0.0, 0.0
	for i := range services {
		arrival += gaps[i]
		prev = max(arrival, prev) + services[i]
		if departures[i] != prev {
			t.Fatalf("job %d departs at %v, Lindley says %v", i, departures[i], prev)
		}
	}
}

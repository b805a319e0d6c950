package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/cputime"
)

// BenchmarkProcessSwitch measures what a process or an actor costs over a
// callback. One op is one switch: the calendar resumes a process, which
// runs until it blocks again, each through one calendar event. cpu-ns/op
// is the process's CPU time per switch.
//
//   - callback: the same event as a self-rescheduling callback, the baseline;
//   - wait: one process in a loop of Wait(1);
//   - signal: two processes taking turns through two Signals;
//   - mailbox: two processes passing a message back and forth;
//   - actor-wait, actor-signal, actor-mailbox: the same as actors.
func BenchmarkProcessSwitch(b *testing.B) {
	b.Run("callback", func(b *testing.B) {
		var c Calendar
		left := b.N
		var fn func()
		fn = func() {
			if left--; left > 0 {
				c.After(1, fn)
			}
		}
		c.At(0, fn)
		procBench(b, &c)
	})
	b.Run("wait", func(b *testing.B) {
		var c Calendar
		defer c.Close()
		c.Spawn("waiter", func(p *Process) {
			for range b.N - 1 {
				p.Wait(1)
			}
		})
		procBench(b, &c)
	})
	b.Run("signal", func(b *testing.B) {
		var c Calendar
		defer c.Close()
		var ping, pong Signal
		c.Spawn("pong", func(p *Process) { // first, so it waits before ping notifies
			for {
				ping.Wait(p)
				pong.Notify()
			}
		})
		c.Spawn("ping", func(p *Process) {
			for range b.N / 2 {
				ping.Notify()
				pong.Wait(p)
			}
		})
		procBench(b, &c)
	})
	b.Run("mailbox", func(b *testing.B) {
		var c Calendar
		defer c.Close()
		var toPing, toPong Mailbox[int]
		c.Spawn("pong", func(p *Process) {
			for {
				toPing.Send(toPong.Receive(p) + 1)
			}
		})
		c.Spawn("ping", func(p *Process) {
			for range b.N / 2 {
				toPong.Send(0)
				toPing.Receive(p)
			}
		})
		procBench(b, &c)
	})
	benchmarkActorSwitch(b)
}

func benchmarkActorSwitch(b *testing.B) {
	b.Run("actor-wait", func(b *testing.B) {
		var c Calendar
		left := b.N
		var wait Turn
		wait = func(a *Actor) {
			if left--; left > 0 {
				a.Wait(1, wait)
			}
		}
		c.SpawnActor("waiter", wait)
		procBench(b, &c)
	})
	b.Run("actor-signal", func(b *testing.B) {
		var c Calendar
		var ping, pong Signal
		var pongTurn, pingTurn Turn
		pongTurn = func(a *Actor) { pong.Notify(); ping.WaitThen(a, pongTurn) }
		left := b.N / 2
		pingTurn = func(a *Actor) {
			if left--; left >= 0 {
				ping.Notify()
				pong.WaitThen(a, pingTurn)
			}
		}
		c.SpawnActor("pong", func(a *Actor) { ping.WaitThen(a, pongTurn) })
		c.SpawnActor("ping", pingTurn)
		procBench(b, &c)
	})
	b.Run("actor-mailbox", func(b *testing.B) {
		var c Calendar
		var toPing, toPong Mailbox[int]
		var pongTurn func(a *Actor, v int)
		pongTurn = func(a *Actor, v int) { toPing.Send(v + 1); toPong.ReceiveThen(a, pongTurn) }
		left := b.N / 2
		var pingTurn func(a *Actor, v int)
		pingTurn = func(a *Actor, v int) {
			if left--; left >= 0 {
				toPong.Send(0)
				toPing.ReceiveThen(a, pingTurn)
			}
		}
		c.SpawnActor("pong", func(a *Actor) { toPong.ReceiveThen(a, pongTurn) })
		c.SpawnActor("ping", func(a *Actor) { pingTurn(a, 0) })
		procBench(b, &c)
	})
}

// procBench runs c to the end as the timed part of b.
func procBench(b *testing.B, c *Calendar) {
	b.ReportAllocs()
	cpu := cputime.Process()
	b.ResetTimer()
	for c.Step() {
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "switches/s")
	b.ReportMetric((cputime.Process()-cpu)*1e9/float64(b.N), "cpu-ns/op")
}

// BenchmarkSleepers is issue 40's comparison with SimGrid's actors
// (scripts/simgrid/actors.cpp): 100 sleepers, each sleeping for Exp(1)
// durations, b.N sleeps in all (b.N/100 each, the first b.N%100 one more),
// written three ways: as self-rescheduling callbacks, as actors and as
// processes. One op is one sleep; cpu-ns/op is the process's CPU time per
// sleep (user and system, GC included). The run, 100 × 10^4
// sleeps, is
//
//	go test ./sim -run '^$' -bench '^BenchmarkSleepers$' -benchtime=1000000x
//
// and scripts/simgrid/actors.sh runs it interleaved with SimGrid's.
func BenchmarkSleepers(b *testing.B) {
	forms := []struct {
		name  string
		spawn func(c *Calendar, rng *rand.Rand, sleeps int)
	}{
		{"callback", func(c *Calendar, rng *rand.Rand, sleeps int) {
			var fn func()
			fn = func() {
				if sleeps--; sleeps > 0 {
					c.After(rng.ExpFloat64(), fn)
				}
			}
			c.After(rng.ExpFloat64(), fn)
		}},
		{"actor", func(c *Calendar, rng *rand.Rand, sleeps int) {
			var sleep Turn
			sleep = func(a *Actor) {
				if sleeps > 0 {
					sleeps--
					a.Wait(rng.ExpFloat64(), sleep)
				}
			}
			c.SpawnActor("sleeper", sleep)
		}},
		{"process", func(c *Calendar, rng *rand.Rand, sleeps int) {
			c.Spawn("sleeper", func(p *Process) {
				for range sleeps {
					p.Wait(rng.ExpFloat64())
				}
			})
		}},
	}
	const sleepers = 100
	for _, form := range forms {
		b.Run(form.name, func(b *testing.B) {
			var c Calendar
			defer c.Close()
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range sleepers {
				if n := b.N/sleepers + bool2int(i < b.N%sleepers); n > 0 {
					form.spawn(&c, rng, n)
				}
			}
			b.ReportAllocs()
			cpu := cputime.Process()
			b.ResetTimer()
			for c.Step() {
			}
			b.StopTimer()
			b.ReportMetric((cputime.Process()-cpu)*1e9/float64(b.N), "cpu-ns/op")
			if c.Now() == 0 {
				b.Fatal("no time passed")
			}
		})
	}
}

func bool2int(v bool) int {
	if v {
		return 1
	}
	return 0
}

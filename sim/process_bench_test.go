package sim

import "testing"

// BenchmarkProcessSwitch measures what a process costs over a callback. One
// op is one switch: the calendar resumes a process, which runs until it
// blocks again, each through one calendar event.
//
//   - callback: the same event as a self-rescheduling callback, the baseline;
//   - wait: one process in a loop of Wait(1);
//   - signal: two processes taking turns through two Signals;
//   - mailbox: two processes passing a message back and forth.
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
}

// procBench runs c to the end as the timed part of b.
func procBench(b *testing.B, c *Calendar) {
	b.ReportAllocs()
	b.ResetTimer()
	for c.Step() {
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "switches/s")
}

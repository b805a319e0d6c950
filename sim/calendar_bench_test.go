package sim

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkCalendar runs 100 self-rescheduling processes of Exp(1) delays,
// the workload issue 2 compares with SimGrid, godes and SimPy. One op is
// one event: b.N events in all, each process running b.N/100 of them (the
// first b.N%100 processes one more). The run, 100 processes ×
// 10,000 events, is
//
//	go test ./sim -run '^$' -bench '^BenchmarkCalendar$' -benchtime=1000000x
func BenchmarkCalendar(b *testing.B) {
	const procs = 100
	var c Calendar
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range procs {
		left := b.N / procs
		if i < b.N%procs {
			left++
		}
		if left == 0 {
			continue
		}
		var fn func()
		fn = func() {
			if left--; left > 0 {
				c.After(rng.ExpFloat64(), fn)
			}
		}
		c.After(rng.ExpFloat64(), fn)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for c.Step() {
		n++
	}
	b.StopTimer()
	if n != b.N {
		b.Fatalf("ran %d events, want %d", n, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkCalendarCancel is BenchmarkCalendar where every event also
// moves another process's pending event (Reschedule, the way a processor
// reschedules its completion when its rate changes): the cost of lazy
// deletion. One op is one event run plus one reschedule.
func BenchmarkCalendarCancel(b *testing.B) {
	const procs = 100
	var c Calendar
	rng := rand.New(rand.NewPCG(1, 2))
	handles := make([]Handle, procs)
	left := b.N
	for i := range procs {
		var fn func()
		fn = func() {
			if left--; left <= 0 {
				return
			}
			handles[i] = c.After(rng.ExpFloat64(), fn)
			j := rng.IntN(procs)
			if h := handles[j]; c.Pending(h) {
				handles[j] = c.Reschedule(h, c.Now()+rng.ExpFloat64())
			}
		}
		handles[i] = c.After(rng.ExpFloat64(), fn)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for left > 0 && c.Step() {
	}
	b.StopTimer()
	c.discard()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

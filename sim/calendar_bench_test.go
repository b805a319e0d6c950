package sim

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkCalendar runs 100 self-rescheduling processes of Exp(1) delays,
// the workload issue 2 compares with SimGrid, godes and SimPy. One op is
// one event.
func BenchmarkCalendar(b *testing.B) {
	const procs = 100
	var c Calendar
	rng := rand.New(rand.NewPCG(1, 2))
	left := b.N
	for range procs {
		var fn func()
		fn = func() {
			if left > 0 {
				left--
				c.After(rng.ExpFloat64(), fn)
			}
		}
		c.After(rng.ExpFloat64(), fn)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for c.Step() {
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

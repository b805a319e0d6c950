package replay

import "github.com/netsched/netsched/sim"

// recorder records the trace as the replay goes: a transfer leaves its
// intervals when it starts (on platforms whose transfers' course is known
// then), a computation when it ends. The intervals are counted in advance
// and written in place, so recording allocates once per replay. The
// trace's lanes name resources even when the trace is not kept.
type recorder struct {
	trace   *sim.Trace
	tracing bool           // the result keeps the trace and its intervals
	ivs     []sim.Interval // the trace's intervals, recorded as the run goes
}

// record writes the next interval of the trace, in place, and returns it;
// nil when the trace is not kept.
func (r *recorder) record(lane int32, kind sim.IntervalKind, start, end float64, a *sim.Action, j int32) *sim.Interval {
	if !r.tracing {
		return nil
	}
	n := len(r.ivs)
	if n == cap(r.ivs) {
		r.ivs = append(r.ivs, sim.Interval{})
	} else {
		r.ivs = r.ivs[:n+1]
	}
	iv := &r.ivs[n]
	iv.Lane, iv.Kind, iv.Start, iv.End = int(lane), kind, start, end
	iv.Amount, iv.Label, iv.Round, iv.Action = a.Amount, a.Label, a.Round, int(j)
	return iv
}

package multicluster

import (
	"fmt"
	"math"
)

// roundViolations checks the additional loads of a round against the
// platform's rules at round time r.T, from the model's rates (not the
// search's formulas): ports, uplinks, work, balances. It returns the worst
// violation relative to T (or to the loads), and what it is.
func roundViolations(m *Model, r *Round) (float64, string) {
	worst, what := 0.0, ""
	note := func(excess, scale float64, format string, args ...any) {
		if rel := excess / max(scale, 1e-300); rel > worst {
			worst, what = rel, fmt.Sprintf(format, args...)
		}
	}
	T := r.T
	interSum := 0.0
	for j, c := range m.Clusters {
		out, in, bal, scale := 0.0, 0.0, 0.0, 0.0
		for i := c.First; i < c.First+c.N; i++ {
			p := &m.Procs[i]
			u, v := r.Intra[i], r.Inter[i]
			sI, rI, sX, rX := max(0, -u), max(0, u), max(0, -v), max(0, v)
			note(c.Beta*sI+m.Beta*sX-T, T, "P%d send port %g > T", i, c.Beta*sI+m.Beta*sX)
			note(c.Beta*rI+m.Beta*rX-T, T, "P%d recv port %g > T", i, c.Beta*rI+m.Beta*rX)
			w := p.X + u + v
			note(-w, p.X+sI+sX+rI+rX, "P%d work %g < 0", i, w)
			capa := T*p.Rate[0] - c.Beta*sI*p.loss(bitIntraSend) - c.Beta*rI*p.loss(bitIntraRecv) -
				m.Beta*sX*p.loss(bitInterSend) - m.Beta*rX*p.loss(bitInterRecv)
			note((w-capa)*p.Gamma, T, "P%d work %g > capacity %g", i, w, capa)
			out += sX
			in += rX
			bal += u
			scale += math.Abs(u) + p.X
			interSum += v
		}
		note(m.Beta*out-T, T, "C%d uplink-out %g > T", j, m.Beta*out)
		note(m.Beta*in-T, T, "C%d uplink-in %g > T", j, m.Beta*in)
		note(math.Abs(bal), scale+T/c.Beta, "C%d intra balance %g", j, bal)
	}
	note(math.Abs(interSum), T/m.Beta, "inter balance %g", interSum)
	return worst, what
}

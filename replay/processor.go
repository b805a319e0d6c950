package replay

import (
	"math"
	"slices"

	"github.com/netsched/netsched/models"
)

// processor is the compute-rate state of one processor (DESIGN.md,
// "Overlap-dependent compute rates"; papers 000 §4.2–4.3, 001 §3.2.2).
//
// The communication kinds active on the processor form a bit mask (bit k
// for the platform's k-th kind: send, recv on a crossbar; intra-send,
// intra-recv, inter-send, inter-recv on a multi-cluster). The compute rate
// of every mask is computed once, by models.Processor.Rate, so a change of
// the active kinds costs a table look-up. Whenever the rate changes the
// work left in every running computation is brought up to date and its
// completion rescheduled; at rate 0 the completion is cancelled until the
// rate rises again.
type processor struct {
	rates  []float64 // compute rate by mask of active kinds
	count  [4]int32  // transfers of each kind in progress
	mask   uint8
	rate   float64 // rates[mask]
	active []int32 // computations in progress (several only in timed replay)
}

// computeState is the progress of a computation on a processor with
// compute rates: the work left as of time t0, and when it will end at the
// current rate (+Inf while suspended). The trace shows a computation as the
// segments during which it runs: seg is when the current one began (-1
// while suspended) and segWork the work left then.
type computeState struct {
	work, t0, endAt float64
	seg, segWork    float64
}

// addProcessors gives the engine compute rates: the rate state of
// processors whose communication kinds are kinds (at most 4), indexed like
// the nodes.
func (e *engine) addProcessors(ps []models.Processor, kinds []string) {
	e.rated = true
	perProc := 1 << len(kinds)
	all := make([]float64, len(ps)*perProc) // every processor's rates, in one array
	active := make([]string, 0, len(kinds))
	for i := range ps {
		rates := all[i*perProc : (i+1)*perProc : (i+1)*perProc]
		for m := range rates {
			active = active[:0]
			for k, kind := range kinds {
				if m&(1<<k) != 0 {
					active = append(active, kind)
				}
			}
			rates[m] = ps[i].Rate(active)
		}
		e.procs = append(e.procs, processor{rates: rates, rate: rates[0]})
	}
	e.prepareComputes()
}

// prepareComputes makes room for the progress of every computation, when
// the schedule has any: comp is empty otherwise (a reused engine keeps its
// memory).
func (e *engine) prepareComputes() {
	if e.computes > 0 {
		e.comp = resize(e.comp, len(e.acts))
	}
}

// setKind adds delta transfers of kind bit on processor node at the
// current time and updates the compute rate if the set of active kinds
// changed.
func (e *engine) setKind(node int, bit uint8, delta int32) {
	pr := &e.procs[node]
	pr.count[bit] += delta
	mask := pr.mask &^ (1 << bit)
	if pr.count[bit] > 0 {
		mask |= 1 << bit
	}
	if mask == pr.mask {
		return
	}
	pr.mask = mask
	e.setRate(pr, pr.rates[mask])
}

// setRate gives processor pr the compute rate rate from now on: every
// computation on it is brought up to date and its end rescheduled.
func (e *engine) setRate(pr *processor, rate float64) {
	if rate == pr.rate {
		return
	}
	now := e.cal.Now()
	for _, j := range pr.active {
		if e.dueNow(j, now) {
			continue
		}
		c := &e.comp[j]
		c.work = max(0, c.work-pr.rate*(now-c.t0))
		c.t0 = now
		e.segment(j, rate, now)
		e.scheduleCompletion(j, rate)
	}
	pr.rate = rate
}

// segment ends computation j's running segment in the trace when its rate
// drops to 0, and starts a new one when it rises from 0.
func (e *engine) segment(j int32, rate, now float64) {
	c := &e.comp[j]
	switch {
	case rate > 0 && c.seg < 0:
		c.seg, c.segWork = now, c.work
	case !(rate > 0) && c.seg >= 0:
		e.recordCompute(j, c.seg, now, c.segWork-c.work)
		c.seg = -1
	}
}

// dueNow reports whether computation j completes now (within the time
// tolerance): a rate change at the same instant, from an event that merely
// ran first, must not hold it back.
func (e *engine) dueNow(j int32, now float64) bool {
	return e.comp[j].endAt <= now+timeTol(now)
}

// startCompute starts computation j on its processor at the current time.
func (e *engine) startCompute(j int32) {
	pr := &e.procs[e.s.Actions[j].Node]
	now, work := e.cal.Now(), e.s.Actions[j].Amount
	e.comp[j] = computeState{work: work, t0: now, seg: -1}
	e.segment(j, pr.rate, now)
	pr.active = append(pr.active, j)
	e.scheduleCompletion(j, pr.rate)
}

// stopCompute removes the finished computation j from its processor.
func (e *engine) stopCompute(j int32) {
	pr := &e.procs[e.s.Actions[j].Node]
	if k := slices.Index(pr.active, j); k >= 0 {
		pr.active = slices.Delete(pr.active, k, k+1)
	}
}

// scheduleCompletion (re)schedules the end of computation j, whose work
// was brought up to date at t0, for the given rate; rate 0 suspends it.
func (e *engine) scheduleCompletion(j int32, rate float64) {
	c := &e.comp[j]
	if c.work > 0 && !(rate > 0) {
		e.cancel(j)
		c.endAt = math.Inf(1)
		return
	}
	c.endAt = c.t0
	if c.work > 0 {
		c.endAt += c.work / rate
	}
	e.schedule(j, c.endAt, phaseEnd)
}

// setSteadyRate gives the steady processor of node, whose rate does not
// depend on communication, the compute rate r from now on.
func (e *engine) setSteadyRate(node int, r float64) {
	pr := &e.procs[node]
	for m := range pr.rates {
		pr.rates[m] = r
	}
	e.setRate(pr, r)
}

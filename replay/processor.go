package replay

import (
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
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

// rates is the compute model of the platforms whose processors have
// compute rates (crossbar, multi-cluster, workstations): the rate state of
// each processor, indexed by node, and the progress of each computation
// (empty if the schedule has none).
type rates struct {
	e     *engine
	procs []processor
	comp  []computeState
}

// reuse empties r for the replay of e, keeping its memory.
func (r *rates) reuse(e *engine) { r.e, r.procs, r.comp = e, r.procs[:0], r.comp[:0] }

// addProcessors adds the rate state of processors whose communication
// kinds are kinds (at most 4), indexed like the nodes.
func (r *rates) addProcessors(ps []models.Processor, kinds []string) {
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
		r.procs = append(r.procs, processor{rates: rates, rate: rates[0]})
	}
	r.prepare()
}

// addSteady adds, for the next node, a processor whose compute rate does
// not depend on communication: rate, until setSteadyRate changes it.
func (r *rates) addSteady(rate float64) {
	if len(r.procs) == 0 {
		r.prepare()
	}
	r.procs = append(r.procs, processor{rates: []float64{rate, rate}, rate: rate})
}

// prepare makes room for the progress of every computation, when the
// schedule has any: comp is empty otherwise (a reused engine keeps its
// memory).
func (r *rates) prepare() {
	if r.e.computes > 0 {
		r.comp = resize(r.comp, len(r.e.acts))
	}
}

// transfer counts transfer j's kinds on the processors at its ends.
func (r *rates) transfer(j int32, delta int32) {
	if len(r.comp) == 0 { // rates matter only to computations
		return
	}
	a, st := &r.e.s.Actions[j], &r.e.acts[j]
	r.setKind(a.From, st.sendBit, delta)
	r.setKind(a.To, st.recvBit, delta)
}

// setKind adds delta transfers of kind bit on processor node at the
// current time and updates the compute rate if the set of active kinds
// changed.
func (r *rates) setKind(node int, bit uint8, delta int32) {
	pr := &r.procs[node]
	pr.count[bit] += delta
	mask := pr.mask &^ (1 << bit)
	if pr.count[bit] > 0 {
		mask |= 1 << bit
	}
	if mask == pr.mask {
		return
	}
	pr.mask = mask
	r.setRate(pr, pr.rates[mask])
}

// setRate gives processor pr the compute rate rate from now on: every
// computation on it is brought up to date and its end rescheduled.
func (r *rates) setRate(pr *processor, rate float64) {
	if rate == pr.rate {
		return
	}
	now := r.e.cal.Now()
	for _, j := range pr.active {
		if r.dueNow(j, now) {
			continue
		}
		c := &r.comp[j]
		c.work = max(0, c.work-pr.rate*(now-c.t0))
		c.t0 = now
		r.segment(j, rate, now)
		r.scheduleCompletion(j, rate)
	}
	pr.rate = rate
}

// segment ends computation j's running segment in the trace when its rate
// drops to 0, and starts a new one when it rises from 0.
func (r *rates) segment(j int32, rate, now float64) {
	c := &r.comp[j]
	switch {
	case rate > 0 && c.seg < 0:
		c.seg, c.segWork = now, c.work
	case !(rate > 0) && c.seg >= 0:
		r.record(j, c.seg, now, c.segWork-c.work)
		c.seg = -1
	}
}

// record writes one running segment of computation j, during which it did
// amount units of work.
func (r *rates) record(j int32, start, end, amount float64) {
	e := r.e
	a := &e.s.Actions[j]
	if iv := e.rec.record(e.lane(a.Node), sim.KindCompute, start, end, a, j); iv != nil {
		iv.Amount = amount
	}
}

// dueNow reports whether computation j completes now (within the time
// tolerance): a rate change at the same instant, from an event that merely
// ran first, must not hold it back.
func (r *rates) dueNow(j int32, now float64) bool {
	return r.comp[j].endAt <= now+timeTol(now)
}

// start starts computation j on its processor at the current time.
func (r *rates) start(j int32) {
	pr := &r.procs[r.e.s.Actions[j].Node]
	now, work := r.e.cal.Now(), r.e.s.Actions[j].Amount
	r.comp[j] = computeState{work: work, t0: now, seg: -1}
	r.segment(j, pr.rate, now)
	pr.active = append(pr.active, j)
	r.scheduleCompletion(j, pr.rate)
}

// end removes the finished computation j from its processor and records
// its last segment.
func (r *rates) end(j int32) {
	pr := &r.procs[r.e.s.Actions[j].Node]
	if k := slices.Index(pr.active, j); k >= 0 {
		pr.active = slices.Delete(pr.active, k, k+1)
	}
	if c := &r.comp[j]; c.seg >= 0 {
		r.record(j, c.seg, r.e.cal.Now(), c.segWork)
	}
}

func (r *rates) endAt(j int32) float64 { return r.comp[j].endAt }

func (r *rates) stuck(j int32) string {
	return fmt.Sprintf("compute rate 0 forever with %g units of work left", r.comp[j].work)
}

// scheduleCompletion (re)schedules the end of computation j, whose work
// was brought up to date at t0, for the given rate; rate 0 suspends it.
func (r *rates) scheduleCompletion(j int32, rate float64) {
	c := &r.comp[j]
	if c.work > 0 && !(rate > 0) {
		r.e.cancel(j)
		c.endAt = math.Inf(1)
		return
	}
	c.endAt = c.t0
	if c.work > 0 {
		c.endAt += c.work / rate
	}
	r.e.schedule(j, c.endAt, phaseEnd)
}

// setSteadyRate gives the steady processor of node, whose rate does not
// depend on communication, the compute rate rate from now on.
func (r *rates) setSteadyRate(node int, rate float64) {
	pr := &r.procs[node]
	for m := range pr.rates {
		pr.rates[m] = rate
	}
	r.setRate(pr, rate)
}

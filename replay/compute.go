package replay

import "github.com/netsched/netsched/sim"

// A computeModel runs the computations of a replay once they start: when
// each ends and what the trace shows of it. A platform that gives the
// replay no compute rates gets fixedComputes; one that does (AddProcessors,
// AddSteadyProcessor) gets rates.
type computeModel interface {
	// start starts computation j now and schedules its end with
	// engine.schedule (phaseEnd), if it has one.
	start(j int32)
	// end ends computation j now.
	end(j int32)
	// endAt is when computation j, which has started, ends or is expected
	// to end (+Inf while it is suspended).
	endAt(j int32) float64
	// transfer tells the model that transfer j started (delta 1) or ended
	// (delta −1): compute rates may depend on the transfers in progress.
	transfer(j int32, delta int32)
	// stuck says why computation j, still running when the replay ran dry,
	// never ends.
	stuck(j int32) string
}

// fixedComputes runs every computation for its Amount as time.
type fixedComputes struct{ e *engine }

func (f fixedComputes) start(j int32) {
	e := f.e
	e.schedule(j, e.starts[j]+e.s.Actions[j].Amount, phaseEnd)
}

func (f fixedComputes) end(j int32) {
	e := f.e
	a := &e.s.Actions[j]
	e.rec.record(e.lane(a.Node), sim.KindCompute, e.starts[j], e.cal.Now(), a, j)
}

func (f fixedComputes) endAt(j int32) float64 { return f.e.starts[j] + f.e.s.Actions[j].Amount }

func (f fixedComputes) transfer(int32, int32) {}

func (f fixedComputes) stuck(int32) string { return "never ends" }

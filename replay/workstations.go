package replay

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// workstationsModel replays on the workstation cluster of paper 003: a
// computation of w units on processor i runs at Speed_i·(1 − share_i(t)),
// its rate changing at every step of the processor's external load
// profile, so it takes the e − s with ∫_s^e Speed_i·(1 − share_i(t)) dt =
// w; a processor runs one computation at a time. A transfer is a task
// migration: Amount is the number n of tasks moved, and it takes Latency +
// n·PerTask. Paper 003 says nothing of the network, so transfers hold no
// port and do not contend, and computing does not slow down while a
// processor communicates (its communication is another thread's, §2.1).
type workstationsModel struct{ p *models.Platform }

func (m workstationsModel) checkAction(i int, a *sim.Action) error {
	n := len(m.p.Workstations.Processors)
	if a.Kind == sim.Compute {
		return checkNode(i, "node", a.Node, n)
	}
	return checkTransferEnds(i, a, n)
}

func (m workstationsModel) build(e *engine) {
	w := m.p.Workstations
	n := len(w.Processors)
	addNodeLanes(e, m.p, n)
	addProcessorPorts(e, n)
	e.rated = true
	for i := range n {
		speed, load := w.Processors[i].Speed, w.Load(i)
		r := speed * (1 - load[0].Share)
		// A transfer marks kind bit 0 active at both its ends (bindKinds is
		// not called): both masks have the same rate, so it changes nothing.
		e.procs = append(e.procs, processor{rates: []float64{r, r}, rate: r})
		for _, step := range load[1:] {
			e.cal.At(step.At, func() { e.setLoadRate(i, speed*(1-step.Share)) })
		}
	}
	e.prepareComputes()
	for j := range e.s.Actions {
		a := &e.s.Actions[j]
		if a.Kind == sim.Compute {
			e.bindCompute(j, int32(a.Node))
			continue
		}
		e.bindTransfer(j, w.MigrationTime(a.Amount))
	}
}

// setLoadRate gives workstation i the compute rate r from now on, when its
// external load share changes.
func (e *engine) setLoadRate(i int, r float64) {
	pr := &e.procs[i]
	pr.rates[0], pr.rates[1] = r, r
	e.setRate(pr, r)
}

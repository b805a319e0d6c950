package replay

import (
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// workstations replays on the workstation cluster of paper 003: a
// computation of w units on processor i runs at Speed_i·(1 − share_i(t)),
// its rate changing at every step of the processor's external load
// profile, so it takes the e − s with ∫_s^e Speed_i·(1 − share_i(t)) dt =
// w; a processor runs one computation at a time. A transfer is a task
// migration: Amount is the number n of tasks moved, and it takes Latency +
// n·PerTask. Paper 003 says nothing of the network, so transfers hold no
// port and do not contend, and computing does not slow down while a
// processor communicates (its communication is another thread's, §2.1).
type workstations struct{ p *models.Platform }

func (m workstations) CheckAction(i int, a *sim.Action) error {
	return checkOnNodes(i, a, len(m.p.Workstations.Processors))
}

func (m workstations) Build(b *Builder) {
	w := m.p.Workstations
	n := len(w.Processors)
	b.AddNodeLanes(m.p, n)
	b.AddProcessorPorts(n)
	for i := range n {
		speed, load := w.Processors[i].Speed, w.Load(i)
		b.AddSteadyProcessor(speed * (1 - load[0].Share))
		for _, step := range load[1:] {
			b.SetRateAt(step.At, i, speed*(1-step.Share))
		}
	}
	actions := b.Actions()
	for j := range actions {
		a := &actions[j]
		if a.Kind == sim.Compute {
			b.BindCompute(j, Port(a.Node))
			continue
		}
		b.BindTransfer(j, w.MigrationTime(a.Amount))
	}
}

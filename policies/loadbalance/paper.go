package loadbalance

import (
	"github.com/netsched/netsched/models"
)

// The paper's experiment (§3.1) as ../shared/papers/README.md decides it.
const (
	PaperProcessors = 7
	PaperTasks      = 100  // own tasks per processor
	PaperShare      = 0.65 // external load on P1, P3, P6
	// PaperWork is the work of a task at speed 1: 0.45 s on an unloaded
	// processor, as Table 1 shows it on P4 and P5, which hardly exchange
	// tasks (45.68 s for 101 tasks, 46.13 s for 102): "about 0.5 s".
	PaperWork     = 0.45
	PaperInterval = 1.0   // Power measurement interval (s)
	PaperLatency  = 0.001 // message latency (s): the paper gives no network figures
	PaperPerTask  = 0.001 // transfer time per migrated task (s)
)

// PaperLoaded are the processors under external load in paper 003 §3.1.
var PaperLoaded = []int{1, 3, 6}

// PaperInstance returns paper 003's experiment: seven processors of speed
// 1 on a binary tree (P0 the root, P1 and P2 its children, P3 and P4 under
// P1, P5 and P6 under P2), P1, P3 and P6 under the load profile "busy" of
// share PaperShare, 100 tasks of PaperWork each, Power measured every
// second.
func PaperInstance() (*models.Platform, *models.Problem) {
	ps := make([]models.Workstation, PaperProcessors)
	for i := range ps {
		ps[i].Speed = 1
	}
	for _, i := range PaperLoaded {
		ps[i].Profile = "busy"
	}
	pl := &models.Platform{Workstations: &models.Workstations{
		Processors: ps, Topology: models.TopologyTree,
		Profiles: []models.LoadProfile{{Name: "busy", Share: PaperShare}},
		Latency:  PaperLatency, PerTask: PaperPerTask,
	}}
	pr := &models.Problem{Balance: &models.Balance{Tasks: PaperTasks, Work: PaperWork, Interval: PaperInterval}}
	return pl, pr
}

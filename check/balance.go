package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// PoolTaskLabel is the label of the compute action that runs the k-th task
// (from 0) of the processor named processor, in a load-balancing schedule
// (paper 003): "P3/17".
func PoolTaskLabel(processor string, k int) string { return processor + "/" + strconv.Itoa(k) }

// pool is the task pool of one check: where each task belongs, and the
// action that runs it.
type pool struct {
	in    *input
	ws    *models.Workstations
	tp    *models.Balance
	first []int // by processor: index of its first task in ranBy
	ranBy []int // by task: the action that runs it, or NoAction
}

// checkBalance checks a realised load-balancing schedule: every task of
// the pool is computed by exactly one action, for the pool's work, and
// nothing else is; a task that never moved runs on the processor it
// belongs to; a migrated task follows exactly one transfer (its After
// list), from the processor it belongs to (a task migrates at most once)
// to the one that runs it, and starts once that transfer has arrived;
// every transfer carries as many tasks as follow it.
func checkBalance(in *input, tp *models.Balance) error {
	ws := in.p.Workstations
	if ws == nil {
		return fmt.Errorf("check: a balance problem runs on a workstations platform, not %q", in.p.Kind())
	}
	pl := &pool{in: in, ws: ws, tp: tp, first: make([]int, len(ws.Processors)+1)}
	for i := range ws.Processors {
		pl.first[i+1] = pl.first[i] + tp.Count(i)
	}
	pl.ranBy = resize(nil, pl.first[len(ws.Processors)], NoAction)
	carried := make(map[int]int) // transfer → tasks that follow it
	for j := range in.s.Actions {
		if a := &in.s.Actions[j]; a.Kind == sim.Compute {
			if via, ok := pl.computed(j, a); ok {
				carried[via]++
			}
		}
	}
	pl.missing()
	for j := range in.s.Actions {
		if a := &in.s.Actions[j]; a.Kind == sim.Transfer && float64(carried[j]) != a.Amount {
			in.violate(BadMigration, j, ws.Name(a.From)+"→"+ws.Name(a.To), in.starts[j],
				"carries %g tasks, but %d tasks follow it", a.Amount, carried[j])
		}
	}
	return nil
}

// task finds the task a label names: its processor and its index in
// ranBy.
func (pl *pool) task(label string) (origin, k int, ok bool) {
	name, num, found := strings.Cut(label, "/")
	if !found {
		return 0, 0, false
	}
	origin, ok = pl.ws.NodeIndex(name)
	k, err := strconv.Atoi(num)
	if !ok || err != nil || k < 0 || k >= pl.tp.Count(origin) || PoolTaskLabel(pl.ws.Name(origin), k) != label {
		return 0, 0, false
	}
	return origin, pl.first[origin] + k, true
}

// computed checks compute action j and returns the transfer that brought
// its task, if it migrated.
func (pl *pool) computed(j int, a *sim.Action) (via int, migrated bool) {
	in := pl.in
	origin, k, ok := pl.task(a.Label)
	switch {
	case !ok:
		in.violate(UnknownTask, j, a.Label, in.starts[j], "computes %q, which is not a task of the pool", a.Label)
		return 0, false
	case pl.ranBy[k] != NoAction:
		in.violate(TaskRepeated, j, a.Label, in.starts[j], "task %s is processed twice, by actions %d and %d", a.Label, pl.ranBy[k], j)
		return 0, false
	}
	pl.ranBy[k] = j
	if lo, hi := pl.tp.Work*(1-pl.tp.Jitter), pl.tp.Work*(1+pl.tp.Jitter); a.Amount < lo*(1-amountTol) || a.Amount > hi*(1+amountTol) {
		in.violate(TaskAmount, j, a.Label, in.starts[j], "task %s computes %g units of work, not in [%g, %g]", a.Label, a.Amount, lo, hi)
	}
	return pl.moved(j, a, origin)
}

// moved checks where compute action j, of a task that belongs to
// processor origin, runs and how it got there.
func (pl *pool) moved(j int, a *sim.Action, origin int) (via int, migrated bool) {
	in, ws := pl.in, pl.ws
	if len(a.After) == 0 {
		if a.Node != origin {
			in.violate(BadMigration, j, a.Label, in.starts[j], "task %s of %s runs on %s without a migration", a.Label, ws.Name(origin), ws.Name(a.Node))
		}
		return 0, false
	}
	via = a.After[0]
	if len(a.After) != 1 || in.s.Actions[via].Kind != sim.Transfer {
		in.violate(BadMigration, j, a.Label, in.starts[j], "task %s must follow exactly the one transfer that brought it", a.Label)
		return 0, false
	}
	if tr := &in.s.Actions[via]; tr.From != origin || tr.To != a.Node {
		in.violate(BadMigration, j, a.Label, in.starts[j], "task %s of %s runs on %s after transfer %d from %s to %s",
			a.Label, ws.Name(origin), ws.Name(a.Node), via, ws.Name(tr.From), ws.Name(tr.To))
	}
	if arrive := in.ends[via]; !math.IsInf(in.starts[j], 1) && !before(arrive, in.starts[j]) {
		in.violate(NotHeld, j, a.Label, in.starts[j], "task %s starts on %s at %g, before transfer %d brings it at %g",
			a.Label, ws.Name(a.Node), in.starts[j], via, arrive)
	}
	return via, true
}

// missing reports the tasks no action runs.
func (pl *pool) missing() {
	for i := range pl.ws.Processors {
		for k := range pl.tp.Count(i) {
			if pl.ranBy[pl.first[i]+k] == NoAction {
				label := PoolTaskLabel(pl.ws.Name(i), k)
				pl.in.violate(TaskMissing, NoAction, label, pl.in.atEnd(), "task %s is never processed", label)
			}
		}
	}
}

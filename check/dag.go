package check

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// dagMemory is what the task-graph check keeps from one check to the
// next: the action that computes each task, and the index of each task
// name of the last graph checked.
type dagMemory struct {
	action []int // by task: the action computing it, or NoAction
	names  taskIndex
	data   dataMemory
}

// check checks that the schedule computes every task of g exactly once,
// for its weight, and nothing else, and that every edge of g is respected:
// a task starts once its predecessor has ended and, on the delay
// platform, ρ later when the two ran on different processors; on a
// crossbar or multi-cluster, once the edge's data has been carried to it
// (dataMemory.check).
func (m *dagMemory) check(in *input, g *models.DAG) error {
	m.action = resize(m.action, len(g.Tasks), NoAction)
	if err := m.names.index(g); err != nil {
		return err
	}
	m.names.guessFor(in.s)
	total := 0.0
	for _, t := range g.Tasks {
		total += t.Weight
	}
	for j := range in.s.Actions {
		if a := &in.s.Actions[j]; a.Kind == sim.Compute {
			m.computed(in, g, j, a, total)
		}
	}
	for v, j := range m.action {
		if j == NoAction {
			in.violate(TaskMissing, NoAction, g.TaskName(v), in.atEnd(),
				"task %s (weight %g) is never computed", g.TaskName(v), g.Tasks[v].Weight)
		}
	}
	rho := 0.0
	if in.p.Delay != nil {
		rho = in.p.Delay.Rho
	}
	for _, e := range g.Edges {
		m.edge(in, g, e, rho)
	}
	if hasNetwork(in.p) {
		m.data.check(in, g, m)
	}
	return m.names.err
}

// computed checks compute action j, of a: the task it computes.
func (m *dagMemory) computed(in *input, g *models.DAG, j int, a *sim.Action, total float64) {
	v, ok := m.names.lookupAt(g, j, a.Label)
	switch {
	case !ok:
		in.violate(UnknownTask, j, a.Label, in.starts[j],
			"computes %q, which is no task of the graph (a computation is labelled with its task's name)", a.Label)
		return
	case m.action[v] != NoAction:
		in.violate(TaskRepeated, j, g.TaskName(v), in.starts[j],
			"task %s is computed again (first by action %d)", g.TaskName(v), m.action[v])
		return
	}
	m.action[v] = j
	if w := g.Tasks[v].Weight; !same(a.Amount, w, total) {
		in.violate(TaskAmount, j, g.TaskName(v), in.starts[j],
			"task %s computes %g units of its weight %g", g.TaskName(v), a.Amount, w)
	}
}

// edge checks that the task at the head of e started once the data of the
// task at its tail could be there.
func (m *dagMemory) edge(in *input, g *models.DAG, e models.DAGEdge, rho float64) {
	ju, jv := m.action[e.From], m.action[e.To]
	if ju == NoAction || jv == NoAction {
		return // reported as missing
	}
	ready := in.ends[ju]
	if in.s.Actions[ju].Node != in.s.Actions[jv].Node {
		ready += rho
	}
	if start := in.starts[jv]; !math.IsInf(start, 1) && !before(ready, start) {
		in.violate(EdgeLate, jv, g.TaskName(e.From)+"→"+g.TaskName(e.To), start,
			"task %s starts at %g, before the data of %s (action %d) is there at %g",
			g.TaskName(e.To), start, g.TaskName(e.From), ju, ready)
	}
}

// taskIndex maps task names to task indices. It is made again only when
// the graph's names change, so that a sweep over a parameter of the
// platform, whose points share one graph, makes it once.
type taskIndex struct {
	tasks  []models.Task // the graph's tasks it was made for
	byName map[string]int
	fresh  bool  // made for this check
	err    error // of a rebuild within this check

	// The task each action of a policy's last schedule computed, by
	// policy: a sweep runs the same policies point after point, and their
	// schedules list the tasks in the same order, so a guess checked by
	// one comparison of names spares most lookups in byName.
	byPolicy map[string][]int32
	guess    []int32 // this check's
}

// maxGuesses bounds the policies whose last schedule is remembered.
const maxGuesses = 64

// guessFor takes the guesses of the policy of s, as long as its actions.
func (x *taskIndex) guessFor(s *sim.Schedule) {
	if x.byPolicy == nil || len(x.byPolicy) >= maxGuesses {
		x.byPolicy = make(map[string][]int32)
	}
	g := x.byPolicy[s.Policy]
	if len(g) != len(s.Actions) {
		g = resize(g, len(s.Actions), -1)
		x.byPolicy[s.Policy] = g
	}
	x.guess = g
}

// lookupAt is lookup for action j, whose task is first guessed from the
// policy's last schedule.
func (x *taskIndex) lookupAt(g *models.DAG, j int, name string) (int, bool) {
	if v := int(x.guess[j]); v >= 0 && v < len(g.Tasks) && g.TaskName(v) == name {
		return v, true
	}
	v, ok := x.lookup(g, name)
	if ok {
		x.guess[j] = int32(v)
	}
	return v, ok
}

// index prepares the names of g, which must be unique: a schedule names
// the tasks it computes.
func (x *taskIndex) index(g *models.DAG) error {
	x.fresh, x.err = false, nil
	if len(x.tasks) == len(g.Tasks) && (len(g.Tasks) == 0 || &x.tasks[0] == &g.Tasks[0]) {
		return nil // the same task list; lookup notices a renamed task
	}
	return x.rebuild(g)
}

func (x *taskIndex) rebuild(g *models.DAG) error {
	x.tasks, x.fresh = g.Tasks, true
	if x.byName == nil {
		x.byName = make(map[string]int, len(g.Tasks))
	}
	clear(x.byName)
	for v := range g.Tasks {
		name := g.TaskName(v)
		if u, dup := x.byName[name]; dup {
			x.tasks = nil
			return fmt.Errorf("check: tasks %d and %d are both named %q: a schedule names the tasks it computes, so names must be unique", u, v, name)
		}
		x.byName[name] = v
	}
	return nil
}

// lookup finds the task named name. An index made for an earlier check is
// trusted only while it agrees with g: a name found must still be its
// task's, and a name not found is looked up again in an index made anew,
// in case the task list was renamed in place.
func (x *taskIndex) lookup(g *models.DAG, name string) (int, bool) {
	v, ok := x.byName[name]
	if (ok && g.TaskName(v) == name) || (!ok && x.fresh) {
		return v, ok
	}
	if err := x.rebuild(g); err != nil {
		x.err = err // renamed in place since index, into two equal names
		return 0, false
	}
	v, ok = x.byName[name]
	return v, ok
}

// resize returns b with length n, every element set to fill, in b's memory
// if it fits.
func resize[T any](b []T, n int, fill T) []T {
	if cap(b) < n {
		b = make([]T, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = fill
	}
	return b
}

package heft

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

func init() {
	platforms := []string{models.KindCrossbar, models.KindMultiCluster, models.KindNetwork}
	// Topcuoglu, Hariri and Wu 2002, §2: "computation can be overlapped with communication".
	assumes := []policies.Assumption{policies.AssumeOverlap.From("Topcuoglu, Hariri and Wu 2002, §2")}
	policies.Register(policies.Entry{Name: "heft", Family: models.FamilyDAG, Platforms: platforms, Assumes: assumes,
		Planner: policies.PlannerFunc(planner(HEFT)),
		Doc:     "HEFT (Topcuoglu–Hariri–Wu 2002): by upward rank, each task at its earliest finish with insertion, transfers booked on ports and uplinks"})
	policies.Register(policies.Entry{Name: "cpop", Family: models.FamilyDAG, Platforms: platforms, Assumes: assumes,
		Planner: policies.PlannerFunc(planner(CPOP)),
		Doc:     "CPOP (Topcuoglu–Hariri–Wu 2002): the critical path on its fastest processor, the rest at their earliest finish, with insertion"})
}

func planner(alg Algorithm) policies.PlannerFunc {
	return func(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
		return Plan(ctx, in.Platform, in.Problem.DAG, alg, in.Recycle)
	}
}

// Plan schedules the task graph g on platform pl, a crossbar or a
// multi-cluster, with alg; the schedule is built in the memory of
// recycle (sim.Recycled), which may be nil.
func Plan(ctx context.Context, pl *models.Platform, g *models.DAG, alg Algorithm, recycle *sim.Schedule) (*sim.Schedule, error) {
	return plan(ctx, pl, g, alg, nil, alg.String(), recycle)
}

// PlanMapped schedules the task graph g on platform pl, a crossbar or a
// multi-cluster, with every task v on processor proc[v]: the ready task
// of highest rank_u first, each with insertion after its data, which is
// booked on the ports as HEFT books it. The schedule is the policy
// name's.
func PlanMapped(ctx context.Context, pl *models.Platform, g *models.DAG, proc []int, name string, recycle *sim.Schedule) (*sim.Schedule, error) {
	if len(proc) != len(g.Tasks) {
		return nil, fmt.Errorf("%s: %d processors for %d tasks", name, len(proc), len(g.Tasks))
	}
	n := pl.NumNodes()
	for v, p := range proc {
		if p < 0 || p >= n {
			return nil, fmt.Errorf("%s: task %s on processor %d, but the platform has %d", name, g.TaskName(v), p, n)
		}
	}
	return PlanConstrained(ctx, pl, g, Constraints{Allowed: func(v int) []int { return proc[v : v+1] }}, name, recycle)
}

// PlanConstrained schedules the task graph g on platform pl, a crossbar
// or a multi-cluster, as HEFT does within the constraints c. The
// processors c allows must be nodes of pl, at least one per task.
func PlanConstrained(ctx context.Context, pl *models.Platform, g *models.DAG, c Constraints, name string, recycle *sim.Schedule) (*sim.Schedule, error) {
	if c.Allowed != nil {
		n := pl.NumNodes()
		for v := range g.Tasks {
			ps := c.Allowed(v)
			if len(ps) == 0 {
				return nil, fmt.Errorf("%s: no processor allowed for task %s", name, g.TaskName(v))
			}
			for _, p := range ps {
				if p < 0 || p >= n {
					return nil, fmt.Errorf("%s: task %s allowed on processor %d, but the platform has %d", name, g.TaskName(v), p, n)
				}
			}
		}
	}
	return plan(ctx, pl, g, HEFT, &c, name, recycle)
}

func plan(ctx context.Context, pl *models.Platform, g *models.DAG, alg Algorithm, c *Constraints, name string, recycle *sim.Schedule) (*sim.Schedule, error) {
	if pl.Crossbar == nil && pl.MultiCluster == nil && pl.Network == nil {
		return nil, fmt.Errorf("%s: runs on a crossbar, multicluster or network platform, not %q", name, pl.Kind())
	}
	gr, err := newGraph(g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := newNetwork(gr, g, pl)
	if err := run(ctx, gr, m, alg, c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := m.schedule(g, name, recycle)
	s.Metrics = map[string]float64{"transfers": float64(len(m.xfers))}
	return s, nil
}

// MeanCosts are the averages HEFT ranks tasks by, on platform pl (a
// crossbar or a multi-cluster): the mean time per unit γ̄ of its
// processors, and the mean communication time c̄(data) = α + data·β̄ of
// data between two distinct processors (0 for no data or one processor).
func MeanCosts(pl *models.Platform) (meanGamma float64, meanComm func(data float64) float64) {
	m := newNetwork(&graph{}, &models.DAG{}, pl)
	return m.meanGamma, m.meanComm
}

// schedule writes the placement as a schedule, actions in the order of
// their planned starts (so that ordered replay serves each resource in
// the planned order): a computation per task labelled with its name,
// after its parents on its processor and its incoming transfers; a
// transfer per edge between processors labelled with the edge
// (models.DAG.EdgeLabel), after the computation of its tail.
func (m *network) schedule(g *models.DAG, name string, recycle *sim.Schedule) *sim.Schedule {
	n, nx := m.g.n, len(m.xfers)
	// item k < n is task k's computation, n+i is transfer i.
	items := make([]int, n+nx)
	for k := range items {
		items[k] = k
	}
	startOf := func(k int) float64 {
		if k < n {
			return m.start[k]
		}
		return m.xfers[k-n].start
	}
	endOf := func(k int) float64 {
		if k < n {
			return m.finish[k]
		}
		x := &m.xfers[k-n]
		return x.start + x.d
	}
	slices.SortStableFunc(items, func(a, b int) int {
		if c := cmp.Compare(startOf(a), startOf(b)); c != 0 {
			return c
		}
		return cmp.Compare(endOf(a), endOf(b))
	})
	index := make([]int, n+nx) // item → action
	for j, k := range items {
		index[k] = j
	}
	into := make([][]int, n) // by task: its incoming transfers' items
	for i, x := range m.xfers {
		into[x.v] = append(into[x.v], n+i)
	}
	s := sim.Recycled(recycle, n+nx)
	s.Policy = name
	times := s.Floats(2 * (n + nx))
	for j, k := range items {
		st, en := &times[2*j], &times[2*j+1]
		*st, *en = startOf(k), endOf(k)
		s.Claimed = max(s.Claimed, *en)
		if k >= n {
			x := &m.xfers[k-n]
			s.Add(sim.Action{Kind: sim.Transfer, From: x.from, To: x.to, Amount: x.data, Start: st, End: en,
				After: []int{index[x.u]}, Label: g.EdgeLabel(models.DAGEdge{From: x.u, To: x.v})})
			continue
		}
		v := k
		var after []int
		for _, u := range m.g.parents(v) {
			if m.proc[u.task] == m.proc[v] || u.data == 0 {
				after = append(after, index[u.task])
			}
		}
		for _, t := range into[v] {
			after = append(after, index[t])
		}
		s.Add(sim.Action{Kind: sim.Compute, Node: m.proc[v], Amount: m.weight[v], Start: st, End: en,
			After: after, Label: g.TaskName(v)})
	}
	return s
}

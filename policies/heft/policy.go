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
	platforms := []string{models.KindCrossbar, models.KindMultiCluster}
	policies.Register(policies.Entry{Name: "heft", Family: models.FamilyDAG, Platforms: platforms,
		Planner: policies.PlannerFunc(planner(HEFT)),
		Doc:     "HEFT (Topcuoglu–Hariri–Wu 2002): by upward rank, each task at its earliest finish with insertion, transfers booked on ports and uplinks"})
	policies.Register(policies.Entry{Name: "cpop", Family: models.FamilyDAG, Platforms: platforms,
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
	if pl.Crossbar == nil && pl.MultiCluster == nil {
		return nil, fmt.Errorf("%v: runs on a crossbar or multicluster platform, not %q", alg, pl.Kind())
	}
	gr, err := newGraph(g)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", alg, err)
	}
	m := newNetwork(gr, g, pl)
	if err := run(ctx, gr, m, alg); err != nil {
		return nil, fmt.Errorf("%v: %w", alg, err)
	}
	s := m.schedule(g, alg.String(), recycle)
	s.Metrics = map[string]float64{"transfers": float64(len(m.xfers))}
	return s, nil
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

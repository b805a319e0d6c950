package python_test

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// goListName is the Go port of list_sched.py, registered for the tests
// and benchmarks of this package only: the same schedule, computed the
// same way, for comparing the cost of planning in Python with that of
// planning in Go.
const goListName = "go-list-sched"

func init() {
	policies.Register(policies.Entry{
		Name: goListName, Family: models.FamilyDAG, Platforms: []string{models.KindDelay},
		Doc:     "list_sched.py in Go (test only)",
		Planner: policies.PlannerFunc(goListSched),
		Options: []policies.Option{{Name: "processors", Type: policies.TypeInt, Default: 0, Min: 0,
			Doc: "the most processors used; 0: as the platform allows"}},
	})
}

// goListSched is list_sched.py's plan, line for line.
func goListSched(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rho, limit := in.Platform.Delay.Rho, in.Platform.Delay.Processors
	if wanted, ok := in.Options["processors"].(int); ok && wanted > 0 {
		if limit > 0 {
			limit = min(limit, wanted)
		} else {
			limit = wanted
		}
	}
	g := in.Problem.DAG
	n := len(g.Tasks)
	preds, succs := make([][]int, n), make([][]int, n)
	for _, e := range g.Edges {
		preds[e.To] = append(preds[e.To], e.From)
		succs[e.From] = append(succs[e.From], e.To)
	}
	order, err := kahn(preds, succs)
	if err != nil {
		return nil, err
	}
	position := make([]int, n)
	for k, v := range order {
		position[v] = k
	}
	blevel := make([]float64, n)
	for k := n - 1; k >= 0; k-- {
		v := order[k]
		longest := 0.0
		for _, s := range succs[v] {
			longest = max(longest, rho+blevel[s])
		}
		blevel[v] = g.Tasks[v].Weight + longest
	}
	waiting := make([]int, n)
	var ready []int
	for v := range n {
		if waiting[v] = len(preds[v]); waiting[v] == 0 {
			ready = append(ready, v)
		}
	}
	var free []float64
	proc, end, action := make([]int, n), make([]float64, n), make([]int, n)
	s := &sim.Schedule{Policy: goListName}
	for len(ready) > 0 {
		i := 0 // the ready task of highest bottom level, then first in order
		for j, v := range ready {
			if u := ready[i]; blevel[v] > blevel[u] || blevel[v] == blevel[u] && position[v] < position[u] {
				i = j
			}
		}
		v := ready[i]
		ready = append(ready[:i], ready[i+1:]...)
		bestStart, bestProc := math.Inf(1), -1
		for p, at := range free {
			start := at
			for _, u := range preds[v] {
				d := rho
				if proc[u] == p {
					d = 0
				}
				start = max(start, end[u]+d)
			}
			if bestProc < 0 || start < bestStart {
				bestStart, bestProc = start, p
			}
		}
		if limit == 0 || len(free) < limit {
			start := 0.0
			for _, u := range preds[v] {
				start = max(start, end[u]+rho)
			}
			if bestProc < 0 || start < bestStart {
				bestStart, bestProc = start, len(free)
				free = append(free, 0)
			}
		}
		proc[v], end[v] = bestProc, bestStart+g.Tasks[v].Weight
		free[bestProc] = end[v]
		after := make([]int, len(preds[v]))
		for k, u := range preds[v] {
			after[k] = action[u]
		}
		start := bestStart
		action[v] = s.Add(sim.Action{Kind: sim.Compute, Node: bestProc, Amount: g.Tasks[v].Weight,
			Start: &start, Label: g.TaskName(v), After: after})
		s.Claimed = max(s.Claimed, end[v])
		for _, w := range succs[v] {
			if waiting[w]--; waiting[w] == 0 {
				ready = append(ready, w)
			}
		}
	}
	s.Metrics = map[string]float64{"processors": float64(len(free))}
	return s, nil
}

// kahn is list_sched.py's topological order.
func kahn(preds, succs [][]int) ([]int, error) {
	n := len(preds)
	waiting := make([]int, n)
	var order []int
	for v := range n {
		if waiting[v] = len(preds[v]); waiting[v] == 0 {
			order = append(order, v)
		}
	}
	for k := 0; k < len(order); k++ {
		for _, s := range succs[order[k]] {
			if waiting[s]--; waiting[s] == 0 {
				order = append(order, s)
			}
		}
	}
	if len(order) != n {
		return nil, errors.New("the task graph has a cycle")
	}
	return order, nil
}

// sameSchedule reports how two schedules differ, or nil.
func sameSchedule(a, b *sim.Schedule) error {
	if a.Claimed != b.Claimed || len(a.Actions) != len(b.Actions) {
		return fmt.Errorf("claims %v and %v, %d and %d actions", a.Claimed, b.Claimed, len(a.Actions), len(b.Actions))
	}
	for i := range a.Actions {
		x, y := a.Actions[i], b.Actions[i]
		if x.Node != y.Node || x.Amount != y.Amount || *x.Start != *y.Start || x.Label != y.Label || fmt.Sprint(x.After) != fmt.Sprint(y.After) {
			return fmt.Errorf("action %d: %+v and %+v", i, x, y)
		}
	}
	return nil
}

// Package hlfet is a scheduling policy written outside the netsched
// repository: HLFET (Highest Level First with Estimated Times, Adam, Chandy
// and Dickson 1974), a list scheduler for task graphs on the delay platform
// of paper 002. Importing the package registers the policy as "hlfet".
//
// The static level of a task is the largest sum of weights on a path from
// it to an exit task. Among the ready tasks (every predecessor placed), the
// one of highest level goes first, ties to the lower index, on the
// processor where it can start earliest: when the processor is free and
// the data of every predecessor has arrived, ρ after the predecessor's end
// if it ran on another processor. It uses the platform's processors, or
// the option processors when the platform has unboundedly many.
package hlfet

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// Name is the policy's name in scenarios.
const Name = "hlfet"

// processorsOption bounds the processors used on a platform of unboundedly
// many.
var processorsOption = policies.Option{
	Name: "processors", Type: policies.TypeInt, Default: 4, Min: 1,
	Doc: "processors used when the platform has unboundedly many",
}

func init() {
	policies.Register(policies.Entry{
		Name:      Name,
		Family:    models.FamilyDAG,
		Platforms: []string{models.KindDelay},
		Doc:       "HLFET list scheduling: highest static level first, on the processor of earliest start (out-of-tree example)",
		Planner:   policies.PlannerFunc(Plan),
		Options:   []policies.Option{processorsOption},
	})
}

// Plan schedules the task graph of in on its delay platform. Through the
// registry it receives a valid instance (policies.Planner); called
// directly, it validates the instance itself.
func Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	if in.Platform == nil || in.Platform.Delay == nil || in.Problem == nil || in.Problem.DAG == nil {
		return nil, fmt.Errorf("%s: schedules a task graph on a delay platform", Name)
	}
	if !in.Valid {
		if err := in.Platform.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		if err := in.Problem.Validate(in.Platform); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
	}
	g, rho := in.Problem.DAG, in.Platform.Delay.Rho
	procs := in.Platform.Delay.Processors
	if procs == 0 {
		procs = processorsOption.Int(in.Options)
	}
	levels, err := staticLevels(g)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	n, preds := len(g.Tasks), g.Preds()
	waiting := make([]int, n) // predecessors not yet placed
	for v := range n {
		waiting[v] = len(preds[v])
	}
	succs := g.Succs()
	proc, end, action := make([]int, n), make([]float64, n), make([]int, n)
	free := make([]float64, procs) // when each processor is next free
	s := &sim.Schedule{Policy: Name, Actions: make([]sim.Action, 0, n)}
	ready := readyTasks(waiting)
	for len(ready) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k := highest(ready, levels)
		v := ready[k]
		ready = append(ready[:k], ready[k+1:]...)

		best, bestStart := 0, 0.0
		for p := range procs {
			start := free[p]
			for _, u := range preds[v] {
				arrival := end[u]
				if proc[u] != p {
					arrival += rho
				}
				start = max(start, arrival)
			}
			if p == 0 || start < bestStart {
				best, bestStart = p, start
			}
		}
		after := make([]int, len(preds[v]))
		for i, u := range preds[v] {
			after[i] = action[u]
		}
		proc[v], end[v] = best, bestStart+g.Tasks[v].Weight
		free[best] = end[v]
		action[v] = s.Add(sim.Action{Kind: sim.Compute, Node: best, Amount: g.Tasks[v].Weight,
			Start: s.Time(bestStart), After: after, Label: g.TaskName(v)})
		s.Claimed = max(s.Claimed, end[v])
		for _, w := range succs[v] {
			if waiting[w]--; waiting[w] == 0 {
				ready = append(ready, w)
			}
		}
	}
	if len(s.Actions) != n {
		return nil, fmt.Errorf("%s: the task graph has a cycle", Name)
	}
	return s, nil
}

// staticLevels returns each task's static level: its weight plus the
// largest static level of its successors.
func staticLevels(g *models.DAG) ([]float64, error) {
	order, err := g.TopoOrder()
	if err != nil {
		return nil, err
	}
	succs, levels := g.Succs(), make([]float64, len(g.Tasks))
	for i := len(order) - 1; i >= 0; i-- {
		v, below := order[i], 0.0
		for _, w := range succs[v] {
			below = max(below, levels[w])
		}
		levels[v] = g.Tasks[v].Weight + below
	}
	return levels, nil
}

// readyTasks lists the tasks with no predecessor waiting.
func readyTasks(waiting []int) []int {
	var ready []int
	for v, w := range waiting {
		if w == 0 {
			ready = append(ready, v)
		}
	}
	return ready
}

// highest is the position in ready of the task of highest level, the
// lowest index among equals.
func highest(ready []int, levels []float64) int {
	best := 0
	for k, v := range ready {
		if b := ready[best]; levels[v] > levels[b] || levels[v] == levels[b] && v < b {
			best = k
		}
	}
	return best
}

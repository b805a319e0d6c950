package baseline

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// dagSchedule places the tasks of a DAG in topological order: proc gives
// each task's processor, in [0, len(g.Tasks)), and a task starts once the
// previous task on its processor has ended and every predecessor's data
// has arrived, ρ after the predecessor's end when it ran on another
// processor (paper 002 §2).
//
// The schedule is built in the memory of recycle (sim.Recycled).
func dagSchedule(name string, g *models.DAG, rho float64, proc func(task int) int, recycle *sim.Schedule) (*sim.Schedule, error) {
	n := len(g.Tasks)
	s := sim.Recycled(recycle, n)
	s.Policy = name
	topo, err := g.TopologyIn(s.Ints)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ints := s.Ints(n + len(g.Edges))
	action, afters := ints[:n], ints[n:] // afters: every action's After list, in one array
	times := s.Floats(3 * n)
	end, free, starts := times[:n], times[n:2*n], times[2*n:] // free: when each processor is next free
	latestStart := 0.0
	for k, v := range topo.Order {
		p, preds := proc(v), topo.Preds(v)
		start := free[p]
		after := afters[:0:len(preds)]
		afters = afters[len(preds):]
		for _, u := range preds {
			ready := end[u]
			if proc(u) != p {
				ready += rho
			}
			start = max(start, ready)
			after = append(after, action[u])
		}
		end[v] = start + g.Tasks[v].Weight
		free[p] = end[v]
		starts[k] = start
		action[v] = s.Add(sim.Action{Kind: sim.Compute, Node: p, Amount: g.Tasks[v].Weight,
			Start: &starts[k], After: after, Label: g.TaskName(v)})
		s.Claimed = max(s.Claimed, end[v])
		latestStart = max(latestStart, start)
	}
	// time(S) of paper 002 is the latest start, reported beside the makespan.
	s.Metrics = map[string]float64{"latest_start": latestStart}
	return s, nil
}

// planSequential runs every task on processor 0 in topological order: no
// delay is ever paid, and the claim is the sum of the weights.
func planSequential(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	if err := ctx.Err(); err != nil { // the registry admitted the instance
		return nil, err
	}
	return dagSchedule("sequential", in.Problem.DAG, in.Platform.Delay.Rho, func(int) int { return 0 }, in.Recycle)
}

// planUnclustered runs task i on processor i, so every edge pays ρ: a task
// starts at max over its predecessors of (their end + ρ), and the claim is
// the longest path with ρ on every edge.
func planUnclustered(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	if err := ctx.Err(); err != nil { // the registry admitted the instance
		return nil, err
	}
	d, g := in.Platform.Delay, in.Problem.DAG
	if d.Processors > 0 && d.Processors < len(g.Tasks) {
		return nil, fmt.Errorf("unclustered: needs one processor per task, %d tasks but the platform has %d processors",
			len(g.Tasks), d.Processors)
	}
	return dagSchedule("unclustered", g, d.Rho, func(v int) int { return v }, in.Recycle)
}

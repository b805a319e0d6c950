package check_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Replay replays a schedule and checks that it solves its problem. This
// schedule of the task graph a → b, and c, on the delay platform (ρ = 2)
// keeps every rule of the platform: its actions follow nothing (no After
// lists) and no processor runs two at once. But it starts b on another
// processor 1 after a ends, before a's data arrive, and it never computes
// c: the problem checks read the graph, not the schedule's After lists.
func ExampleReplay() {
	platform := &models.Platform{Delay: &models.Delay{Rho: 2}}
	problem := &models.Problem{DAG: &models.DAG{
		Tasks: []models.Task{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "c", Weight: 1}},
		Edges: []models.DAGEdge{{From: 0, To: 1}},
	}}
	at := func(t float64) *float64 { return &t }
	s := &sim.Schedule{Claimed: 3, Actions: []sim.Action{
		{Kind: sim.Compute, Node: 0, Amount: 1, Start: at(0), Label: "a"},
		{Kind: sim.Compute, Node: 1, Amount: 1, Start: at(2), Label: "b"},
	}}
	res, err := check.Replay(context.Background(), platform, problem, s, sim.Timed)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range res.Violations {
		fmt.Println(v)
	}
	fmt.Println("verified:", res.OK())
	// Output:
	// task-missing at t=3: c: task c (weight 1) is never computed
	// edge-late at t=2: action 1 on a→b: task b starts at 2, before the data of a (action 0) is there at 3
	// verified: false
}

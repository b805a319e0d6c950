package replay_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// Replay runs a schedule on a platform and reports what breaks its rules.
// On a half-duplex crossbar (β = 0.5 per unit), P0 sends 2 units to P1
// from time 0 (it takes 1) and computes them, and P0 also computes 1 unit
// (γ = 1); then the same, with the two transfers of one port at once.
func ExampleReplay() {
	platform := &models.Platform{Crossbar: &models.Crossbar{
		Beta: 0.5, Duplex: models.HalfDuplex,
		Processors: []models.Processor{{Name: "P0", Gamma: 1}, {Name: "P1", Gamma: 1}, {Name: "P2", Gamma: 1}},
	}}
	at := func(t float64) *float64 { return &t }
	s := &sim.Schedule{Claimed: 3, Actions: []sim.Action{
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 2, Start: at(0)},
		{Kind: sim.Compute, Node: 1, Amount: 2, Start: at(1), After: []int{0}},
		{Kind: sim.Compute, Node: 0, Amount: 1, Start: at(0)},
	}}
	res, err := replay.Replay(context.Background(), platform, s, sim.Timed)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("makespan", res.Makespan, "violations", len(res.Violations), "matches the claim", res.Matches())

	// A second transfer from P0 while its port is busy.
	s.Actions = append(s.Actions, sim.Action{Kind: sim.Transfer, From: 0, To: 2, Amount: 1, Start: at(0.5)})
	res, err = replay.Replay(context.Background(), platform, s, sim.Timed)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range res.Violations {
		fmt.Println(v)
	}
	// Output:
	// makespan 3 violations 0 matches the claim true
	// port-conflict at t=0.5: action 3 on P0 port: held by action 0 until t=1
}

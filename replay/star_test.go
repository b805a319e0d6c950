package replay_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// This file adds a platform kind the project does not have, from outside
// the replay package: its model (star), its Platform (starReplay) and the
// line that registers it.

// star is n nodes around a switch, each joined to it by an identical link
// with one port: a transfer of a units holds the sender's and the
// receiver's port and takes Alpha + a·Beta. There is no computation.
type star struct {
	Nodes       int
	Alpha, Beta float64
}

func (s *star) Kind() string          { return "star" }
func (s *star) NumNodes() int         { return s.Nodes }
func (s *star) NodeName(i int) string { return "" }

func (s *star) Validate() error {
	if s.Nodes < 2 || !(s.Alpha >= 0) || !(s.Beta > 0) {
		return &models.FieldError{Path: "platform.star", Msg: "needs 2 nodes or more, α >= 0 and β > 0"}
	}
	return nil
}

// starReplay replays on a star.
type starReplay struct{ s *star }

func init() {
	replay.Register("star", func(p *models.Platform) replay.Platform { return starReplay{p.Other.(*star)} })
}

func (r starReplay) CheckAction(i int, a *sim.Action) error {
	bad := func(field, msg string) error {
		return &models.FieldError{Path: fmt.Sprintf("actions[%d].%s", i, field), Msg: msg}
	}
	switch {
	case a.Kind == sim.Compute:
		return bad("kind", "a star only transfers")
	case a.From < 0 || a.From >= r.s.Nodes:
		return bad("from", "no such node")
	case a.To < 0 || a.To >= r.s.Nodes || a.To == a.From:
		return bad("to", "no such node, or the sender")
	}
	return nil
}

func (r starReplay) Build(b *replay.Builder) {
	p := &models.Platform{Other: r.s}
	b.AddNodeLanes(p, r.s.Nodes)
	port := b.AddPorts(r.s.Nodes, " link")
	actions := b.Actions()
	for j := range actions {
		a := &actions[j]
		b.BindTransfer(j, r.s.Alpha+a.Amount*r.s.Beta, port+replay.Port(a.From), port+replay.Port(a.To))
	}
}

// TestStarPlatform replays schedules on a platform kind defined in this
// file alone: a valid schedule verifies, a port used twice at once is a
// violation, a computation is an error.
func TestStarPlatform(t *testing.T) {
	p := &models.Platform{Other: &star{Nodes: 3, Alpha: 1, Beta: 0.5}}
	at := func(t float64) *float64 { return &t }
	ctx := context.Background()

	// 0→1 takes 1 + 4·0.5 = 3; 1→2 then holds 1's port from 3 to 5.
	valid := &sim.Schedule{Claimed: 5, Actions: []sim.Action{
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 4, Start: at(0)},
		{Kind: sim.Transfer, From: 1, To: 2, Amount: 2, Start: at(3), After: []int{0}},
	}}
	for _, mode := range []sim.Mode{sim.Timed, sim.Ordered} {
		res, err := replay.Replay(ctx, p, valid, mode)
		if err != nil || !res.OK() || res.Ends[1] != 5 {
			t.Errorf("%v: valid schedule: %v, %+v", mode, err, res)
		}
	}

	// 2→1 starts at 1, while 0→1 holds 1's port until 3.
	conflict := &sim.Schedule{Claimed: 4, Actions: []sim.Action{
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 4, Start: at(0)},
		{Kind: sim.Transfer, From: 2, To: 1, Amount: 4, Start: at(1)},
	}}
	res, err := replay.Replay(ctx, p, conflict, sim.Timed)
	if err != nil {
		t.Fatal(err)
	}
	want := sim.Violation{Kind: sim.PortConflict, Action: 1, Resource: "P1 link", Time: 1}
	if len(res.Violations) != 1 || res.Violations[0].Kind != want.Kind || res.Violations[0].Action != want.Action ||
		res.Violations[0].Resource != want.Resource || res.Violations[0].Time != want.Time {
		t.Errorf("violations %v, want %v", res.Violations, want)
	}
	if res, err := replay.Replay(ctx, p, conflict, sim.Ordered); err != nil || res.Starts[1] != 3 {
		t.Errorf("ordered: %v, starts %v, want the second at 3", err, res.Starts)
	}

	compute := &sim.Schedule{Actions: []sim.Action{{Kind: sim.Compute, Node: 0, Amount: 1}}}
	var fe *models.FieldError
	if _, err := replay.Replay(ctx, p, compute, sim.Ordered); !errors.As(err, &fe) || fe.Path != "actions[0].kind" {
		t.Errorf("computation on a star: %v, want an error at actions[0].kind", err)
	}
}

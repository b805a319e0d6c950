package heuristic

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

func init() {
	for _, e := range []policies.Entry{
		{Name: "fnf", Planner: policy{name: "fnf", plan: FNF},
			Doc: "fastest node first: receivers by fastest outgoing link, each from the holder that delivers it first"},
		{Name: "ecef", Planner: policy{name: "ecef", plan: ECEF},
			Doc: "earliest completing edge first: always the transfer that arrives first"},
	} {
		e.Family, e.Platforms = models.FamilyBroadcast, []string{models.KindTree}
		policies.Register(e)
	}
}

// policy is a greedy that adds one whole-message transfer at a time, each
// at the earliest time it fits the reservations made, once its sender
// holds the message (see Greedy.Backfill).
type policy struct {
	name string
	plan func(ctx context.Context, g *Greedy) error
}

// Plan runs the greedy.
func (p policy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	nw, err := treenet.NewNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	g := New(nw)
	g.Backfill = true
	if err := p.plan(ctx, g); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	g.c.InStartOrder()
	return g.c.Schedule(p.name), nil
}

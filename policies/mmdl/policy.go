package mmdl

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// DefaultMaxRounds caps R when it is chosen automatically (option
// max_rounds): without start-up latency more rounds always help, and the
// schedule has about 3p actions per round.
const DefaultMaxRounds = 100

// OptMaxRounds is the option max_rounds of the multi-round MMDL policies:
// the cap on R when the problem leaves it to the policy (rounds: auto).
var OptMaxRounds = policies.Option{Name: "max_rounds", Type: policies.TypeInt, Default: DefaultMaxRounds, Min: 1,
	Doc:    "the most rounds R may be when the problem leaves R to the policy (rounds: auto)",
	Source: "netsched's cap: paper 000 §3.1.2 takes R = √(T/α), which grows without bound as α goes to 0"}

func init() {
	for _, p := range []planner{
		{name: "mmdl", order: Reverse,
			doc: "paper 000: optimal MMDL round, interval matching, reverse-order communication, R = √(T/α) rounds"},
		{name: "mmdl-forward", order: Forward,
			doc: "paper 000's matching with both sides communicating in number order (the worst order of §3.4)"},
		{name: "single-round", order: Reverse, single: true,
			doc: "paper 000's optimal round in one round (R = 1): distribute everything, then compute"},
	} {
		e := policies.Entry{
			Name: p.name, Family: models.FamilyDivisible, Doc: p.doc, Planner: p,
			Platforms: []string{models.KindCrossbar},
		}
		if !p.single {
			e.Options = []policies.Option{OptMaxRounds}
		}
		policies.Register(e)
	}
}

// planner is one of the MMDL policies.
type planner struct {
	name, doc string
	order     Order
	single    bool // R = 1 whatever the problem says
}

// Plan computes the round (RoundTime), matches and orders its messages, and
// expands it into R rounds: R from the problem, or 1 for single-round, or
// BestRounds.
func (p planner) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	m := newModel(in.Platform, in.Problem)
	round := RoundTime(m)
	e := NewExpansion(m, round, p.order)
	R := int(in.Problem.Divisible.Rounds)
	switch {
	case p.single:
		R = 1
	case R == 0:
		var err error
		if R, err = e.BestRounds(OptMaxRounds.Int(in.Options)); err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
	}
	s, err := e.schedule(ctx, R, in.Recycle)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	s.Policy = p.name
	s.Metrics = e.metrics(R)
	s.Warnings = p.warnings(in, m)
	return s, nil
}

// metrics are the figures reported beside the replay. The claim is the
// schedule's exact makespan; paper_makespan is the paper's T + T/R + Rα
// with α the per-slot start-up overhead (Expansion.AlphaRound).
func (e *Expansion) metrics(R int) map[string]float64 {
	own := 0.0
	for _, p := range e.Model.Procs {
		own = max(own, p.X*p.Gamma)
	}
	slot := 0.0
	if l, err := e.layout(R); err == nil {
		for _, s := range l.Slots {
			slot = max(slot, s.length)
		}
	}
	return map[string]float64{
		"T":                          e.Round.T,
		"T_L":                        e.Round.TL,
		"R":                          float64(R),
		"masters":                    float64(len(e.Round.Masters())),
		"workers":                    float64(len(e.Round.Workers())),
		"messages_per_round":         float64(len(e.Messages)),
		"max_messages_per_processor": float64(e.MaxMessages()),
		"alpha_round":                e.AlphaRound(),
		"slot":                       slot,
		"paper_makespan":             e.PaperMakespan(R),
		"own_load_makespan":          own,
	}
}

// warnings name the assumptions of paper 000 that the instance breaks.
func (p planner) warnings(in policies.Instance, m *Model) []string {
	var w []string
	cb, d := in.Platform.Crossbar, in.Problem.Divisible
	for i := range cb.Processors {
		proc := cb.Processors[i] // a copy: ConsistentlyDegrading swaps Combined while it looks
		name := in.Platform.NodeName(i)
		if !proc.ConsistentlyDegrading() {
			w = append(w, fmt.Sprintf("%s: combined rates are not consistent degradation (paper 000 §4.3); "+
				"T and the plan assume the rule's rates, so the optimality claim does not hold, and the replay shows how far the schedule misses its claim", name))
		}
		if pr := &m.Procs[i]; m.Full && m.Collect && pr.Rate[0]-pr.lossSend()-pr.lossRecv() < -1e-12*pr.Rate[0] {
			w = append(w, fmt.Sprintf("%s: its rate losses while sending and receiving add up to more than its rate, "+
				"which the platform floors at 0 (paper 000 §4.3's rule does not hold exactly): T is achieved but may not be optimal", name))
		}
	}
	if d.CollectResults && d.ResultSize == 0 {
		w = append(w, "collect_results is set but result_size is 0: no results are sent back")
	}
	if p.single && d.Rounds > 1 {
		w = append(w, fmt.Sprintf("%s uses one round; rounds: %d is ignored", p.name, d.Rounds))
	}
	return w
}

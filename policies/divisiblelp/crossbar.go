package divisiblelp

import (
	"context"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/mmdl"
	"github.com/netsched/netsched/policies/optround"
	"github.com/netsched/netsched/sim"
)

// planCrossbar expands the LP's optimal crossbar round with paper 000's
// matching, reverse ordering and round expansion.
func planCrossbar(ctx context.Context, in policies.Instance, maxRounds int) (*sim.Schedule, error) {
	m, err := mmdl.NewModel(in.Platform, in.Problem)
	if err != nil {
		return nil, err
	}
	opt, err := optround.Crossbar(ctx, in.Platform, in.Problem)
	if err != nil {
		return nil, err
	}
	procs := in.Platform.Crossbar.Processors
	clean(opt.Y, dustTol*totalLoad(procs))
	e := mmdl.NewExpansion(m, mmdl.Round{T: opt.T, Y: opt.Y}, mmdl.Reverse)
	R, err := rounds(in.Problem, maxRounds, e.BestRounds)
	if err != nil {
		return nil, err
	}
	s, err := e.Schedule(ctx, R)
	if err != nil {
		return nil, err
	}
	s.Metrics = map[string]float64{
		"T":                  opt.T,
		"R":                  float64(R),
		"masters":            float64(len(e.Round.Masters())),
		"workers":            float64(len(e.Round.Workers())),
		"messages_per_round": float64(len(e.Messages)),
		"alpha_round":        e.AlphaRound(),
		"paper_makespan":     e.PaperMakespan(R),
	}
	s.Warnings = ruleWarnings(in.Platform, procs)
	return s, nil
}

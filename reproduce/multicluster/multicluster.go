// Package multicluster reproduces paper 001 (Suda: MMDL on two-level
// multi-clusters with relays): where relays help (makespan against R) and
// a sweep of the inter-cluster β against β_j. It registers itself as
// paper 001 in package reproduce.
package multicluster

import (
	"context"
	"slices"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/plots/sweepplot"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sweep"
)

func init() {
	reproduce.Register(reproduce.Paper{ID: "001", Dir: "multicluster",
		Title: "Suda: MMDL on two-level multi-clusters with relays", Run: Run})
}

// Run runs paper 001's bundled cases into out: their sweeps, plots and
// tables, and a Gantt chart with relays. It takes no options but the
// number of jobs: it runs in about a second.
func Run(ctx context.Context, out *reproduce.Output, _ reproduce.Options) error {
	out.Notef("Paper 001 has no numeric tables; its claims are checked instead: T equals an independent " +
		"steady-state round LP with relays (policies/multicluster tests, 470 instances), and every schedule " +
		"replays on the multi-cluster with zero violations at its claimed makespan. mmdl-flat is paper 000 " +
		"planning as if every transfer crossed the slow network.\n\n")
	relay, err := out.SweepScenario(ctx, "multicluster-relay")
	if err != nil {
		return err
	}
	makespan := reproduce.Column{Name: "makespan", Unit: "s"}
	rounds := reproduce.Column{Name: "rounds R"}
	interBeta := reproduce.Column{Name: "inter-cluster β", Unit: "s per unit of load"}
	styles := plots.NewStyles("multicluster", "multicluster-norelay", "mmdl-flat", "no-redistribution") // the same in both figures
	// no-redistribution's 4,000 s would flatten the other curves.
	shown := *relay
	shown.Rows = slices.DeleteFunc(slices.Clone(relay.Rows), func(r *sweep.Row) bool { return r.Policy == "no-redistribution" })
	if err := out.SweepPlot(&shown, sweepplot.Spec{Metric: "simulated_makespan", LogX: true,
		Title: "paper 001: a master-heavy cluster, makespan against R (no-redistribution in the table)", Styles: styles}, rounds, makespan, "multicluster-relay.png"); err != nil {
		return err
	}
	md, err := out.Table(reproduce.PivotTable("multicluster-relay", "Relays help (`multicluster-relay`): makespan against R",
		relay, "simulated_makespan", rounds, makespan))
	if err != nil {
		return err
	}
	out.Notef("%s", md)
	beta, err := out.SweepScenario(ctx, "multicluster-beta")
	if err != nil {
		return err
	}
	if err := out.SweepPlot(beta, sweepplot.Spec{Metric: "simulated_makespan", RatioTo: "no-redistribution", Invert: true, LogX: true,
		Title: "paper 001: speed-up against the inter-cluster β (β_j = 0.01)", Styles: styles}, interBeta,
		reproduce.Column{Name: "speed-up over no-redistribution"}, "multicluster-beta-speedup.png"); err != nil {
		return err
	}
	md, err = out.Table(reproduce.PivotTable("multicluster-beta", "Inter-cluster β against β_j = 0.01 (`multicluster-beta`)",
		beta, "simulated_makespan", interBeta, makespan))
	if err != nil {
		return err
	}
	out.Notef("%s", md)
	r8 := scenarios.Axis{Path: "problem.divisible.rounds", Values: []float64{8}}
	return out.Gantt(ctx, "multicluster-relay", "multicluster", "round", "gantt-relay-R8.png", r8)
}

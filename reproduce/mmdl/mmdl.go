// Package mmdl reproduces paper 000 (Suda: MMDL on a crossbar cluster):
// β sweeps of each variant as speedup over no redistribution, makespan
// against the number of rounds R, and Gantt charts of one and several
// rounds. It registers itself as paper 000 in package reproduce.
package mmdl

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/plots/sweepplot"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/scenarios"
)

func init() {
	reproduce.Register(reproduce.Paper{ID: "000", Dir: "mmdl", Title: "Suda: MMDL on a crossbar cluster", Run: Run})
}

// Run runs paper 000's experiments into out: the bundled scenarios'
// sweeps, their plots and tables, and two Gantt charts. It takes no
// options but the number of jobs: it runs in about a second.
func Run(ctx context.Context, out *reproduce.Output, _ reproduce.Options) error {
	beta := reproduce.Column{Name: "β", Unit: "s per unit of load"}
	rounds := reproduce.Column{Name: "rounds R"}
	makespan := reproduce.Column{Name: "makespan", Unit: "s"}
	speedup := reproduce.Column{Name: "speed-up over no-redistribution"}
	styles := plots.NewStyles("no-redistribution", "mmdl", "mmdl-forward", "single-round") // the same in every figure
	out.Notef("Paper 000 has no numeric tables; its claims are checked instead: T equals an independent LP " +
		"(policies/mmdl tests), every schedule replays with zero violations at its claimed makespan, " +
		"and the makespan tends to T + T/R + Rα.\n\n")
	for _, v := range []string{"no-overlap", "overlap", "results", "full-duplex"} {
		name := "mmdl-beta-" + v
		t, err := out.SweepScenario(ctx, name)
		if err != nil {
			return err
		}
		spec := sweepplot.Spec{Metric: "simulated_makespan", RatioTo: "no-redistribution", Invert: true, LogX: true,
			Title: "paper 000, " + v + ": speed-up over no-redistribution", Styles: styles}
		if err := out.SweepPlot(t, spec, beta, speedup, name+"-speedup.png"); err != nil {
			return err
		}
		out.Progressf("β sweep, %s", v)
		md, err := out.Table(reproduce.PivotTable(name, fmt.Sprintf("β sweep, %s (`%s`)", v, name), t, "simulated_makespan", beta, makespan))
		if err != nil {
			return err
		}
		out.Notef("%s", md)
	}
	for _, name := range []string{"mmdl-rounds", "mmdl-fig3"} {
		t, err := out.SweepScenario(ctx, name)
		if err != nil {
			return err
		}
		spec := sweepplot.Spec{Metric: "simulated_makespan", Title: "paper 000: makespan against the number of rounds R", Styles: styles}
		if err := out.SweepPlot(t, spec, rounds, makespan, name+".png"); err != nil {
			return err
		}
		md, err := out.Table(reproduce.PivotTable(name, fmt.Sprintf("Makespan against R (`%s`)", name), t, "simulated_makespan", rounds, makespan))
		if err != nil {
			return err
		}
		out.Notef("%s", md)
	}
	for _, g := range []struct {
		policy, file string
		rounds       float64
	}{{"single-round", "gantt-one-round.png", 1}, {"mmdl", "gantt-multi-round.png", 4}} {
		rounds := scenarios.Axis{Path: "problem.divisible.rounds", Values: []float64{g.rounds}}
		if err := out.Gantt(ctx, "mmdl-fig3", g.policy, "round", g.file, rounds); err != nil {
			return err
		}
	}
	return nil
}

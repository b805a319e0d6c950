// Package loadbalance reproduces paper 003 (dynamic load balancing by
// Power exchange on a workstation cluster): Tables 1–2 beside every
// policy of package policies/loadbalance, the same with noisy task times,
// sweeps of the external load share, the topology and the Power interval,
// the fit of the interval to Table 2, and a Gantt chart of one run. It
// registers itself as paper 003 in package reproduce.
package loadbalance

import (
	"context"
	"fmt"
	"strconv"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/reproduce"
)

func init() {
	reproduce.Register(reproduce.Paper{ID: "003", Dir: "loadbalance",
		Title: "Dynamic load balancing by Power exchange on a workstation cluster", Run: Run})
}

// Run runs paper 003's experiment into out: tables.md, a plot per sweep
// and a Gantt chart of power-diff. With opt.Quick the randomised runs
// average 2 seeds instead of 10.
func Run(ctx context.Context, out *reproduce.Output, opt reproduce.Options) error {
	var ro ReproduceOptions
	if opt.Quick {
		ro.Seeds = 2
	}
	rep, err := Reproduce(ctx, ro)
	if err != nil {
		return err
	}
	tables, err := out.Markdown("tables.md", rep.WriteMarkdown)
	if err != nil {
		return err
	}
	for i, sw := range rep.Sweeps {
		series := []plots.Series{{Name: "ideal bound", X: sw.X, Y: sw.Bound, YErr: make([]float64, len(sw.X))}}
		for k, pol := range sw.Policies {
			series = append(series, plots.Series{Name: pol, X: sw.X, Y: sw.Makespan[k], YErr: make([]float64, len(sw.X))})
		}
		po := plots.LineOptions{Title: "paper 003: makespan against " + sw.Name, XLabel: sw.Name, YLabel: "makespan (s)"}
		if _, err := strconv.ParseFloat(sw.Values[0], 64); err != nil {
			po.XNames = sw.Values // a categorical parameter: the topology
		}
		if err := plots.SaveLines(series, po, out.Path(fmt.Sprintf("sweep-%d.png", i+1))); err != nil {
			return err
		}
	}
	if err := out.Gantt(ctx, "loadbalance-burst", "power-diff", "kind", "gantt-power-diff.png"); err != nil {
		return err
	}
	out.Notef("Tables 1–2 of the paper beside ours (every policy), the sweeps (plots sweep-*.png) and the fit "+
		"of the Power interval: also in "+
		"[tables.md](loadbalance/tables.md); what they show and the choices the paper leaves open: [NOTES.md](loadbalance/NOTES.md).\n\n%s", tables)
	return nil
}

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
	"slices"
	"strconv"

	"github.com/netsched/netsched/plots"
	lb "github.com/netsched/netsched/policies/loadbalance"
	"github.com/netsched/netsched/reproduce"
)

func init() {
	reproduce.Register(reproduce.Paper{ID: "003", Dir: "loadbalance",
		Title: "Dynamic load balancing by Power exchange on a workstation cluster", Run: Run})
}

// Run runs paper 003's experiment into out: tables.md (each table also as
// CSV and LaTeX), plots of Tables 1 and 2 beside the paper's, a plot per
// sweep and a Gantt chart of power-diff. With opt.Quick the randomised runs
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
	tables, err := out.Document("tables.md", rep.Document()...)
	if err != nil {
		return err
	}
	styles := plots.NewStyles(append([]string{"ideal bound"}, reproducePolicies...)...) // the same in every figure
	for i, sw := range rep.Sweeps {
		series := []plots.Series{{Name: "ideal bound", X: sw.X, Y: sw.Bound, YErr: make([]float64, len(sw.X))}}
		for k, pol := range sw.Policies {
			series = append(series, plots.Series{Name: pol, X: sw.X, Y: sw.Makespan[k], YErr: make([]float64, len(sw.X))})
		}
		po := plots.LineOptions{Title: "paper 003: makespan against " + sw.Name, XLabel: sw.Name, YLabel: "makespan (s)", Styles: styles, TicksAtData: true}
		if _, err := strconv.ParseFloat(sw.Values[0], 64); err != nil {
			po.XNames = sw.Values // a categorical parameter: the topology
		}
		if err := plots.SaveLines(series, po, out.Path(fmt.Sprintf("sweep-%d.png", i+1))); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		file, title, ylabel string
		value               func(PaperRow, PolicyRun, int) (paper, ours float64)
	}{
		{"table1-finish.png", "paper 003, Table 1: finish time of each processor", "finish time (s)",
			func(p PaperRow, r PolicyRun, i int) (float64, float64) { return p.Finish[i], r.Finish[i] }},
		{"table2-tasks.png", "paper 003, Table 2: tasks processed by each processor", "tasks processed",
			func(p PaperRow, r PolicyRun, i int) (float64, float64) { return float64(p.Tasks[i]), r.Tasks[i] }},
	} {
		series, names := tableSeries(rep, f.value)
		po := plots.LineOptions{Title: f.title, XLabel: "processor", YLabel: f.ylabel, XNames: names, Styles: styles}
		if err := plots.SaveLines(series, po, out.Path(f.file)); err != nil {
			return err
		}
	}
	if err := out.Gantt(ctx, "loadbalance-burst", "power-diff", "kind", "gantt-power-diff.png"); err != nil {
		return err
	}
	out.Notef("Tables 1–2 of the paper beside ours (every policy; plots table1-finish.png and table2-tasks.png, the paper's "+
		"values as hollow markers beside ours), the sweeps (plots sweep-*.png) and the fit "+
		"of the Power interval: also in "+
		"[tables.md](tables.md); what they show and the choices the paper leaves open: %s.\n\n%s", out.Ref("NOTES.md"), tables)
	return nil
}

// tableSeries are the lines of a plot of Table 1 or 2: for each of the
// paper's policies, ours per processor and the paper's beside it; and the
// processors' names.
func tableSeries(rep *Reproduction, value func(PaperRow, PolicyRun, int) (paper, ours float64)) ([]plots.Series, []string) {
	pl, _ := lb.PaperInstance()
	ws := pl.Workstations
	var names []string
	for i := range ws.Processors {
		names = append(names, ws.Name(i))
	}
	var series []plots.Series
	for _, p := range rep.Paper {
		k := slices.IndexFunc(rep.Runs, func(r PolicyRun) bool { return r.Policy == p.Policy })
		if k < 0 {
			continue
		}
		ours := plots.Series{Name: p.Policy}
		paper := plots.Series{Name: p.Policy + ", paper", Beside: ours.Name}
		for i := range names {
			pv, ov := value(p, rep.Runs[k], i)
			ours.X, ours.Y = append(ours.X, float64(i)), append(ours.Y, ov)
			paper.X, paper.Y = append(paper.X, float64(i)), append(paper.Y, pv)
		}
		series = append(series, ours, paper)
	}
	return series, names
}

// Package broadcast reproduces paper 004 (Hourai, Nishida, Oyanagi:
// optimal broadcast on tree networks): Tables 1–4, the search effort of
// the optimal policy with each pruning on and off, and Tables 5–6, the
// model-level broadcast times of MPICH, LAM and the optimum, on the
// networks of Figs. 11–14; and Gantt charts of the Fig. 14 network. It
// registers itself as paper 004 in package reproduce.
package broadcast

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/plots"
	bc "github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/policies/broadcast/mpi"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/trees"
	"gonum.org/v1/plot/vg"
)

// DefaultNodes is the node budget of each search with the cuts alone when
// Options.Nodes is 0: about what 5 s of search gave on this project's
// machine, and, unlike a time budget, the same on every machine.
const DefaultNodes = 500_000

func init() {
	reproduce.Register(reproduce.Paper{ID: "004", Dir: "broadcast",
		Title: "Hourai, Nishida, Oyanagi: optimal broadcast on tree networks", Run: Run})
}

// Run runs paper 004's Tables 1–4 (search effort with each pruning on and
// off) and Tables 5–6 (model-level broadcast times of MPICH, LAM and the
// optimum) into out's tables.md, and draws the link use of the Fig. 14
// network. opt.Nodes bounds each search with the cuts alone (0 means
// DefaultNodes), and opt.Budget, if set, its time too; the full search
// proves every optimum in milliseconds.
func Run(ctx context.Context, out *reproduce.Output, opt reproduce.Options) error {
	if opt.Nodes <= 0 {
		opt.Nodes = DefaultNodes
	}
	p := trees.DefaultNetParams()
	status := func(search string) func(string, ...any) {
		return func(format string, args ...any) { out.Progressf(search+": "+format, args...) }
	}
	full, err := SearchExperiment(ctx, p, bc.DefaultOptions(), status("full search"))
	if err != nil {
		return err
	}
	cuts, err := SearchExperiment(ctx, p, CutsOnlyOptions(opt.Nodes, opt.Budget), status("RCut and SCut alone"))
	if err != nil {
		return err
	}
	out.Progressf("Tables 5–6")
	rules := []mpi.Rule{mpi.Rule2004, mpi.RuleCurrent}
	var times [2][]TimeRow
	for i, rule := range rules {
		if times[i], err = TimeExperiment(ctx, p, rule, bc.DefaultOptions()); err != nil {
			return err
		}
	}
	var parts []any
	for _, t := range SearchTables("search-full", "the full search (lower bound, tie order, ECEF start, dive), each pruning on and off", full) {
		parts = append(parts, t)
	}
	for _, t := range SearchTables("search-cuts", fmt.Sprintf("RCut and SCut alone (no bound, no tie order, no starting schedule; %s per search)", budgetText(opt)), cuts) {
		parts = append(parts, t)
	}
	for i, rule := range rules {
		parts = append(parts, TimeTable(fmt.Sprintf("table5-mpich-rule%s", rule),
			fmt.Sprintf("Table 5 at model level: MPICH (its selection rule %s) and the optimum", rule), "mpich", times[i]))
	}
	parts = append(parts, TimeTable("table6-lam", "Table 6 at model level: LAM/MPI 7 and the optimum", "lam", times[0]),
		OrderingTable(times[0]))
	tables, err := out.Document("tables.md", parts...)
	if err != nil {
		return err
	}
	if err := plots.SaveLines(timeSeries(times[0]), plots.LineOptions{
		Title:  fmt.Sprintf("paper 004, Tables 5–6: broadcast time from root 0 (MPICH rule %s)", rules[0]),
		XLabel: "network (Figs. 12–14)", YLabel: "broadcast time (ms)", XNames: networkLabels(times[0]),
		Width: 9 * vg.Inch, // room for nine network names side by side
	}, out.Path("tables5-6.png")); err != nil {
		return err
	}
	for _, pol := range []string{"optimal", "mpich-binomial"} {
		if err := out.Gantt(ctx, "broadcast-fig14", pol, "kind", "gantt-fig14-"+pol+".png"); err != nil {
			return err
		}
	}
	lam, mpich := Reproduced(times[0])
	out.Notef("Search times are this machine's (the paper's on a 2.4 GHz Xeon) and vary from run to run; "+
		"nodes explored do not. Also in [tables.md](tables.md); tables5-6.png draws the model's broadcast times "+
		"beside the paper's measurements (hollow markers). The model reproduces the paper's measured ordering "+
		"of LAM against the optimum on %d of %d networks and of MPICH on %d (the last table: in the model, "+
		"without link sharing, LAM often equals the optimum where it was measured far slower); the model, "+
		"the MPI baselines and how the results differ from the paper's measurements: %s.\n\n%s",
		lam, len(times[0]), mpich, out.Ref("NOTES.md"), tables)
	return nil
}

// timeSeries are the lines of Tables 5–6 from root 0: MPICH, LAM and the
// optimum, each followed by the paper's measurement beside it (the
// optimised schedule as measured under MPICH, Table 5).
func timeSeries(rows []TimeRow) []plots.Series {
	var out []plots.Series
	for _, c := range []struct {
		name, paper  string
		ours, theirs func(TimeRow) float64
	}{
		{"MPICH, model", "MPICH, paper (Table 5)", func(r TimeRow) float64 { return r.MPICHRoot0 * 1e3 }, func(r TimeRow) float64 { return r.PaperMPICH0 }},
		{"LAM, model", "LAM, paper (Table 6)", func(r TimeRow) float64 { return r.LAMRoot0 * 1e3 }, func(r TimeRow) float64 { return r.PaperLAM0 }},
		{"optimal, model", "optimised, paper (Table 5)", func(r TimeRow) float64 { return r.Optimal * 1e3 }, func(r TimeRow) float64 { return r.PaperO }},
	} {
		ours, paper := plots.Series{Name: c.name}, plots.Series{Name: c.paper, Beside: c.name}
		for i, r := range rows {
			ours.X, ours.Y = append(ours.X, float64(i)), append(ours.Y, c.ours(r))
			paper.X, paper.Y = append(paper.X, float64(i)), append(paper.Y, c.theirs(r))
		}
		out = append(out, ours, paper)
	}
	return out
}

func networkLabels(rows []TimeRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Network.Label)
	}
	return out
}

// budgetText says what bounds each search with the cuts alone.
func budgetText(opt reproduce.Options) string {
	text := fmt.Sprintf("a budget of %d nodes", opt.Nodes)
	if opt.Budget > 0 {
		text += fmt.Sprintf(" or %v", opt.Budget)
	}
	return text
}

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
	"io"

	"github.com/netsched/netsched/models"
	bc "github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/reproduce"
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
	p := models.DefaultNetParams()
	full, err := SearchExperiment(ctx, p, bc.DefaultOptions())
	if err != nil {
		return err
	}
	cuts, err := SearchExperiment(ctx, p, CutsOnlyOptions(opt.Nodes, opt.Budget))
	if err != nil {
		return err
	}
	var times [2][]TimeRow
	for i, rule := range []bc.Rule{bc.Rule2004, bc.RuleCurrent} {
		if times[i], err = TimeExperiment(ctx, p, rule, bc.DefaultOptions()); err != nil {
			return err
		}
	}
	tables, err := out.Markdown("tables.md", func(w io.Writer) error {
		fmt.Fprint(w, "### Tables 1–4, the full search (lower bound, tie order, ECEF start, dive), each pruning on and off\n\n")
		if err := WriteSearchTables(w, full); err != nil {
			return err
		}
		fmt.Fprintf(w, "\n### Tables 1–4, RCut and SCut alone (no bound, no tie order, no starting schedule; %s per search)\n\n", budgetText(opt))
		if err := WriteSearchTables(w, cuts); err != nil {
			return err
		}
		for i, rule := range []bc.Rule{bc.Rule2004, bc.RuleCurrent} {
			fmt.Fprintf(w, "\n### Tables 5–6 at model level, ms (MPICH's selection rule %s)\n\n", rule)
			if err := WriteTimeTables(w, times[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, pol := range []string{"optimal", "mpich-binomial"} {
		if err := out.Gantt(ctx, "broadcast-fig14", pol, "kind", "gantt-fig14-"+pol+".png"); err != nil {
			return err
		}
	}
	out.Notef("Search times are this machine's (the paper's on a 2.4 GHz Xeon) and vary from run to run; "+
		"nodes explored do not. Also in [tables.md](broadcast/tables.md); the model, the MPI baselines and "+
		"how the results differ from the paper's measurements: [NOTES.md](broadcast/NOTES.md).\n\n%s", tables)
	return nil
}

// budgetText says what bounds each search with the cuts alone.
func budgetText(opt reproduce.Options) string {
	text := fmt.Sprintf("a budget of %d nodes", opt.Nodes)
	if opt.Budget > 0 {
		text += fmt.Sprintf(" or %v", opt.Budget)
	}
	return text
}

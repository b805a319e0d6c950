// Command sharing runs the experiments of issue 38, item 5, and prints
// each as CSV on stdout:
//
//	go run ./internal/experiments/sharing paper004 results/sharing/paper004.png > results/sharing/paper004.csv
//	go run ./internal/experiments/sharing recorded ../shared/data/wfcommons/*.json > results/sharing/recorded.csv
//
// paper004 replays paper 004's broadcasts under bandwidth sharing: on the
// nine networks of Tables 5–6, the MPI broadcast trees (LAM/MPI 7, MPICH
// with the paper's rule, MPICH's binomial tree and its scatter-allgather)
// and the optimal schedule, each replayed on the reservation model (as
// planned) and with its transfers as max-min flows on the tree's links,
// eagerly (ordered: each transfer as soon as its data is there) and at its
// planned starts (timed), beside the paper's measured times.
//
// recorded replays the recorded executions of WfCommons instances
// (netsched replay-recorded) again with their transfers as max-min flows
// on the machines' links, beside the recorded makespans.
package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"strconv"

	"gonum.org/v1/plot/vg"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all" // the policies by name
	bc "github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/policies/broadcast/mpi"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/reproduce/broadcast"
	"github.com/netsched/netsched/runs/recorded"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

func main() {
	var err error
	switch {
	case (len(os.Args) == 2 || len(os.Args) == 3) && os.Args[1] == "paper004":
		err = paper004(context.Background(), os.Args[2:])
	case len(os.Args) > 2 && os.Args[1] == "recorded":
		err = workflows(context.Background(), os.Args[2:])
	default:
		err = fmt.Errorf("usage: sharing paper004 | sharing recorded FILE.json...")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharing:", err)
		os.Exit(1)
	}
}

// workflows replays each recorded execution ideally and under sharing.
func workflows(ctx context.Context, files []string) error {
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"instance", "tasks", "recorded_s", "model_s", "shared_timed_s", "shared_ordered_s", "model_error", "shared_timed_error"})
	for _, file := range files {
		r, err := recorded.Replay(ctx, file, recorded.Network{Bandwidth: 1.25e8, Memory: models.DefaultMemoryBandwidth})
		if err != nil {
			return err
		}
		timed, err := makespan(ctx, r.Platform, r.Schedule, sim.Timed, network.MaxMin)
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		ordered, err := makespan(ctx, r.Platform, r.Schedule, sim.Ordered, network.MaxMin)
		if err != nil {
			return fmt.Errorf("%s: %w", r.Name, err)
		}
		timed, ordered = timed/1000, ordered/1000 // seconds
		rec, e1, e2 := "", "", ""
		if r.HasRecorded && r.Recorded > 0 {
			rec = num(r.Recorded)
			e1, e2 = num((r.Simulated-r.Recorded)/r.Recorded), num((timed-r.Recorded)/r.Recorded)
		}
		w.Write([]string{r.Name, strconv.Itoa(r.Tasks), rec, num(r.Simulated), num(timed), num(ordered), e1, e2})
	}
	w.Flush()
	return w.Error()
}

// policy is one broadcast of the comparison, and the paper's measured time
// of it from root 0 in ms (0 when the paper has none).
type policy struct {
	name     string
	options  policies.Options
	measured func(r *broadcast.TimeRow) float64
}

// paper004 replays the broadcasts of Tables 5–6 under sharing, and draws
// the figure to figure[0] if given.
func paper004(ctx context.Context, figure []string) error {
	rows, err := broadcast.TimeExperiment(ctx, trees.DefaultNetParams(), mpi.Rule2004, bc.DefaultOptions())
	if err != nil {
		return err
	}
	pols := []policy{
		{"lam", nil, func(r *broadcast.TimeRow) float64 { return r.PaperLAM0 }},
		{"mpich", policies.Options{"rule": string(mpi.Rule2004)}, func(r *broadcast.TimeRow) float64 { return r.PaperMPICH0 }},
		{"mpich-binomial", nil, func(*broadcast.TimeRow) float64 { return 0 }},
		{"mpich-scatter-allgather", nil, func(*broadcast.TimeRow) float64 { return 0 }},
		{"optimal", nil, func(r *broadcast.TimeRow) float64 { return r.PaperO }},
	}
	fig := newFigure()
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"network", "figure", "policy", "model_ms", "shared_ordered_ms", "shared_timed_ms", "ratio_ordered", "paper_measured_ms", "paper_optimised_under_lam_ms"})
	for i := range rows {
		r := &rows[i]
		p := &models.Platform{Tree: r.Network.Tree}
		for _, pol := range pols {
			e, ok := policies.Lookup(pol.name)
			if !ok {
				return fmt.Errorf("no policy %q", pol.name)
			}
			s, err := e.Planner.Plan(ctx, policies.Instance{Platform: p, Options: pol.options,
				Problem: &models.Problem{Broadcast: &models.Broadcast{Roots: []string{"0"}, Size: trees.DefaultMessageSize}}})
			if err != nil {
				return fmt.Errorf("%s on %s: %w", pol.name, r.Network.Label, err)
			}
			ideal, err := makespan(ctx, p, s, sim.Timed, nil)
			if err != nil {
				return err
			}
			ordered, err := makespan(ctx, p, s, sim.Ordered, network.MaxMin)
			if err != nil {
				return err
			}
			timed, err := makespan(ctx, p, s, sim.Timed, network.MaxMin)
			if err != nil {
				return err
			}
			lamO := ""
			if pol.name == "optimal" {
				lamO = num(r.PaperLAMO)
			}
			w.Write([]string{r.Network.Label, strconv.Itoa(r.Network.Figure), pol.name, num(ideal), num(ordered), num(timed),
				num(ordered / ideal), num(pol.measured(r)), lamO})
			fig.add(i, r, pol.name, ideal, ordered, timed)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil || len(figure) == 0 {
		return err
	}
	labels := make([]string, len(rows))
	for i := range rows {
		labels[i] = rows[i].Network.Label
	}
	return plots.SaveLines(fig.series, plots.LineOptions{
		Title:  "paper 004, Tables 5–6, under max-min sharing: broadcast time from root 0",
		XLabel: "network (Figs. 12–14)", YLabel: "broadcast time (ms)", XNames: labels, Width: 9 * vg.Inch,
		LogY: true, // 9 to 514 ms: the small networks would lie flat on a linear axis
	}, figure[0])
}

// figure is the series of the paper004 figure: LAM as the model plans it,
// eagerly under sharing and as the paper measured it; the optimal schedule
// at its planned starts under sharing and the paper's optimised one.
type figure struct{ series []plots.Series }

const (
	lamModel, lamShared, lamPaper = "LAM, reservation model", "LAM, max-min sharing (eager)", "LAM, paper (Table 6)"
	optShared, optPaper           = "optimal, max-min sharing (planned starts)", "optimised, paper (Table 5)"
)

func newFigure() *figure {
	return &figure{series: []plots.Series{{Name: lamModel}, {Name: lamShared}, {Name: lamPaper, Beside: lamShared},
		{Name: optShared}, {Name: optPaper, Beside: optShared}}}
}

// add adds network i's points of policy name.
func (f *figure) add(i int, r *broadcast.TimeRow, name string, ideal, ordered, timed float64) {
	put := func(k int, y float64) {
		f.series[k].X, f.series[k].Y = append(f.series[k].X, float64(i)), append(f.series[k].Y, y)
	}
	switch name {
	case "lam":
		put(0, ideal)
		put(1, ordered)
		put(2, r.PaperLAM0)
	case "optimal":
		put(3, timed)
		put(4, r.PaperO)
	}
}

// makespan replays s on p in mode, under sharing if it is not nil, and
// returns its makespan times 1000 (ms for seconds); an ideal replay with
// violations is an error.
func makespan(ctx context.Context, p *models.Platform, s *sim.Schedule, mode sim.Mode, sharing network.Sharing) (float64, error) {
	rp := replay.Replayer{Mode: mode, Sharing: sharing}
	res, err := rp.Replay(ctx, p, s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", s.Policy, err)
	}
	if len(res.Violations) > 0 && sharing == nil {
		return 0, fmt.Errorf("%s: %v", s.Policy, res.Violations[0])
	}
	return res.Makespan * 1000, nil
}

// num writes a figure to 4 significant digits, or "" for none.
func num(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

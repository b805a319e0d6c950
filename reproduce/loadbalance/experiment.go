package loadbalance

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	lb "github.com/netsched/netsched/policies/loadbalance"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/sim"
)

// ReproduceOptions say what Reproduce runs.
type ReproduceOptions struct {
	// Seeds is the number of seeds (1, 2, …) averaged for the randomised
	// runs: steal, and every policy when tasks have jitter. 0 means 10.
	Seeds int
	// Jitter is the task-work jitter of the noisy table (0 means 0.1).
	Jitter float64
}

// Reproduction is paper 003's experiment as netsched ran it.
type Reproduction struct {
	Paper []PaperRow
	// Runs are the policies on loadbalance.PaperInstance, seed 1 (Tables 1 and 2).
	Runs []PolicyRun
	// Noisy are the same with task works jittered by opt.Jitter, averaged
	// over the seeds.
	Noisy  []PolicyRun
	Jitter float64
	// Sweeps vary one parameter of loadbalance.PaperInstance at a time.
	Sweeps []Sweep
	// Fit is, for each measurement interval tried, how far the static and
	// power-diff tasks-processed rows are from Table 2.
	Fit []FitRow
	// Verified counts the runs replayed on the workstations platform, all
	// with zero violations and simulated makespan = claimed (Reproduce
	// fails otherwise).
	Verified int
}

// PolicyRun is one policy on one instance: per-processor finish times and
// tasks processed (means over seeds for a randomised run), the makespan
// of each seed, and the ideal bound.
type PolicyRun struct {
	Policy     string
	Finish     []float64
	Tasks      []float64
	Makespans  []float64
	Migrated   float64
	IdealBound float64
}

// Makespan is the mean makespan over the seeds.
func (p *PolicyRun) Makespan() float64 { return mean(p.Makespans) }

// Sweep is one parameter varied over values: the mean makespan of each
// policy at each value, and the ideal bound there.
type Sweep struct {
	Name     string    // what is varied
	Values   []string  // the values, as printed
	X        []float64 // the values as numbers (index for topologies)
	Policies []string
	Makespan [][]float64 // [policy][value]
	Migrated [][]float64 // [policy][value]: tasks migrated
	Bound    []float64
}

// FitRow compares Table 2 with the runs of static and power-diff at one
// measurement interval: Diff[k] is the sum over P0…P6 of |ours − paper's|
// tasks processed for the paper's row k (static, then power-diff).
type FitRow struct {
	Interval float64
	Runs     []PolicyRun
	Diff     []float64
}

// The policies every table and sweep shows, paper's first.
var reproducePolicies = []string{lb.Static, lb.PowerDiff, lb.None, lb.Steal}

// Reproduce runs paper 003's experiment (loadbalance.PaperInstance) under every policy
// beside Tables 1 and 2, again with noisy task times, sweeps of the
// external load share of P1, P3, P6 (0–0.9), of the topology (tree, ring,
// complete) and of the Power interval, and the fit of the interval to
// Table 2. Every run is replayed on the workstations platform as a check.
func Reproduce(ctx context.Context, opt ReproduceOptions) (*Reproduction, error) {
	if opt.Seeds <= 0 {
		opt.Seeds = 10
	}
	if opt.Jitter == 0 {
		opt.Jitter = 0.1
	}
	x := &experiment{ctx: ctx, seeds: opt.Seeds}
	rep := &Reproduction{Paper: PaperTables(), Jitter: opt.Jitter}
	pl, pr := lb.PaperInstance()
	var err error
	if rep.Runs, err = x.all(pl, pr); err != nil {
		return nil, err
	}
	noisy := *pr.Balance
	noisy.Jitter = opt.Jitter
	if rep.Noisy, err = x.all(pl, &models.Problem{Balance: &noisy}); err != nil {
		return nil, err
	}
	for _, sw := range paperSweeps() {
		s, err := x.sweep(sw)
		if err != nil {
			return nil, err
		}
		rep.Sweeps = append(rep.Sweeps, *s)
	}
	if rep.Fit, err = x.fit(); err != nil {
		return nil, err
	}
	rep.Verified = x.verified
	return rep, nil
}

// experiment runs and verifies policies.
type experiment struct {
	ctx      context.Context
	seeds    int
	verified int
}

// all runs every policy of the reproduction on one instance.
func (x *experiment) all(pl *models.Platform, pr *models.Problem) ([]PolicyRun, error) {
	var runs []PolicyRun
	for _, name := range reproducePolicies {
		r, err := x.run(name, pl, pr)
		if err != nil {
			return nil, err
		}
		runs = append(runs, *r)
	}
	return runs, nil
}

// run runs one policy, over the seeds if it is randomised, replaying
// every schedule.
func (x *experiment) run(name string, pl *models.Platform, pr *models.Problem) (*PolicyRun, error) {
	p, _ := lb.Lookup(name)
	seeds := 1
	if name == lb.Steal || pr.Balance.Jitter > 0 {
		seeds = x.seeds
	}
	n := len(pl.Workstations.Processors)
	out := &PolicyRun{Policy: name, Finish: make([]float64, n), Tasks: make([]float64, n)}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		in := policies.Instance{Platform: pl, Problem: pr, Seed: seed}
		s, err := p.Plan(x.ctx, in)
		if err != nil {
			return nil, fmt.Errorf("%s, seed %d: %w", name, seed, err)
		}
		if err := x.verify(pl, s); err != nil {
			return nil, fmt.Errorf("%s, seed %d: %w", name, seed, err)
		}
		for i := range n {
			out.Finish[i] += s.Metrics["finish_"+pl.Workstations.Name(i)] / float64(seeds)
			out.Tasks[i] += s.Metrics["tasks_"+pl.Workstations.Name(i)] / float64(seeds)
		}
		out.Makespans = append(out.Makespans, s.Claimed)
		out.Migrated += s.Metrics["tasks_migrated"] / float64(seeds)
		out.IdealBound = s.Metrics["ideal_bound"]
	}
	return out, nil
}

// verify replays s in timed mode: no violation, simulated = claimed.
func (x *experiment) verify(pl *models.Platform, s *sim.Schedule) error {
	res, err := replay.Replay(x.ctx, pl, s, sim.Timed)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if !res.OK() {
		return fmt.Errorf("replay: %d violations, simulated %g, claimed %g", len(res.Violations), res.Makespan, res.Claimed)
	}
	x.verified++
	return nil
}

// sweepSpec is one sweep: a value's label, number and how it changes
// loadbalance.PaperInstance.
type sweepSpec struct {
	name   string
	labels []string
	xs     []float64
	set    func(pl *models.Platform, pr *models.Problem, x float64, label string)
}

func paperSweeps() []sweepSpec {
	shares := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	intervals := []float64{0.25, 0.5, 1, 2, 4, 8}
	return []sweepSpec{
		{name: "external load share of P1, P3, P6", xs: shares,
			set: func(pl *models.Platform, _ *models.Problem, x float64, _ string) {
				pl.Workstations.Profiles[0].Share = x
			}},
		{name: "topology", labels: []string{models.TopologyTree, models.TopologyRing, models.TopologyComplete}, xs: []float64{0, 1, 2},
			set: func(pl *models.Platform, _ *models.Problem, _ float64, l string) { pl.Workstations.Topology = l }},
		{name: "Power interval (s)", xs: intervals,
			set: func(_ *models.Platform, pr *models.Problem, x float64, _ string) { pr.Balance.Interval = x }},
	}
}

func (x *experiment) sweep(sw sweepSpec) (*Sweep, error) {
	out := &Sweep{Name: sw.name, X: sw.xs, Policies: reproducePolicies,
		Makespan: make([][]float64, len(reproducePolicies)), Migrated: make([][]float64, len(reproducePolicies))}
	for k, v := range sw.xs {
		label := fmt.Sprint(v)
		if sw.labels != nil {
			label = sw.labels[k]
		}
		out.Values = append(out.Values, label)
		pl, pr := lb.PaperInstance()
		sw.set(pl, pr, v, label)
		for i, name := range reproducePolicies {
			r, err := x.run(name, pl, pr)
			if err != nil {
				return nil, fmt.Errorf("sweep %s = %s: %w", sw.name, label, err)
			}
			out.Makespan[i] = append(out.Makespan[i], r.Makespan())
			out.Migrated[i] = append(out.Migrated[i], r.Migrated)
			if i == 0 {
				out.Bound = append(out.Bound, r.IdealBound)
			}
		}
	}
	return out, nil
}

// fit runs static and power-diff at several measurement intervals and
// measures how far their tasks processed are from Table 2.
func (x *experiment) fit() ([]FitRow, error) {
	paper := PaperTables()
	var rows []FitRow
	for _, iv := range []float64{0.5, 1, 2, 3, 4, 5, 6, 8} {
		pl, pr := lb.PaperInstance()
		pr.Balance.Interval = iv
		row := FitRow{Interval: iv}
		for _, pp := range paper {
			r, err := x.run(pp.Policy, pl, pr)
			if err != nil {
				return nil, err
			}
			d := 0.0
			for i, t := range r.Tasks {
				d += math.Abs(t - float64(pp.Tasks[i]))
			}
			row.Runs, row.Diff = append(row.Runs, *r), append(row.Diff, d)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// Document returns the comparison, in order, for reproduce.Output.Document:
// the setting, Tables 1 and 2 beside ours, the makespan against the
// ideal bound, the noisy runs, the sweeps, the interval fit and the
// check of every run. Text parts are strings, tables *reproduce.Table.
func (r *Reproduction) Document() []any {
	pl, pr := lb.PaperInstance()
	ws := pl.Workstations
	parts := []any{fmt.Sprintf("Setting (PaperInstance): %d processors of speed 1 on a binary tree (P0 root; P1, P2; P3, P4 under P1; P5, P6 under P2), "+
		"P1, P3, P6 under %.0f %% external load, %d tasks of %g s (unloaded) each, Power every %g s, "+
		"message latency %g s, %g s per migrated task. The paper's loaded processors took about 1.48 s a task "+
		"(Table 1, P1 static: 114.20 s for 77 tasks), ours %.3f s.\n\n",
		len(ws.Processors), 100*lb.PaperShare, pr.Balance.Tasks, pr.Balance.Work, pr.Balance.Interval,
		ws.Latency, ws.PerTask, lb.PaperWork/(1-lb.PaperShare))}
	noisy := fmt.Sprintf("task works jittered by ±%.0f %% (mean of the seeds)", 100*r.Jitter)
	parts = append(parts,
		runTable("table1-finish", "Table 1: finish time of each processor", r.Paper, r.Runs, ws, true),
		runTable("table2-tasks", "Table 2: tasks processed by each processor", r.Paper, r.Runs, ws, false),
		boundTable("bound", "Makespan against the ideal bound (total work / total effective speed)", r.Runs),
		runTable("table2-tasks-noisy", "Table 2, "+noisy, r.Paper, r.Noisy, ws, false),
		boundTable("bound-noisy", "Makespan against the ideal bound, "+noisy, r.Noisy))
	for i := range r.Sweeps {
		parts = append(parts, sweepTable(fmt.Sprintf("sweep-%d", i+1), &r.Sweeps[i]))
	}
	parts = append(parts, r.fitTables(ws)...)
	return append(parts, fmt.Sprintf("Every one of the %d runs above replayed on the workstations platform (timed) with zero violations "+
		"and simulated makespan = claimed, and processed every task exactly once (tasks_conserved = 1).\n", r.Verified))
}

// fitTables are how far Table 2 is from ours at each interval, and the
// rows of the interval that fits each method best.
func (r *Reproduction) fitTables(ws *models.Workstations) []any {
	fit := &reproduce.Table{Name: "fit-interval", Title: "Which Power interval fits Table 2",
		Note: "Σ over P0…P6 of |ours − paper's| tasks processed.",
		Columns: []reproduce.Column{{Name: "Power interval", Unit: "s"}, {Name: "distance to Table 2, static", Unit: "tasks"},
			{Name: "distance to Table 2, power-diff", Unit: "tasks"}}}
	for _, f := range r.Fit {
		fit.Rows = append(fit.Rows, []reproduce.Cell{reproduce.Sig(f.Interval, 6), reproduce.Sig(f.Diff[0], 6), reproduce.Sig(f.Diff[1], 6)})
	}
	var best []PolicyRun
	for k := range r.Paper {
		i := 0
		for j, f := range r.Fit {
			if f.Diff[k] < r.Fit[i].Diff[k] {
				i = j
			}
		}
		run := r.Fit[i].Runs[k]
		run.Policy = fmt.Sprintf("%s, interval %g s", run.Policy, r.Fit[i].Interval)
		best = append(best, run)
	}
	paper := slices.Clone(r.Paper)
	for k := range paper {
		paper[k].Policy = best[k].Policy
	}
	return []any{fit,
		runTable("table1-finish-best-interval", "Table 1 at the best-fitting interval of each method", paper, best, ws, true),
		runTable("table2-tasks-best-interval", "Table 2 at the best-fitting interval of each method", paper, best, ws, false)}
}

// runTable is Table 1 (finish times) or Table 2 (tasks processed): a row
// per policy and source (the paper's above ours), a column per processor.
func runTable(name, title string, paper []PaperRow, runs []PolicyRun, ws *models.Workstations, finish bool) *reproduce.Table {
	t := &reproduce.Table{Name: name, Title: title, Columns: []reproduce.Column{{Name: "policy"}, {Name: "source"}}}
	for i := range ws.Processors {
		c := reproduce.Column{Name: "tasks, " + ws.Name(i)}
		if finish {
			c = reproduce.Column{Name: "finish, " + ws.Name(i), Unit: "s"}
		}
		t.Columns = append(t.Columns, c)
	}
	for _, run := range runs {
		if k := slices.IndexFunc(paper, func(p PaperRow) bool { return p.Policy == run.Policy }); k >= 0 {
			row := []reproduce.Cell{reproduce.Text(run.Policy), reproduce.Text("paper")}
			for i := range ws.Processors {
				if finish {
					row = append(row, reproduce.Fixed(paper[k].Finish[i], 2))
				} else {
					row = append(row, reproduce.Int(paper[k].Tasks[i]))
				}
			}
			t.Rows = append(t.Rows, row)
		}
		row := []reproduce.Cell{reproduce.Text(run.Policy), reproduce.Text("ours")}
		for i := range ws.Processors {
			if finish {
				row = append(row, reproduce.Fixed(run.Finish[i], 2))
			} else {
				row = append(row, reproduce.Sig(run.Tasks[i], 4))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func boundTable(name, title string, runs []PolicyRun) *reproduce.Table {
	t := &reproduce.Table{Name: name, Title: title, Columns: []reproduce.Column{{Name: "policy"},
		{Name: "makespan, mean", Unit: "s"}, {Name: "makespan, min", Unit: "s"}, {Name: "makespan, max", Unit: "s"},
		{Name: "ideal bound", Unit: "s"}, {Name: "makespan / bound"}, {Name: "tasks migrated"}}}
	for _, run := range runs {
		t.Rows = append(t.Rows, []reproduce.Cell{reproduce.Text(run.Policy), reproduce.Fixed(run.Makespan(), 2),
			reproduce.Fixed(slices.Min(run.Makespans), 2), reproduce.Fixed(slices.Max(run.Makespans), 2),
			reproduce.Fixed(run.IdealBound, 2), reproduce.Fixed(run.Makespan()/run.IdealBound, 3), reproduce.Sig(run.Migrated, 4)})
	}
	return t
}

// sweepTable is one sweep: per value, each policy's mean makespan and
// tasks migrated, and the ideal bound.
func sweepTable(name string, s *Sweep) *reproduce.Table {
	x := reproduce.Column{Name: s.Name}
	if n, u, ok := strings.Cut(s.Name, " ("); ok { // "Power interval (s)"
		x = reproduce.Column{Name: n, Unit: strings.TrimSuffix(u, ")")}
	}
	t := &reproduce.Table{Name: name, Title: "Sweep: " + s.Name, Columns: []reproduce.Column{x}}
	for _, p := range s.Policies {
		t.Columns = append(t.Columns, reproduce.Column{Name: "makespan, " + p, Unit: "s"})
	}
	for _, p := range s.Policies {
		t.Columns = append(t.Columns, reproduce.Column{Name: "tasks migrated, " + p})
	}
	t.Columns = append(t.Columns, reproduce.Column{Name: "ideal bound", Unit: "s"})
	for k, v := range s.Values {
		row := []reproduce.Cell{reproduce.Text(v)}
		for i := range s.Policies {
			row = append(row, reproduce.Fixed(s.Makespan[i][k], 2))
		}
		for i := range s.Policies {
			row = append(row, reproduce.Sig(s.Migrated[i][k], 4))
		}
		t.Rows = append(t.Rows, append(row, reproduce.Fixed(s.Bound[k], 2)))
	}
	return t
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/policies/heft"
	"github.com/netsched/netsched/sim"
)

// cmdReplayRecorded replays the recorded executions of WfCommons
// instances on the platform of their machines and compares the simulated
// makespan with the recorded one.
func cmdReplayRecorded(ctx context.Context, args []string, st streams) error {
	fs := newFlags("replay-recorded", "replay-recorded FILE.json... [flags]", st.out)
	bandwidth := fs.Float64("bandwidth", 1.25e8, "network bandwidth between two machines, bytes per second (β = 1/bandwidth)")
	memory := fs.Float64("memory", models.DefaultMemoryBandwidth, "bandwidth between two cores of one machine, bytes per second")
	alpha := fs.Float64("alpha", 0, "start-up latency of every transfer, seconds")
	ganttOut := fs.StringP("gantt", "o", "", "also draw the replay's Gantt chart to this file (.png, .svg, .pdf; one FILE only)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInputf("replay-recorded: want at least one WfCommons FILE.json")
	}
	if !(*bandwidth > 0) || math.IsInf(*bandwidth, 0) {
		return badInputf("replay-recorded: --bandwidth must be a finite number > 0, got %v", *bandwidth)
	}
	if !(*memory > 0) || math.IsInf(*memory, 0) {
		return badInputf("replay-recorded: --memory must be a finite number > 0, got %v", *memory)
	}
	if !(*alpha >= 0) || math.IsInf(*alpha, 0) {
		return badInputf("replay-recorded: --alpha must be a finite number >= 0, got %v", *alpha)
	}
	if *ganttOut != "" && fs.NArg() != 1 {
		return badInputf("replay-recorded: --gantt draws one FILE's replay, %d given", fs.NArg())
	}
	if err := checkPlotPath(*ganttOut); err != nil {
		return err
	}
	var rows []*recordedRun
	for _, file := range fs.Args() {
		r, err := replayRecorded(ctx, file, *bandwidth, *memory, *alpha)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	if *ganttOut != "" {
		r := rows[0]
		if err := plots.SaveGantt(r.result.Trace, plots.GanttOptions{Title: "recorded: " + r.name}, *ganttOut); err != nil {
			return err
		}
	}
	writeRecorded(st.out, rows, *bandwidth, *memory)
	for _, r := range rows {
		if !r.verified {
			return fmt.Errorf("replay-recorded: the replay of %s is not verified: %v", r.name, r.result.Violations)
		}
	}
	return nil
}

// recordedRun is the replay of one recorded execution.
type recordedRun struct {
	name                string
	tasks, machines     int
	cores               int
	recorded, simulated float64
	hasRecorded         bool
	runtimes, path      float64 // the sum of the runtimes, and the longest path in runtimes
	depth               int     // the tasks on that path
	order               string  // "recorded starts" or "document"
	verified            bool
	result              *sim.Result
}

// replayRecorded replays the recorded execution of the WfCommons instance
// in file: each task on a core of the machine it ran on (any core if none
// is recorded), taking its recorded runtime there, in the order of the
// recorded starts (in the document's order, made topological, when the
// instance records none), each on the core of its machine where it ends
// first, its input files transferred between cores of one machine at the
// memory bandwidth and between machines at the network bandwidth through
// their network interfaces (models.WorkflowPlatform). The schedule is
// verified by the replay and the problem checks.
func replayRecorded(ctx context.Context, file string, bandwidth, memory, alpha float64) (*recordedRun, error) {
	w, err := models.ReadWfCommonsFile(file)
	if err != nil {
		return nil, badInput(err)
	}
	mc, err := models.WorkflowPlatform(w, bandwidth, memory, alpha)
	if err != nil {
		return nil, badInputf("%s: %w", file, err)
	}
	pl := &models.Platform{MultiCluster: mc}
	cores := models.MachineCores(w)
	all := make([]int, mc.NumProcessors())
	for p := range all {
		all[p] = p
	}
	// A task weighs its runtime in the first recorded speed's seconds, so
	// that it takes its recorded runtime on its own machine.
	g := &models.DAG{Tasks: slices.Clone(w.DAG.Tasks), Edges: w.DAG.Edges}
	allowed := make([][]int, len(g.Tasks))
	for v, t := range w.Tasks {
		allowed[v] = all
		if ps, ok := cores[t.Machine]; ok {
			allowed[v] = ps
			c, j, _ := mc.Locate(ps[0])
			g.Tasks[v].Weight = t.Runtime / mc.Clusters[c].Processors[j].Gamma
		}
	}
	order, how := recordedOrder(w)
	s, err := heft.PlanConstrained(ctx, pl, g, heft.Constraints{Order: order, Allowed: func(v int) []int { return allowed[v] }},
		"recorded", nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	res, err := check.Replay(ctx, pl, &models.Problem{DAG: g}, s, sim.Timed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	r := &recordedRun{name: filepath.Base(file), tasks: len(g.Tasks), machines: len(w.Machines), cores: len(all),
		recorded: w.Makespan, hasRecorded: w.HasMakespan, simulated: res.Makespan, order: how,
		verified: res.OK() && res.Matches(), result: res}
	r.runtimes, r.path, r.depth = runtimeBounds(w)
	return r, nil
}

// recordedOrder is the order of the recorded starts when every task has
// one (ties in the document's order), else the document's order; either
// made topological by taking, among the tasks whose parents are placed,
// the first in that order.
func recordedOrder(w *models.Workflow) ([]int, string) {
	n := len(w.Tasks)
	rank := make([]int, n) // position in the preferred order
	pref := make([]int, n)
	for v := range pref {
		pref[v] = v
	}
	how := "document"
	if !slices.ContainsFunc(w.Tasks, func(t models.WorkflowTask) bool { return !t.HasStart }) {
		slices.SortStableFunc(pref, func(a, b int) int { return cmp.Compare(w.Tasks[a].Start, w.Tasks[b].Start) })
		how = "recorded starts"
	}
	for k, v := range pref {
		rank[v] = k
	}
	waiting := make([]int, n)
	succ := make([][]int, n)
	for _, e := range w.DAG.Edges {
		waiting[e.To]++
		succ[e.From] = append(succ[e.From], e.To)
	}
	var ready, order []int
	for v := range n {
		if waiting[v] == 0 {
			ready = append(ready, v)
		}
	}
	for len(ready) > 0 {
		k := 0
		for i := range ready {
			if rank[ready[i]] < rank[ready[k]] {
				k = i
			}
		}
		v := ready[k]
		ready = slices.Delete(ready, k, k+1)
		order = append(order, v)
		for _, c := range succ[v] {
			if waiting[c]--; waiting[c] == 0 {
				ready = append(ready, c)
			}
		}
	}
	return order, how
}

// runtimeBounds are the sum of the runtimes and the longest path in
// runtimes, a lower bound of any execution that keeps them (no time for
// data or for the workflow system), with the number of tasks on it.
func runtimeBounds(w *models.Workflow) (sum, path float64, depth int) {
	topo, err := w.DAG.Topology()
	if err != nil {
		return math.NaN(), math.NaN(), 0
	}
	end := make([]float64, len(w.Tasks))
	tasks := make([]int, len(w.Tasks))
	for _, v := range topo.Order {
		start := 0.0
		for _, u := range topo.Preds(v) {
			if end[u] > start || end[u] == start && tasks[u] > tasks[v]-1 {
				start, tasks[v] = end[u], tasks[u]
			}
		}
		tasks[v]++
		end[v] = start + w.Tasks[v].Runtime
		sum += w.Tasks[v].Runtime
		if end[v] > path || end[v] == path && tasks[v] > depth {
			path, depth = end[v], tasks[v]
		}
	}
	return sum, path, depth
}

// writeRecorded writes the runs as a Markdown table.
func writeRecorded(out io.Writer, rows []*recordedRun, bandwidth, memory float64) {
	fmt.Fprintf(out, "| instance | tasks | machines (cores) | order | recorded makespan (s) | simulated (s) | error | longest path in runtimes (s, tasks) | gap per task of that path (s) | sum of runtimes (s) | verified |\n")
	fmt.Fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		rec, errText, gap := "none", "–", "–"
		if r.hasRecorded {
			rec = fmt.Sprintf("%.1f", r.recorded)
			if r.recorded > 0 {
				errText = fmt.Sprintf("%+.1f %%", 100*(r.simulated-r.recorded)/r.recorded)
			}
			if r.depth > 0 {
				gap = fmt.Sprintf("%.1f", (r.recorded-r.simulated)/float64(r.depth))
			}
		}
		fmt.Fprintf(out, "| %s | %d | %d (%d) | %s | %s | %.1f | %s | %.1f, %d | %s | %.1f | %v |\n",
			r.name, r.tasks, r.machines, r.cores, r.order, rec, r.simulated, errText, r.path, r.depth, gap, r.runtimes, yesNo(r.verified))
	}
	fmt.Fprintf(out, "\nnetwork %.4g bytes/s, memory %.4g bytes/s; error = (simulated − recorded) / recorded; gap per task = (recorded − simulated) / tasks on the longest path\n", bandwidth, memory)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

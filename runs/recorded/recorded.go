// Package recorded replays the recorded executions of WfCommons workflow
// instances on the platform of their machines (wfcommons.MultiCluster):
// each task on its recorded machine, for its recorded runtime, in the order
// of its recorded start, so that the simulated makespan can be compared with
// the recorded one (netsched replay-recorded).
package recorded

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/formats/wfcommons"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/heft"
	"github.com/netsched/netsched/sim"
)

// Run is the replay of one recorded execution.
type Run struct {
	Name                string // the instance file's base name
	Tasks, Machines     int
	Cores               int     // processors of the platform, one per recorded core
	Recorded, Simulated float64 // the recorded makespan and the replay's
	HasRecorded         bool    // the instance records its makespan
	Runtimes, Path      float64 // the sum of the runtimes, and the longest path in runtimes
	Depth               int     // the tasks on that path
	Order               string  // "recorded starts" or "document"
	Verified            bool    // the replay keeps the platform's rules and solves the workflow
	Result              *sim.Result
	Schedule            *sim.Schedule // the replayed schedule, on Platform
	Platform            *models.Platform
}

// Network is the platform's communication: bytes per second between two
// machines and between two cores of one machine, and the start-up latency
// of every transfer in seconds.
type Network struct {
	Bandwidth, Memory, Alpha float64
}

// Instance is a recorded execution ready to replay: the workflow, its
// platform, and the schedule constraints its record gives.
type Instance struct {
	file    string
	w       *wfcommons.Workflow
	pl      *models.Platform
	g       *models.DAG
	allowed [][]int
	cores   int
}

// Load prepares the replay of the recorded execution of the WfCommons
// instance in file: each task on a core of the machine it ran on (any core if none
// is recorded), taking its recorded runtime there, in the order of the
// recorded starts (in the document's order, made topological, when the
// instance records none), each on the core of its machine where it ends
// first, its input files transferred between cores of one machine at the
// memory bandwidth and between machines at the network bandwidth through
// their network interfaces (wfcommons.MultiCluster). The schedule is
// verified by the replay and the problem checks.
//
// Load reads the instance; its errors are the file's (bad input).
func Load(file string, net Network) (*Instance, error) {
	w, err := wfcommons.ReadFile(file)
	if err != nil {
		return nil, err
	}
	mc, err := wfcommons.MultiCluster(w, net.Bandwidth, net.Memory, net.Alpha)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	pl := &models.Platform{MultiCluster: mc}
	cores := wfcommons.MachineCores(w)
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
	return &Instance{file: file, w: w, pl: pl, g: g, allowed: allowed, cores: len(all)}, nil
}

// Replay replays the recorded execution and checks it.
func (in *Instance) Replay(ctx context.Context) (*Run, error) {
	order, how := recordedOrder(in.w)
	s, err := heft.PlanConstrained(ctx, in.pl, in.g, heft.Constraints{Order: order, Allowed: func(v int) []int { return in.allowed[v] }},
		"recorded", nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.file, err)
	}
	res, err := check.Replay(ctx, in.pl, &models.Problem{DAG: in.g}, s, sim.Timed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.file, err)
	}
	w := in.w
	r := &Run{Name: filepath.Base(in.file), Tasks: len(in.g.Tasks), Machines: len(w.Machines), Cores: in.cores,
		Recorded: w.Makespan, HasRecorded: w.HasMakespan, Simulated: res.Makespan, Order: how,
		Verified: res.OK() && res.Matches(), Result: res, Schedule: s, Platform: in.pl}
	r.Runtimes, r.Path, r.Depth = runtimeBounds(w)
	return r, nil
}

// Replay loads the instance in file and replays its recorded execution.
func Replay(ctx context.Context, file string, net Network) (*Run, error) {
	in, err := Load(file, net)
	if err != nil {
		return nil, err
	}
	return in.Replay(ctx)
}

// recordedOrder is the order of the recorded starts when every task has
// one (ties in the document's order), else the document's order; either
// made topological by taking, among the tasks whose parents are placed,
// the first in that order.
func recordedOrder(w *wfcommons.Workflow) ([]int, string) {
	n := len(w.Tasks)
	rank := make([]int, n) // position in the preferred order
	pref := make([]int, n)
	for v := range pref {
		pref[v] = v
	}
	how := "document"
	if !slices.ContainsFunc(w.Tasks, func(t wfcommons.Task) bool { return !t.HasStart }) {
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
func runtimeBounds(w *wfcommons.Workflow) (sum, path float64, depth int) {
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

// WriteTable writes the runs as a Markdown table, with a line naming the
// network's bandwidths.
func WriteTable(out io.Writer, rows []*Run, net Network) {
	fmt.Fprintf(out, "| instance | tasks | machines (cores) | order | recorded makespan (s) | simulated (s) | error | longest path in runtimes (s, tasks) | gap per task of that path (s) | sum of runtimes (s) | verified |\n")
	fmt.Fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		rec, errText, gap := "none", "–", "–"
		if r.HasRecorded {
			rec = fmt.Sprintf("%.1f", r.Recorded)
			if r.Recorded > 0 {
				errText = fmt.Sprintf("%+.1f %%", 100*(r.Simulated-r.Recorded)/r.Recorded)
			}
			if r.Depth > 0 {
				gap = fmt.Sprintf("%.1f", (r.Recorded-r.Simulated)/float64(r.Depth))
			}
		}
		fmt.Fprintf(out, "| %s | %d | %d (%d) | %s | %s | %.1f | %s | %.1f, %d | %s | %.1f | %v |\n",
			r.Name, r.Tasks, r.Machines, r.Cores, r.Order, rec, r.Simulated, errText, r.Path, r.Depth, gap, r.Runtimes, yesNo(r.Verified))
	}
	fmt.Fprintf(out, "\nnetwork %.4g bytes/s, memory %.4g bytes/s; error = (simulated − recorded) / recorded; gap per task = (recorded − simulated) / tasks on the longest path\n", net.Bandwidth, net.Memory)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

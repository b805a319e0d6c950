package models

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DAG is a task graph: tasks with a computation weight, and precedence edges
// that may carry a data size. Paper 002 uses unit weights and ignores data
// sizes (the delay ρ is uniform).
type DAG struct {
	Tasks []Task    `yaml:"tasks,omitempty" json:"tasks"`
	Edges []DAGEdge `yaml:"edges,omitempty" json:"edges"`
	// From, in a scenario, loads the tasks and edges from a file or a
	// generator instead (see formats.ResolveDAG).
	From *DAGSource `yaml:"from,omitempty" json:"from,omitempty"`
}

// Task is one node of a DAG.
type Task struct {
	Name   string  `yaml:"name,omitempty" json:"name,omitempty"`
	Weight float64 `yaml:"weight" json:"weight"`
}

// DAGEdge says task From must finish before task To starts (indices).
type DAGEdge struct {
	From int     `yaml:"from" json:"from"`
	To   int     `yaml:"to" json:"to"`
	Data float64 `yaml:"data,omitempty" json:"data,omitempty"`
}

// TaskName is the display name of task i: its name, or "t<i>".
func (g *DAG) TaskName(i int) string {
	if g.Tasks[i].Name != "" {
		return g.Tasks[i].Name
	}
	return indexName(taskNames, "t", i)
}

// Preds and Succs return adjacency lists indexed by task.
func (g *DAG) Preds() [][]int { return g.adjacency(toFrom) }

// Succs returns, for each task, the tasks that depend on it.
func (g *DAG) Succs() [][]int { return g.adjacency(fromTo) }

func fromTo(e DAGEdge) (int, int) { return e.From, e.To }
func toFrom(e DAGEdge) (int, int) { return e.To, e.From }

func (g *DAG) adjacency(ends func(DAGEdge) (int, int)) [][]int {
	// Two allocations whatever the size: the lists share one backing
	// array, each capped at its own length so an append cannot spill
	// into the next.
	n := len(g.Tasks)
	start, flat := g.compressed(make([]int, n+1+len(g.Edges)), ends)
	adj := make([][]int, n)
	for i := range adj {
		adj[i] = run(start, flat, i)
	}
	return adj
}

// compressed writes the adjacency given by ends into buf, which holds
// len(g.Tasks)+1+len(g.Edges) ints: the neighbours of task v, in edge
// order, are flat[start[v]:start[v+1]].
func (g *DAG) compressed(buf []int, ends func(DAGEdge) (int, int)) (start, flat []int) {
	n := len(g.Tasks)
	start, flat = buf[:n+1], buf[n+1:]
	clear(start)
	for _, e := range g.Edges {
		u, _ := ends(e)
		start[u+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	for _, e := range g.Edges { // start[u] moves through u's run
		u, v := ends(e)
		flat[start[u]] = v
		start[u]++
	}
	copy(start[1:], start[:n]) // and back: each run now starts where the previous ended
	start[0] = 0
	return start, flat
}

// Topology is what a list scheduler needs of a DAG: a topological order
// (TopoOrder's) and each task's predecessors and successors in edge order,
// computed together in one allocation.
type Topology struct {
	Order            []int
	predStart, preds []int
	succStart, succs []int
}

// Topology computes g's topology, or an error naming a task on a cycle.
func (g *DAG) Topology() (Topology, error) {
	return g.TopologyIn(func(n int) []int { return make([]int, n) })
}

// TopologyIn is Topology in the memory ints returns, called once: a
// policy passes sim.Schedule.Ints to keep it in its schedule's memory.
func (g *DAG) TopologyIn(ints func(n int) []int) (Topology, error) {
	n, m, k := len(g.Tasks), len(g.Edges), g.topoBufLen()
	buf := ints(k + n + 1 + m)
	order, err := g.topoOrder(buf[:k])
	if err != nil {
		return Topology{}, err
	}
	t := Topology{Order: order, succStart: buf[2*n : 3*n+1], succs: buf[3*n+1 : k]}
	t.predStart, t.preds = g.compressed(buf[k:], toFrom)
	return t, nil
}

// Preds lists the tasks task v follows, in edge order.
func (t *Topology) Preds(v int) []int { return run(t.predStart, t.preds, v) }

// Succs lists the tasks that follow task v, in edge order.
func (t *Topology) Succs(v int) []int { return run(t.succStart, t.succs, v) }

// run is v's run of a compressed adjacency, capped so that an append
// cannot spill into the next.
func run(start, flat []int, v int) []int { return flat[start[v]:start[v+1]:start[v+1]] }

// TopoOrder returns the tasks in a topological order (Kahn's algorithm,
// ready tasks taken first in, first out, sources by index), or an error
// naming a task on a cycle. It allocates once.
func (g *DAG) TopoOrder() ([]int, error) {
	return g.topoOrder(make([]int, g.topoBufLen()))
}

// topoBufLen is the number of ints topoOrder works in.
func (g *DAG) topoBufLen() int { return 3*len(g.Tasks) + 1 + len(g.Edges) }

// topoOrder is TopoOrder in buf, of topoBufLen ints: the order it returns
// is buf[:n], and buf[2n:] holds the successor lists as compressed writes
// them (n tasks).
func (g *DAG) topoOrder(buf []int) ([]int, error) {
	n := len(g.Tasks)
	order, indeg := buf[:0:n], buf[n:2*n]
	clear(indeg)
	start, succ := g.compressed(buf[2*n:], fromTo)
	for _, e := range g.Edges {
		indeg[e.To]++
	}
	for v, d := range indeg {
		if d == 0 {
			order = append(order, v)
		}
	}
	for i := 0; i < len(order); i++ {
		u := order[i]
		for _, w := range succ[start[u]:start[u+1]] {
			if indeg[w]--; indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	if len(order) != n {
		for v, d := range indeg {
			if d > 0 {
				return nil, fmt.Errorf("task %s is on a cycle", g.TaskName(v))
			}
		}
	}
	return order, nil
}

// validateEdge names the field of an edge that is wrong and what is wrong
// with it, or returns an empty message. Paths are built only on error,
// since sweeps validate every point.
func (g *DAG) validateEdge(e DAGEdge) (field, msg string) {
	switch {
	case e.From < 0 || e.From >= len(g.Tasks):
		return "from", fmt.Sprintf("task %d does not exist (%d tasks)", e.From, len(g.Tasks))
	case e.To < 0 || e.To >= len(g.Tasks):
		return "to", fmt.Sprintf("task %d does not exist (%d tasks)", e.To, len(g.Tasks))
	case !(e.Data >= 0) || math.IsInf(e.Data, 0):
		return "data", fmt.Sprintf("must be a finite number >= 0, got %v", e.Data)
	}
	return "", ""
}

// Validate checks weights, edge ends and acyclicity. It allocates only
// TopoOrder's buffer.
func (g *DAG) Validate(path string) error { return g.validate(rootPath(path)) }

// validate is Validate below a path kept in pieces.
func (g *DAG) validate(path fieldPath) error {
	if len(g.Tasks) == 0 {
		return fieldErr(path.field("tasks"), "must list at least one task")
	}
	for i, t := range g.Tasks {
		if !(t.Weight >= 0) || math.IsInf(t.Weight, 0) {
			tp := path.elem("tasks", i)
			return fieldErr(tp.field("weight"), "must be a finite number >= 0, got %v", t.Weight)
		}
	}
	for i, e := range g.Edges {
		if field, msg := g.validateEdge(e); msg != "" {
			ep := path.elem("edges", i)
			return fieldErr(ep.field(field), "%s", msg)
		}
	}
	// Small graphs are ordered in a buffer on the stack: sweeps validate
	// every point's graph, and a policy validates it again.
	var small [scratchLen]int
	if _, err := g.topoOrder(scratch(small[:], g.topoBufLen())); err != nil {
		return fieldErr(path.field("edges"), "%v: a task graph must be acyclic", err)
	}
	return nil
}

// EdgeSep separates the names of an edge's two tasks in the label of a
// transfer that carries the edge's data (EdgeLabel).
const EdgeSep = "→"

// EdgeLabel is the label of a transfer that carries the data of edge e
// from the processor of its tail to the processor of its head, on a
// platform with a network (crossbar, multi-cluster): "<from>→<to>", the
// two tasks' names, as EdgeLabelOf writes them.
func (g *DAG) EdgeLabel(e DAGEdge) string {
	return EdgeLabelOf(g.TaskName(e.From), g.TaskName(e.To))
}

// EdgeLabelOf is the label of a transfer carrying data from task from to
// task to: "<from>→<to>". A name that holds EdgeSep or begins with a
// double quote is written as a Go (or JSON) quoted string, so that with
// tasks "a", "b→c", "a→b" and "c", the edge from a to b→c is labelled
// a→"b→c" and the edge from a→b to c "a→b"→c: every label names one pair
// of tasks (ParseEdgeLabel).
func EdgeLabelOf(from, to string) string {
	return labelName(from) + EdgeSep + labelName(to)
}

// labelName writes a task's name as EdgeLabelOf does.
func labelName(name string) string {
	if strings.Contains(name, EdgeSep) || strings.HasPrefix(name, `"`) {
		return strconv.Quote(name)
	}
	return name
}

// ParseEdgeLabel reads the names of the two tasks of a label that
// EdgeLabelOf wrote; ok is false when label is not of that form (no
// separator, a quoted name badly closed, or an unquoted name holding a
// separator, which makes it ambiguous).
func ParseEdgeLabel(label string) (from, to string, ok bool) {
	from, rest, ok := cutLabelName(label)
	if !ok {
		return "", "", false
	}
	rest, ok = strings.CutPrefix(rest, EdgeSep)
	if !ok {
		return "", "", false
	}
	to, rest, ok = cutLabelName(rest)
	if !ok || rest != "" {
		return "", "", false
	}
	return from, to, true
}

// cutLabelName reads one name at the start of s, quoted or up to the
// first separator, and returns it with what follows.
func cutLabelName(s string) (name, rest string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", "", false
		}
		name, err = strconv.Unquote(q)
		return name, s[len(q):], err == nil
	}
	if i := strings.Index(s, EdgeSep); i >= 0 {
		return s[:i], s[i:], true
	}
	return s, "", true
}

package heft

import (
	"fmt"

	"github.com/netsched/netsched/models"
)

// graph is a task graph as the schedulers read it: a topological order,
// and each task's parents and children with the data of the edges
// between them, parallel edges joined (their data added).
type graph struct {
	n                 int
	order             []int
	parStart, chStart []int // compressed adjacency, by task
	par, ch           []link
}

// link is one end of the edges between two tasks.
type link struct {
	task int
	data float64
}

// newGraph prepares g, or returns an error naming a task on a cycle.
func newGraph(g *models.DAG) (*graph, error) {
	topo, err := g.Topology()
	if err != nil {
		return nil, fmt.Errorf("the task graph must be acyclic: %w", err)
	}
	n := len(g.Tasks)
	gr := &graph{n: n, order: topo.Order}
	// Join parallel edges: the data of u→v is the sum of their data.
	type key struct{ u, v int }
	data := make(map[key]float64, len(g.Edges))
	var pairs []key
	for _, e := range g.Edges {
		k := key{e.From, e.To}
		if _, ok := data[k]; !ok {
			pairs = append(pairs, k)
		}
		data[k] += e.Data
	}
	gr.parStart, gr.chStart = make([]int, n+1), make([]int, n+1)
	for _, k := range pairs {
		gr.parStart[k.v+1]++
		gr.chStart[k.u+1]++
	}
	for i := 1; i <= n; i++ {
		gr.parStart[i] += gr.parStart[i-1]
		gr.chStart[i] += gr.chStart[i-1]
	}
	gr.par, gr.ch = make([]link, len(pairs)), make([]link, len(pairs))
	pp, cp := make([]int, n), make([]int, n)
	for _, k := range pairs {
		d := data[k]
		gr.par[gr.parStart[k.v]+pp[k.v]] = link{k.u, d}
		pp[k.v]++
		gr.ch[gr.chStart[k.u]+cp[k.u]] = link{k.v, d}
		cp[k.u]++
	}
	return gr, nil
}

// parents lists the tasks v depends on, with the data they send it.
func (g *graph) parents(v int) []link { return g.par[g.parStart[v]:g.parStart[v+1]] }

// children lists the tasks that depend on v, with the data v sends them.
func (g *graph) children(v int) []link { return g.ch[g.chStart[v]:g.chStart[v+1]] }

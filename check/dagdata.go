package check

import (
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// dataMemory is what the check of a task graph's data keeps from one
// check to the next: the pairs of tasks joined by edges, and what each
// pair needs carried and got carried in time.
type dataMemory struct {
	pairOf map[[2]int32]int32 // (tail, head) → pair
	ends   [][2]int32         // by pair: its tail and head
	need   []float64          // by pair: the data of its edges
	got    []float64          // by pair: the data that reached the head's processor before it started
}

// hasNetwork reports whether data between two processors of p moves as
// transfers over a network (a crossbar, a multi-cluster or a network of
// links) rather than as a delay.
func hasNetwork(p *models.Platform) bool {
	return p.Crossbar != nil || p.MultiCluster != nil || p.Network != nil
}

// check checks, on a platform with a network, that the data of every
// edge whose tasks ran on different processors was carried from the
// tail's processor to the head's, after the tail ended and before the
// head started, by transfers labelled with the edge (models.DAG.EdgeLabel)
// whose amounts add up to the edge's data (the data of parallel edges
// adds up). A transfer that carries no edge's data, or that leaves from
// another processor than its tail's, or before the tail ended, is a
// violation too. m holds the action computing each task.
func (d *dataMemory) check(in *input, g *models.DAG, m *dagMemory) {
	if d.pairOf == nil {
		d.pairOf = make(map[[2]int32]int32, len(g.Edges))
	}
	clear(d.pairOf)
	d.ends, d.need, d.got = d.ends[:0], d.need[:0], d.got[:0]
	totalData := 0.0
	for _, e := range g.Edges {
		key := [2]int32{int32(e.From), int32(e.To)}
		k, ok := d.pairOf[key]
		if !ok {
			k = int32(len(d.ends))
			d.pairOf[key] = k
			d.ends, d.need, d.got = append(d.ends, key), append(d.need, 0), append(d.got, 0)
		}
		d.need[k] += e.Data
		totalData += e.Data
	}
	for j := range in.s.Actions {
		if a := &in.s.Actions[j]; a.Kind == sim.Transfer {
			d.transfer(in, g, m, j, a)
		}
	}
	for k, uv := range d.ends {
		ju, jv := m.action[uv[0]], m.action[uv[1]]
		if ju == NoAction || jv == NoAction || d.need[k] == 0 {
			continue // missing tasks are reported; an edge without data is a precedence only
		}
		pu, pv := in.s.Actions[ju].Node, in.s.Actions[jv].Node
		start := in.starts[jv]
		if pu == pv || math.IsInf(start, 1) || d.got[k] >= d.need[k] || same(d.got[k], d.need[k], totalData) {
			continue
		}
		u, v := g.TaskName(int(uv[0])), g.TaskName(int(uv[1]))
		in.violate(DataMissing, jv, models.EdgeLabelOf(u, v), start,
			"task %s starts on %s at %g with %g of the %g units of data of %s (on %s) there",
			v, in.p.NodeName(pv), start, d.got[k], d.need[k], u, in.p.NodeName(pu))
	}
}

// transfer checks transfer action j, of a, and counts the data it brings
// to its head's processor in time.
func (d *dataMemory) transfer(in *input, g *models.DAG, m *dagMemory, j int, a *sim.Action) {
	k, ok := d.pairLabelled(g, m, a.Label)
	if !ok {
		in.violate(UnknownData, j, a.Label, in.starts[j],
			"transfer carries %q, which is no edge of the graph (a transfer of a task graph is labelled \"<from>%s<to>\", a name holding %s or beginning with a double quote written as a quoted string)",
			a.Label, models.EdgeSep, models.EdgeSep)
		return
	}
	uv := d.ends[k]
	ju, jv := m.action[uv[0]], m.action[uv[1]]
	if ju == NoAction || jv == NoAction {
		return // reported as missing
	}
	u := g.TaskName(int(uv[0]))
	switch pu := in.s.Actions[ju].Node; {
	case a.From != pu:
		in.violate(NotHeld, j, a.Label, in.starts[j],
			"transfer sends the data of %s from %s, but %s ran on %s",
			u, in.p.NodeName(a.From), u, in.p.NodeName(pu))
	case !math.IsInf(in.starts[j], 1) && !before(in.ends[ju], in.starts[j]):
		in.violate(NotHeld, j, a.Label, in.starts[j],
			"transfer of the data of %s starts at %g, before %s (action %d) ends at %g",
			u, in.starts[j], u, ju, in.ends[ju])
	case a.To == in.s.Actions[jv].Node && !math.IsInf(in.ends[j], 1) && before(in.ends[j], in.starts[jv]):
		d.got[k] += a.Amount
	}
}

// pairLabelled finds the pair of tasks a transfer's label names,
// "<from>→<to>" as models.EdgeLabelOf writes it (a name holding the
// separator quoted).
func (d *dataMemory) pairLabelled(g *models.DAG, m *dagMemory, label string) (int32, bool) {
	from, to, ok := models.ParseEdgeLabel(label)
	if !ok {
		return 0, false
	}
	u, okU := m.names.lookup(g, from)
	v, okV := m.names.lookup(g, to)
	if !okU || !okV {
		return 0, false
	}
	k, ok := d.pairOf[[2]int32{int32(u), int32(v)}]
	return k, ok
}

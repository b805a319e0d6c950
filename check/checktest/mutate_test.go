package checktest_test

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// source is a verified schedule of an instance, with its timed replay, to
// mutate.
type source struct {
	name string
	pl   *models.Platform
	pr   *models.Problem
	s    *sim.Schedule
	res  *sim.Result // timed

	preds  [][]int        // task graphs: dagPreds
	routes *replay.Routes // trees
}

// clone copies s deeply enough that a mutant never changes it: actions,
// their planned times and their After lists.
func clone(s *sim.Schedule) *sim.Schedule {
	c := &sim.Schedule{Policy: s.Policy, Claimed: s.Claimed, Actions: slices.Clone(s.Actions)}
	for j := range c.Actions {
		a := &c.Actions[j]
		a.After = slices.Clone(a.After)
		if a.Start != nil {
			a.Start = sim.Time(*a.Start)
		}
		if a.End != nil {
			a.End = sim.Time(*a.End)
		}
	}
	return c
}

// permute renumbers the actions of s: the action at index j moves to
// index to[j], and every After list follows.
func permute(s *sim.Schedule, to []int) {
	moved := make([]sim.Action, len(s.Actions))
	for j, a := range s.Actions {
		for k, p := range a.After {
			a.After[k] = to[p]
		}
		moved[to[j]] = a
	}
	s.Actions = moved
}

// drop removes action j of s: the actions after it move down one, and
// After lists forget it.
func drop(s *sim.Schedule, j int) {
	out := s.Actions[:0]
	for i, a := range s.Actions {
		if i == j {
			continue
		}
		after := a.After[:0]
		for _, p := range a.After {
			switch {
			case p < j:
				after = append(after, p)
			case p > j:
				after = append(after, p-1)
			}
		}
		a.After = after
		out = append(out, a)
	}
	s.Actions = out
}

// toFront moves action j of s to index 0, keeping the order of the others.
func toFront(s *sim.Schedule, j int) {
	to := make([]int, len(s.Actions))
	for i := range to {
		switch {
		case i == j:
			to[i] = 0
		case i < j:
			to[i] = i + 1
		default:
			to[i] = i
		}
	}
	permute(s, to)
}

// setStart moves action j's planned start to t, and its planned end with
// it.
func setStart(a *sim.Action, t float64) {
	if a.End != nil {
		a.End = sim.Time(*a.End + t - *a.Start)
	}
	a.Start = sim.Time(t)
}

// nodes lists the nodes action a uses.
func nodes(a *sim.Action) []int {
	if a.Kind == sim.Compute {
		return []int{a.Node}
	}
	return []int{a.From, a.To}
}

// shareNode reports whether actions a and b use a node in common.
func shareNode(a, b *sim.Action) bool {
	for _, u := range nodes(a) {
		if slices.Contains(nodes(b), u) {
			return true
		}
	}
	return false
}

// pick returns a random index among those for which ok holds, or −1.
func pick(r *rand.Rand, n int, ok func(j int) bool) int {
	var cands []int
	for j := range n {
		if ok(j) {
			cands = append(cands, j)
		}
	}
	if len(cands) == 0 {
		return -1
	}
	return cands[r.IntN(len(cands))]
}

// ownLoad is what processor i of a divisible-load platform starts with.
func ownLoad(pl *models.Platform, i int) float64 {
	if pl.Crossbar != nil {
		return pl.Crossbar.Processors[i].Load
	}
	c, k, _ := pl.MultiCluster.Locate(i)
	return pl.MultiCluster.Clusters[c].Processors[k].Load
}

// isRoot reports whether node v of a broadcast's tree holds the message
// from the start.
func isRoot(src *source, v int) bool {
	return slices.Contains(src.pr.Broadcast.Roots, src.pl.Tree.Nodes[v].Name)
}

// dagPreds lists, for the task each compute action of a task-graph
// schedule computes, the actions computing its predecessors in the
// problem's graph.
func dagPreds(src *source) [][]int {
	g := src.pr.DAG
	action := map[string]int{}
	for j, a := range src.s.Actions {
		action[a.Label] = j
	}
	preds := make([][]int, len(src.s.Actions))
	for _, e := range g.Edges {
		u, v := action[g.TaskName(e.From)], action[g.TaskName(e.To)]
		preds[v] = append(preds[v], u)
	}
	return preds
}

// rho is the delay platform's ρ, 0 elsewhere.
func rho(pl *models.Platform) float64 {
	if pl.Delay != nil {
		return pl.Delay.Rho
	}
	return 0
}

// shareEdge reports whether transfers a and b cross an edge of the tree in
// common, in either direction (a half-duplex edge shares its capacity
// between them).
func shareEdge(src *source, a, b *sim.Action) bool {
	ra, rb := src.routes.Route(a.From, a.To), src.routes.Route(b.From, b.To)
	for _, l := range ra.Links {
		for _, m := range rb.Links {
			if l.Edge == m.Edge {
				return true
			}
		}
	}
	return false
}

// needed reports whether broadcast transfer j brings its receiver, not a
// root, a part of the message that no other transfer to it brings:
// MPICH's scatter-allgather sends some bytes twice, and dropping such a
// copy leaves a valid schedule.
func needed(src *source, j int) bool {
	a := &src.s.Actions[j]
	if isRoot(src, a.To) { // MPICH's allgather sends to the root too
		return false
	}
	var others [][2]float64
	for k, b := range src.s.Actions {
		if k != j && b.To == a.To {
			others = append(others, [2]float64{b.Offset, b.Offset + b.Amount})
		}
	}
	slices.SortFunc(others, func(x, y [2]float64) int { return cmp.Compare(x[0], y[0]) })
	reach := a.Offset
	for _, o := range others {
		if o[0] > reach {
			break
		}
		reach = max(reach, o[1])
	}
	return reach < a.Offset+a.Amount
}

// slack is how much later action j can start, with its planned end moved
// as much, while every action it could delay keeps its times: nothing that
// shares a node with it, follows it (in its After lists, or as a task of
// the graph after its task, ρ later on another processor), or, on a tree,
// any transfer across an edge of its route, starts before it ends then; and the makespan does
// not grow. It is 0 where the replay's speed of the action could change
// with time (external load on workstations).
func slack(src *source, j int) float64 {
	a, s, res := &src.s.Actions[j], src.s, src.res
	if src.pl.Workstations != nil && a.Kind == sim.Compute {
		return 0
	}
	end := res.Ends[j]
	d := res.Makespan - end
	var succ []bool
	if src.pr.DAG != nil {
		succ = make([]bool, len(s.Actions))
		for k, ps := range src.preds {
			succ[k] = slices.Contains(ps, j)
		}
	}
	for k := range s.Actions {
		b := &s.Actions[k]
		follows := slices.Contains(b.After, j) || succ != nil && succ[k]
		related := follows || shareNode(a, b) || src.pl.Tree != nil && shareEdge(src, a, b)
		if k == j || !related || res.Ends[k] <= end && !follows {
			continue
		}
		wait := 0.0
		if b.Kind == sim.Compute && a.Kind == sim.Compute && a.Node != b.Node {
			wait = rho(src.pl)
		}
		d = min(d, res.Starts[k]-wait-end)
	}
	return max(d, 0)
}

// firstArrival is when node v first receives something in the replay, +Inf
// if never.
func firstArrival(src *source, v int) float64 {
	t := math.Inf(1)
	for k, b := range src.s.Actions {
		if b.Kind == sim.Transfer && b.To == v {
			t = min(t, src.res.Ends[k])
		}
	}
	return t
}

// replayed reports whether the replay starts action j at a finite time.
func replayed(src *source, j int) bool { return !math.IsInf(src.res.Starts[j], 1) }

// noContext is the context of the mutation test's plans.
var noContext = context.Background()

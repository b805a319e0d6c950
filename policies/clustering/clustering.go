package clustering

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
)

// Clustering assigns each task (by index) to a cluster; each cluster runs
// on its own processor (paper 002 §2, "クラスタリング"). Cluster ids are
// any non-negative numbers; Normalize renumbers them 0…k−1.
type Clustering []int

// NumClusters is the number of distinct clusters.
func (c Clustering) NumClusters() int {
	seen := map[int]bool{}
	for _, k := range c {
		seen[k] = true
	}
	return len(seen)
}

// Normalize returns the clustering with clusters numbered 0…k−1 in order
// of their first task.
func (c Clustering) Normalize() Clustering {
	ids := map[int]int{}
	out := make(Clustering, len(c))
	for i, k := range c {
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		out[i] = id
	}
	return out
}

// Clusters lists the tasks of each cluster of the normalized clustering.
func (c Clustering) Clusters() [][]int {
	norm := c.Normalize()
	var out [][]int
	for i, k := range norm {
		if k == len(out) {
			out = append(out, nil)
		}
		out[k] = append(out[k], i)
	}
	return out
}

func (c Clustering) check(n int) error {
	if len(c) != n {
		return fmt.Errorf("clustering has %d tasks, the graph %d", len(c), n)
	}
	for i, k := range c {
		if k < 0 {
			return fmt.Errorf("task %d: cluster %d < 0", i, k)
		}
	}
	return nil
}

// CheckConvex reports whether c is a convex clustering of g (Definition 2,
// after Lepère and Trystram): between any two clusters V_i, V_j, if some
// a ∈ V_i precedes some b ∈ V_j then no b' ∈ V_j precedes any a' ∈ V_i.
// The error names a witness.
func CheckConvex(g *models.DAG, c Clustering) error {
	p, err := prepare(g)
	if err != nil {
		return err
	}
	return p.checkConvex(c)
}

func (p *prepared) checkConvex(c Clustering) error {
	if err := c.check(p.n); err != nil {
		return err
	}
	if err := p.withReach(context.Background()); err != nil {
		return err
	}
	cl := c.Clusters()
	norm := c.Normalize()
	members := make([]bitset, len(cl))
	below := make([]bitset, len(cl)) // tasks preceded by some task of the cluster
	for k, ts := range cl {
		members[k], below[k] = newBitset(p.n), newBitset(p.n)
		for _, v := range ts {
			members[k].set(v)
			below[k].or(p.desc[v])
		}
	}
	for i := range cl {
		for j := i + 1; j < len(cl); j++ {
			if below[i].intersects(members[j]) && below[j].intersects(members[i]) {
				a, b := p.witnessPair(cl[i], members[j])
				b2, a2 := p.witnessPair(cl[j], members[i])
				return fmt.Errorf("not convex (Definition 2): %s ≺ %s and %s ≺ %s across clusters %d and %d",
					p.g.TaskName(a), p.g.TaskName(b), p.g.TaskName(b2), p.g.TaskName(a2), norm[a], norm[b])
			}
		}
	}
	return nil
}

// witnessPair finds x in from and y in to with x ≺ y.
func (p *prepared) witnessPair(from []int, to bitset) (int, int) {
	tmp := newBitset(p.n)
	for _, x := range from {
		tmp.and(p.desc[x], to)
		if y := tmp.first(); y >= 0 {
			return x, y
		}
	}
	return -1, -1
}

// CheckCross reports whether c is a cross clustering of g (Definition 3):
// for any two clusters V_i ≠ V_j there are no x, z ∈ V_i and y ∈ V_j with
// x ≺ y ≺ z. The error names a witness.
func CheckCross(g *models.DAG, c Clustering) error {
	p, err := prepare(g)
	if err != nil {
		return err
	}
	return p.checkCross(c)
}

func (p *prepared) checkCross(c Clustering) error {
	if err := c.check(p.n); err != nil {
		return err
	}
	if err := p.withReach(context.Background()); err != nil {
		return err
	}
	norm := c.Normalize()
	k := c.NumClusters()
	// witness[i] is a task of cluster i that precedes y, stamped by y.
	witness, stamp := make([]int, k), make([]int, k)
	var buf []int
	for y := range p.n {
		buf = p.anc[y].members(buf[:0])
		for _, x := range buf {
			if i := norm[x]; i != norm[y] {
				witness[i], stamp[i] = x, y+1
			}
		}
		buf = p.desc[y].members(buf[:0])
		for _, z := range buf {
			if i := norm[z]; i != norm[y] && stamp[i] == y+1 {
				x := witness[i]
				return fmt.Errorf("not cross (Definition 3): %s ≺ %s ≺ %s with %s and %s in cluster %d, %s in cluster %d",
					p.g.TaskName(x), p.g.TaskName(y), p.g.TaskName(z), p.g.TaskName(x), p.g.TaskName(z), i, p.g.TaskName(y), norm[y])
			}
		}
	}
	return nil
}

// CheckSchedule reports whether start times make a feasible schedule of g
// on the delay platform with clustering c (Definition 1, for tasks of any
// weight): tasks of one cluster do not overlap, a successor on the same
// cluster starts after its predecessor ends, and one on another cluster ρ
// later. Times are compared with a relative tolerance of 1e-9.
func CheckSchedule(g *models.DAG, c Clustering, start []float64, rho float64) error {
	if err := c.check(len(g.Tasks)); err != nil {
		return err
	}
	if len(start) != len(g.Tasks) {
		return fmt.Errorf("%d start times for %d tasks", len(start), len(g.Tasks))
	}
	late := func(due, at float64) bool { return at < due-1e-9*math.Max(1, math.Abs(due)) }
	end := func(v int) float64 { return start[v] + g.Tasks[v].Weight }
	for _, e := range g.Edges {
		due := end(e.From)
		if c[e.From] != c[e.To] {
			due += rho
		}
		if late(due, start[e.To]) {
			return fmt.Errorf("task %s starts at %g, before %g: its predecessor %s ends at %g (Definition 1)",
				g.TaskName(e.To), start[e.To], due, g.TaskName(e.From), end(e.From))
		}
	}
	for _, ts := range c.Clusters() {
		slices.SortFunc(ts, func(a, b int) int { return cmp.Or(cmp.Compare(start[a], start[b]), cmp.Compare(end(a), end(b))) })
		for i := 1; i < len(ts); i++ {
			if first, second := ts[i-1], ts[i]; late(end(first), start[second]) {
				return fmt.Errorf("tasks %s and %s overlap on cluster %d (Definition 1)", g.TaskName(first), g.TaskName(second), c[first])
			}
		}
	}
	return nil
}

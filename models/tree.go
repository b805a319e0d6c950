package models

import (
	"cmp"
	"slices"
	"strings"
)

// Tree is the network of paper 004: participant and relay nodes joined by
// edges that form a tree. Each edge has a bandwidth and a latency per
// direction and is full or half duplex. A transfer follows the unique path at
// the minimum bandwidth on it and reserves that bandwidth on every link.
type Tree struct {
	Nodes []TreeNode `yaml:"nodes" json:"nodes"`
	Edges []TreeEdge `yaml:"edges" json:"edges"`
}

// TreeNode is a participant, or a relay (a switch) that only forwards.
type TreeNode struct {
	Name  string `yaml:"name" json:"name"`
	Relay bool   `yaml:"relay,omitempty" json:"relay,omitempty"`
}

// LinkParams are the bandwidth (units per time) and latency of one direction.
type LinkParams struct {
	Bandwidth float64 `yaml:"bandwidth" json:"bandwidth"`
	Latency   float64 `yaml:"latency" json:"latency"`
}

// TreeEdge joins nodes A and B (by name). Bandwidth and Latency apply to
// A→B, and to B→A unless Reverse overrides them. A half-duplex edge shares
// one capacity, its A→B bandwidth, between both directions.
type TreeEdge struct {
	A          string `yaml:"a" json:"a"`
	B          string `yaml:"b" json:"b"`
	LinkParams `yaml:",inline"`
	Reverse    *LinkParams `yaml:"reverse,omitempty" json:"reverse,omitempty"`
	Duplex     Duplex      `yaml:"duplex,omitempty" json:"duplex,omitempty"` // default full
}

// Link is one direction of an edge: Edge is its index, Forward is A→B.
type Link struct {
	Edge    int
	Forward bool
}

// Params returns the bandwidth and latency of a link.
func (t *Tree) Params(l Link) LinkParams {
	e := &t.Edges[l.Edge]
	if !l.Forward && e.Reverse != nil {
		return *e.Reverse
	}
	return e.LinkParams
}

// NodeIndex maps a node name to its index.
func (t *Tree) NodeIndex(name string) (int, bool) {
	for i, n := range t.Nodes {
		if n.Name == name {
			return i, true
		}
	}
	return 0, false
}

// Adjacency lists, for each node, the (neighbour, outgoing link) pairs.
// It assumes a validated tree.
func (t *Tree) Adjacency() [][]Hop {
	adj := make([][]Hop, len(t.Nodes))
	for i, e := range t.Edges {
		a, _ := t.NodeIndex(e.A)
		b, _ := t.NodeIndex(e.B)
		adj[a] = append(adj[a], Hop{To: b, Link: Link{Edge: i, Forward: true}})
		adj[b] = append(adj[b], Hop{To: a, Link: Link{Edge: i, Forward: false}})
	}
	return adj
}

// Hop is one step of a path: the link taken and the node it reaches.
type Hop struct {
	To   int
	Link Link
}

// Path returns the links from node from to node to, in order, or nil if
// from == to. It assumes a validated tree.
func (t *Tree) Path(from, to int) []Link {
	adj := t.Adjacency()
	prev := make([]Hop, len(t.Nodes))
	seen := make([]bool, len(t.Nodes))
	seen[from] = true
	queue := []int{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, h := range adj[u] {
			if !seen[h.To] {
				seen[h.To] = true
				prev[h.To] = Hop{To: u, Link: h.Link}
				queue = append(queue, h.To)
			}
		}
	}
	var path []Link
	for v := to; v != from; v = prev[v].To {
		path = append(path, prev[v].Link)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// Validate checks names, parameters and that the edges form a tree.
func (t *Tree) Validate(path string) error { return t.validate(rootPath(path)) }

// validate is Validate below a path kept in pieces. Trees of up to
// scratchLen/2 nodes validate without allocating.
func (t *Tree) validate(path fieldPath) error {
	n := len(t.Nodes)
	if n == 0 {
		return fieldErr(path.field("nodes"), "must list at least one node")
	}
	var small [scratchLen]int
	buf := scratch(small[:], 2*n)
	names := newByKey(buf[:n], func(i int) string { return t.Nodes[i].Name }, strings.Compare)
	if err := t.validateNames(path, names); err != nil {
		return err
	}
	if len(t.Edges) != n-1 {
		return fieldErr(path.field("edges"),
			"a tree of %d nodes has %d edges, got %d", n, n-1, len(t.Edges))
	}
	uf := newUnionFind(buf[n:])
	for i := range t.Edges {
		e := &t.Edges[i]
		ep := path.elem("edges", i)
		if err := validateTreeEdge(ep, e, names); err != nil {
			return err
		}
		a, _ := names.find(e.A)
		b, _ := names.find(e.B)
		if !uf.union(a, b) {
			return fieldErr(ep, "edge %s–%s closes a cycle: the network must be a tree", e.A, e.B)
		}
	}
	return nil
}

// validateNames requires every node to have a name of its own; names holds
// the nodes by name.
func (t *Tree) validateNames(path fieldPath, names byKey[string]) error {
	dup, first, repeated := names.firstRepeat()
	for i := range t.Nodes {
		if t.Nodes[i].Name != "" && (!repeated || i != dup) {
			continue
		}
		np := path.elem("nodes", i)
		if t.Nodes[i].Name == "" {
			return fieldErr(np.field("name"), "must not be empty")
		}
		return fieldErr(np.field("name"), "%q is also the name of nodes[%d]", t.Nodes[i].Name, first)
	}
	return nil
}

// validateTreeEdge checks one edge at path ep; names holds the nodes by name.
func validateTreeEdge(ep fieldPath, e *TreeEdge, names byKey[string]) error {
	for _, end := range []struct{ field, name string }{{"a", e.A}, {"b", e.B}} {
		if _, ok := names.find(end.name); !ok {
			return fieldErr(ep.field(end.field), "no node is named %q", end.name)
		}
	}
	if e.A == e.B {
		return fieldErr(ep, "edge joins %q to itself", e.A)
	}
	if err := e.LinkParams.validate(ep); err != nil {
		return err
	}
	if e.Reverse != nil {
		if err := e.Reverse.validate(ep.field("reverse")); err != nil {
			return err
		}
	}
	if e.Duplex != "" {
		return e.Duplex.validate(ep.field("duplex"))
	}
	return nil
}

// validate checks the parameters of one direction of an edge.
func (l *LinkParams) validate(path fieldPath) error {
	if err := positive(path.field("bandwidth"), l.Bandwidth); err != nil {
		return err
	}
	return nonNegative(path.field("latency"), l.Latency)
}

// scratchLen is the number of ints a validator keeps on its stack for
// its indices, so that models of common sizes validate without
// allocating.
const scratchLen = 512

// scratch returns n ints: the start of small (an array on the caller's
// stack) if it is long enough, new ones otherwise.
func scratch(small []int, n int) []int {
	if n <= len(small) {
		return small[:n]
	}
	return make([]int, n)
}

// byKey holds items (0, 1, ... len(sorted)-1) by a key: their indices
// sorted by key, ties by index, so that a key is found in O(log n) and
// repeated keys are neighbours.
type byKey[K any] struct {
	sorted  []int
	key     func(i int) K
	compare func(a, b K) int
}

// newByKey sorts the items of buf's length by key into buf.
func newByKey[K any](buf []int, key func(i int) K, compare func(a, b K) int) byKey[K] {
	for i := range buf {
		buf[i] = i
	}
	slices.SortFunc(buf, func(i, j int) int { return cmp.Or(compare(key(i), key(j)), cmp.Compare(i, j)) })
	return byKey[K]{sorted: buf, key: key, compare: compare}
}

// find returns the least item whose key is k.
func (b byKey[K]) find(k K) (int, bool) {
	at, ok := slices.BinarySearchFunc(b.sorted, k, func(i int, k K) int { return b.compare(b.key(i), k) })
	if !ok {
		return 0, false
	}
	return b.sorted[at], true
}

// firstRepeat returns the least item dup whose key an earlier item has,
// and the first item first with that key; repeated is false if no two
// keys are equal.
func (b byKey[K]) firstRepeat() (dup, first int, repeated bool) {
	for s := 1; s < len(b.sorted); s++ {
		i, j := b.sorted[s-1], b.sorted[s]
		// In a run of equal keys the second item is the least repeat and
		// the one before it the first: the least j over runs is a second.
		if b.compare(b.key(i), b.key(j)) == 0 && (!repeated || j < dup) {
			dup, first, repeated = j, i, true
		}
	}
	return dup, first, repeated
}

// unionFind is a disjoint-set forest over 0, 1, ... len-1.
type unionFind []int

// newUnionFind makes every element of buf a set of its own.
func newUnionFind(buf []int) unionFind {
	u := unionFind(buf)
	for i := range u {
		u[i] = i
	}
	return u
}

// find returns the representative of i's set.
func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// union joins the sets of a and b; false if they were already one.
func (u unionFind) union(a, b int) bool {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return false
	}
	u[ra] = rb
	return true
}

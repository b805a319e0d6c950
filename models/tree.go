package models

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
func (t *Tree) Validate(path string) error {
	if len(t.Nodes) == 0 {
		return fieldErr(joinPath(path, "nodes"), "must list at least one node")
	}
	seen := map[string]int{}
	for i, n := range t.Nodes {
		np := joinPath(path, "nodes"+index(i))
		if n.Name == "" {
			return fieldErr(joinPath(np, "name"), "must not be empty")
		}
		if j, dup := seen[n.Name]; dup {
			return fieldErr(joinPath(np, "name"), "%q is also the name of nodes[%d]", n.Name, j)
		}
		seen[n.Name] = i
	}
	if len(t.Edges) != len(t.Nodes)-1 {
		return fieldErr(joinPath(path, "edges"),
			"a tree of %d nodes has %d edges, got %d", len(t.Nodes), len(t.Nodes)-1, len(t.Edges))
	}
	uf := newUnionFind(len(t.Nodes))
	for i, e := range t.Edges {
		ep := joinPath(path, "edges"+index(i))
		if err := t.validateEdge(ep, &e, seen); err != nil {
			return err
		}
		if !uf.union(seen[e.A], seen[e.B]) {
			return fieldErr(ep, "edge %s–%s closes a cycle: the network must be a tree", e.A, e.B)
		}
	}
	return nil
}

func (t *Tree) validateEdge(ep string, e *TreeEdge, names map[string]int) error {
	for _, end := range []struct{ field, name string }{{"a", e.A}, {"b", e.B}} {
		if _, ok := names[end.name]; !ok {
			return fieldErr(joinPath(ep, end.field), "no node is named %q", end.name)
		}
	}
	if e.A == e.B {
		return fieldErr(ep, "edge joins %q to itself", e.A)
	}
	if err := e.LinkParams.validate(ep); err != nil {
		return err
	}
	if e.Reverse != nil {
		if err := e.Reverse.validate(joinPath(ep, "reverse")); err != nil {
			return err
		}
	}
	if e.Duplex != "" {
		return e.Duplex.validate(joinPath(ep, "duplex"))
	}
	return nil
}

func (l *LinkParams) validate(path string) error {
	if err := positive(joinPath(path, "bandwidth"), l.Bandwidth); err != nil {
		return err
	}
	return nonNegative(joinPath(path, "latency"), l.Latency)
}

type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

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

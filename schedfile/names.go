package schedfile

import (
	"fmt"
	"strings"

	"github.com/netsched/netsched/models"
)

// nodeNames resolves the node names of one schedule file against a
// platform. The map from names to nodes is built at the first name.
type nodeNames struct {
	p     *models.Platform // nil: names are errors
	index map[string]int   // name → node, or -1 when several nodes have it
}

// lookup returns the node named name.
func (n *nodeNames) lookup(name string) (int, error) {
	if n.p == nil {
		return 0, fmt.Errorf("names node %q, but node names need the scenario's platform; write the node's index", name)
	}
	if n.index == nil {
		n.index = nameIndex(n.p)
	}
	if i, ok := n.index[name]; ok {
		if i < 0 {
			return 0, fmt.Errorf("%q names nodes %s; write the index of one", name, strings.Join(n.named(name), ", "))
		}
		return i, nil
	}
	if i, ok := n.p.NodeIndex(name); ok { // "P<i>" on a delay platform of unboundedly many processors
		return i, nil
	}
	return 0, fmt.Errorf("no node is named %q (%s)", name, nodeList(n.p))
}

// nameIndex maps the name of each node of p to it, or to -1 when several
// nodes have the name.
func nameIndex(p *models.Platform) map[string]int {
	index := make(map[string]int, p.NumNodes())
	for i := range p.NumNodes() {
		name := p.NodeName(i)
		if _, ok := index[name]; ok {
			i = -1
		}
		index[name] = i
	}
	return index
}

// named lists the indices of the nodes named name.
func (n *nodeNames) named(name string) []string {
	var nodes []string
	for i := range n.p.NumNodes() {
		if n.p.NodeName(i) == name {
			nodes = append(nodes, fmt.Sprint(i))
		}
	}
	return nodes
}

// nodeList describes the names of p's nodes for an error message: all of
// them on a small platform, the first few and the last on a large one.
func nodeList(p *models.Platform) string {
	n := p.NumNodes()
	if n == 0 {
		return "the platform's nodes are P0, P1, …"
	}
	var names []string
	for i := range n {
		if n > 8 && i == 5 {
			names = append(names, "…", p.NodeName(n-1))
			break
		}
		names = append(names, p.NodeName(i))
	}
	return fmt.Sprintf("the platform has %d nodes: %s", n, strings.Join(names, ", "))
}

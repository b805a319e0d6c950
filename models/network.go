package models

import (
	"fmt"
	"slices"
)

// Network is a platform of hosts joined by links that the transfers in
// progress share (issue 38; package network holds the sharing model):
// each link has a bandwidth and a latency, and a transfer between two
// hosts crosses the links of their route. Routes are given per pair of
// hosts, or, when none is given, follow the tree the links form between
// hosts and switches (each link then has two ends, a and b).
//
// Hosts are processors (γ, overlap with the kinds send and recv, as on a
// crossbar). Without sharing, the replay gives each transfer the route's
// smallest bandwidth and its latency, Σ latency + a / min bandwidth, and
// lets a link carry one transfer at a time (the contention-free model
// netsched's other platforms use); under sharing, the transfers on a link
// share its bandwidth.
type Network struct {
	Hosts    Processors `yaml:"hosts" json:"hosts"`
	Switches []string   `yaml:"switches,omitempty" json:"switches,omitempty"`
	Links    []NetLink  `yaml:"links" json:"links"`
	Routes   []NetRoute `yaml:"routes,omitempty" json:"routes,omitempty"`
}

// NetLink is one link of a Network: a bandwidth (units per time) that
// both directions share, a latency, and, for routes derived from the
// tree of links, its two ends (hosts or switches, by name).
type NetLink struct {
	Name      string  `yaml:"name" json:"name"`
	A         string  `yaml:"a,omitempty" json:"a,omitempty"`
	B         string  `yaml:"b,omitempty" json:"b,omitempty"`
	Bandwidth float64 `yaml:"bandwidth" json:"bandwidth"`
	Latency   float64 `yaml:"latency,omitempty" json:"latency,omitempty"`
}

// NetRoute is the route of transfers from host From to host To (and from
// To to From, reversed, unless that pair has a route of its own): the
// links they cross, in order, by name.
type NetRoute struct {
	From  string   `yaml:"from" json:"from"`
	To    string   `yaml:"to" json:"to"`
	Links []string `yaml:"links" json:"links"`
}

// NetworkKinds are the communication kinds of a network host.
var NetworkKinds = CrossbarKinds

// validate checks the network below path.
func (n *Network) validate(path fieldPath) error {
	total := 0.0
	if err := validateProcessors(path.field("hosts"), n.Hosts, NetworkKinds, &total); err != nil {
		return err
	}
	nodes := map[string]int{}
	for i := range n.Hosts {
		name := n.hostName(i)
		if j, dup := nodes[name]; dup {
			hp := path.elem("hosts", i)
			return fieldErr(hp.field("name"), "%q is also the name of hosts[%d]", name, j)
		}
		nodes[name] = i
	}
	for i, s := range n.Switches {
		if _, dup := nodes[s]; dup || s == "" {
			return fieldErr(path.elem("switches", i), "%q is empty or names a host or switch already", s)
		}
		nodes[s] = len(n.Hosts) + i
	}
	if len(n.Links) == 0 {
		return fieldErr(path.field("links"), "must list at least one link")
	}
	links := map[string]int{}
	for i := range n.Links {
		if err := n.validateLink(path.elem("links", i), i, nodes, links); err != nil {
			return err
		}
	}
	if len(n.Routes) == 0 {
		return n.validateTree(path, nodes)
	}
	for i := range n.Routes {
		if err := n.validateRoute(path.elem("routes", i), &n.Routes[i], nodes, links); err != nil {
			return err
		}
	}
	return nil
}

// hostName is host i's name, or "P<i>".
func (n *Network) hostName(i int) string {
	if name := n.Hosts[i].Name; name != "" {
		return name
	}
	return defaultNodeName(i)
}

func (n *Network) validateLink(lp fieldPath, i int, nodes, links map[string]int) error {
	l := &n.Links[i]
	if _, dup := links[l.Name]; dup || l.Name == "" {
		return fieldErr(lp.field("name"), "%q is empty or the name of another link", l.Name)
	}
	links[l.Name] = i
	if err := positive(lp.field("bandwidth"), l.Bandwidth); err != nil {
		return err
	}
	if err := nonNegative(lp.field("latency"), l.Latency); err != nil {
		return err
	}
	for _, end := range []struct{ field, name string }{{"a", l.A}, {"b", l.B}} {
		if _, ok := nodes[end.name]; !ok && end.name != "" {
			return fieldErr(lp.field(end.field), "no host or switch is named %q", end.name)
		}
	}
	if l.A != "" && l.A == l.B {
		return fieldErr(lp, "link joins %q to itself", l.A)
	}
	return nil
}

// validateTree checks that the links, without routes, form a forest
// joining hosts and switches: every link has two ends and none closes a
// cycle.
func (n *Network) validateTree(path fieldPath, nodes map[string]int) error {
	uf := newUnionFind(make([]int, len(nodes)))
	for i, l := range n.Links {
		lp := path.elem("links", i)
		if l.A == "" || l.B == "" {
			return fieldErr(lp, "without routes, every link needs its ends a and b: routes follow the tree of links")
		}
		if !uf.union(nodes[l.A], nodes[l.B]) {
			return fieldErr(lp, "link %s (%s–%s) closes a cycle: without routes, the links must form a tree", l.Name, l.A, l.B)
		}
	}
	return nil
}

func (n *Network) validateRoute(rp fieldPath, r *NetRoute, nodes, links map[string]int) error {
	for _, end := range []struct{ field, name string }{{"from", r.From}, {"to", r.To}} {
		if i, ok := nodes[end.name]; !ok || i >= len(n.Hosts) {
			return fieldErr(rp.field(end.field), "no host is named %q", end.name)
		}
	}
	if r.From == r.To {
		return fieldErr(rp.field("to"), "a route from %q to itself", r.To)
	}
	if len(r.Links) == 0 {
		return fieldErr(rp.field("links"), "must list at least one link")
	}
	for k, name := range r.Links {
		if _, ok := links[name]; !ok {
			return fieldErr(rp.elem("links", k), "no link is named %q", name)
		}
		if slices.Contains(r.Links[:k], name) {
			return fieldErr(rp.elem("links", k), "link %q appears twice in the route", name)
		}
	}
	return nil
}

// NetworkRoutes answers route queries on a validated Network.
type NetworkRoutes struct {
	n     *Network
	given map[[2]int][]int // from the routes, both ways
	adj   [][][2]int       // without routes: per node, (neighbour, link)
}

// NewRoutes prepares route queries on a validated network.
func (n *Network) NewRoutes() *NetworkRoutes {
	r := &NetworkRoutes{n: n}
	index := func(names []string, name string) int { return slices.Index(names, name) }
	hosts := make([]string, len(n.Hosts))
	for i := range hosts {
		hosts[i] = n.hostName(i)
	}
	linkNames := make([]string, len(n.Links))
	for i := range n.Links {
		linkNames[i] = n.Links[i].Name
	}
	if len(n.Routes) > 0 {
		r.given = map[[2]int][]int{}
		for _, rt := range n.Routes {
			ids := make([]int, len(rt.Links))
			for k, name := range rt.Links {
				ids[k] = index(linkNames, name)
			}
			from, to := index(hosts, rt.From), index(hosts, rt.To)
			r.given[[2]int{from, to}] = ids
		}
		for _, rt := range n.Routes {
			pair := [2]int{index(hosts, rt.From), index(hosts, rt.To)}
			ids := r.given[pair]
			back := [2]int{pair[1], pair[0]}
			if _, ok := r.given[back]; !ok {
				rev := slices.Clone(ids)
				slices.Reverse(rev)
				r.given[back] = rev
			}
		}
		return r
	}
	nodes := append(slices.Clip(hosts), n.Switches...)
	r.adj = make([][][2]int, len(nodes))
	for i, l := range n.Links {
		a, b := index(nodes, l.A), index(nodes, l.B)
		r.adj[a] = append(r.adj[a], [2]int{b, i})
		r.adj[b] = append(r.adj[b], [2]int{a, i})
	}
	return r
}

// Route returns the links, in order, of the route from host from to host
// to, and false when the network has none.
func (r *NetworkRoutes) Route(from, to int) ([]int, bool) {
	if r.given != nil {
		ids, ok := r.given[[2]int{from, to}]
		return ids, ok
	}
	prev := make([][2]int, len(r.adj)) // (node, link) each node was reached by
	for i := range prev {
		prev[i] = [2]int{-1, -1}
	}
	prev[from] = [2]int{from, -1}
	queue := []int{from}
	for len(queue) > 0 && prev[to][0] < 0 {
		u := queue[0]
		queue = queue[1:]
		for _, h := range r.adj[u] {
			if prev[h[0]][0] < 0 {
				prev[h[0]] = [2]int{u, h[1]}
				queue = append(queue, h[0])
			}
		}
	}
	if prev[to][0] < 0 {
		return nil, false
	}
	var ids []int
	for v := to; v != from; v = prev[v][0] {
		ids = append(ids, prev[v][1])
	}
	slices.Reverse(ids)
	return ids, true
}

// String names the network's size, for messages.
func (n *Network) String() string {
	return fmt.Sprintf("network of %d hosts, %d switches, %d links", len(n.Hosts), len(n.Switches), len(n.Links))
}

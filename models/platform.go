package models

import (
	"math"
)

// Duplex says whether a port or an edge carries one direction at a time
// (half) or both at once (full).
type Duplex string

// The two duplex modes.
const (
	HalfDuplex Duplex = "half"
	FullDuplex Duplex = "full"
)

// validate checks that d is one of the two modes.
func (d Duplex) validate(path fieldPath) error {
	switch d {
	case HalfDuplex, FullDuplex:
		return nil
	}
	return fieldErr(path, "must be %q or %q, got %q", HalfDuplex, FullDuplex, string(d))
}

// Platform is exactly one of the platform kinds. Its zero value is invalid.
type Platform struct {
	Crossbar     *Crossbar     `yaml:"crossbar,omitempty" json:"crossbar,omitempty"`
	MultiCluster *MultiCluster `yaml:"multicluster,omitempty" json:"multicluster,omitempty"`
	Tree         *Tree         `yaml:"tree,omitempty" json:"tree,omitempty"`
	Delay        *Delay        `yaml:"delay,omitempty" json:"delay,omitempty"`
	Workstations *Workstations `yaml:"workstations,omitempty" json:"workstations,omitempty"`
	Network      *Network      `yaml:"network,omitempty" json:"network,omitempty"`

	// From, in a scenario, builds the platform from a file instead (see
	// formats.ResolvePlatform, which sets MultiCluster and clears From).
	From *PlatformSource `yaml:"from,omitempty" json:"from,omitempty"`

	// Other is a platform kind defined outside this package, such as one
	// a test adds to the replay; scenarios never set it.
	Other Extension `yaml:"-" json:"-"`
}

// An Extension is a platform kind defined outside this package.
type Extension interface {
	Kind() string          // its name, none of the Kind constants
	Validate() error       // a *FieldError when it is not well formed
	NumNodes() int         // as Platform.NumNodes
	NodeName(i int) string // node i's own name, or "" for "P<i>"
}

// Platform kinds, as named in scenarios and by Platform.Kind.
const (
	KindCrossbar     = "crossbar"
	KindMultiCluster = "multicluster"
	KindTree         = "tree"
	KindDelay        = "delay"
	KindWorkstations = "workstations"
	KindNetwork      = "network"
)

// Kind names the platform kind that is set, or "" if none or several are.
func (p *Platform) Kind() string {
	other := ""
	if p.Other != nil {
		other = p.Other.Kind()
	}
	return exactlyOne([]string{KindCrossbar, KindMultiCluster, KindTree, KindDelay, KindWorkstations, KindNetwork, other},
		p.Crossbar != nil, p.MultiCluster != nil, p.Tree != nil, p.Delay != nil, p.Workstations != nil, p.Network != nil, p.Other != nil)
}

// exactlyOne returns the name whose flag alone is set, or "" if none or
// several are.
func exactlyOne(names []string, set ...bool) string {
	name, n := "", 0
	for i, on := range set {
		if on {
			name, n = names[i], n+1
		}
	}
	if n != 1 {
		return ""
	}
	return name
}

// Validate checks that exactly one kind is set and that it is well formed.
// Errors are *FieldError with paths below "platform".
func (p *Platform) Validate() error {
	path := rootPath("platform")
	if p.From != nil {
		return fieldErr(path.field("from"), "a platform from a file is built by formats.ResolvePlatform before it is validated")
	}
	kind := p.Kind()
	at := path.field(kind)
	switch kind {
	case KindCrossbar:
		return p.Crossbar.validate(at)
	case KindMultiCluster:
		return p.MultiCluster.validate(at)
	case KindTree:
		return p.Tree.validate(at)
	case KindDelay:
		return p.Delay.validate(at)
	case KindWorkstations:
		return p.Workstations.validate(at)
	case KindNetwork:
		return p.Network.validate(at)
	case "":
	default:
		return p.Other.Validate()
	}
	return fieldErr(path, "must set exactly one of crossbar, multicluster, tree, delay, workstations, network")
}

// NumNodes is the number of addressable nodes: processors on a crossbar or
// multi-cluster (numbered across clusters in order), tree nodes, delay
// processors (0 when unbounded), or workstations.
func (p *Platform) NumNodes() int {
	switch {
	case p.Crossbar != nil:
		return len(p.Crossbar.Processors)
	case p.MultiCluster != nil:
		return p.MultiCluster.NumProcessors()
	case p.Tree != nil:
		return len(p.Tree.Nodes)
	case p.Delay != nil:
		return p.Delay.Processors
	case p.Workstations != nil:
		return len(p.Workstations.Processors)
	case p.Network != nil:
		return len(p.Network.Hosts)
	case p.Other != nil:
		return p.Other.NumNodes()
	}
	return 0
}

// NodeName is the display name of node i: its given name, or "P<i>".
func (p *Platform) NodeName(i int) string {
	name := ""
	switch {
	case p.Crossbar != nil && i < len(p.Crossbar.Processors):
		name = p.Crossbar.Processors[i].Name
	case p.MultiCluster != nil:
		if c, j, ok := p.MultiCluster.Locate(i); ok {
			name = p.MultiCluster.Clusters[c].Processors[j].Name
		}
	case p.Tree != nil && i < len(p.Tree.Nodes):
		name = p.Tree.Nodes[i].Name
	case p.Workstations != nil:
		name = p.Workstations.Name(i)
	case p.Network != nil && i < len(p.Network.Hosts):
		name = p.Network.Hosts[i].Name
	case p.Other != nil:
		name = p.Other.NodeName(i)
	}
	if name == "" {
		return defaultNodeName(i)
	}
	return name
}

// NodeIndex is the inverse of NodeName: the least node i whose NodeName is
// name, so a default name "P<i>" finds node i when it has no name of its
// own. Names are unique on a tree and among workstations; a crossbar or
// multi-cluster may repeat one. On a delay platform of unboundedly many
// processors every "P<i>" names a node.
func (p *Platform) NodeIndex(name string) (int, bool) {
	if p.Delay != nil && p.Delay.Processors == 0 {
		return defaultNameNumber(name)
	}
	for i := range p.NumNodes() {
		if p.NodeName(i) == name {
			return i, true
		}
	}
	return 0, false
}

// Crossbar is a cluster of processors joined by a crossbar switch (paper
// 000 §2.2): any transfer of amount a takes Alpha + a·Beta and holds the
// single communication port of both ends, half or full duplex.
type Crossbar struct {
	Beta       float64    `yaml:"beta" json:"beta"`                       // time per unit transferred
	Alpha      float64    `yaml:"alpha,omitempty" json:"alpha,omitempty"` // start-up latency per message
	Duplex     Duplex     `yaml:"duplex" json:"duplex"`
	Processors Processors `yaml:"processors" json:"processors"`
}

// CrossbarKinds are the communication kinds of a crossbar processor.
var CrossbarKinds = []string{KindSend, KindRecv}

// Validate checks the crossbar; path prefixes error paths.
func (c *Crossbar) Validate(path string) error { return c.validate(rootPath(path)) }

// validate is Validate below a path kept in pieces.
func (c *Crossbar) validate(path fieldPath) error {
	if err := positive(path.field("beta"), c.Beta); err != nil {
		return err
	}
	if err := nonNegative(path.field("alpha"), c.Alpha); err != nil {
		return err
	}
	if err := c.Duplex.validate(path.field("duplex")); err != nil {
		return err
	}
	var total float64
	return validateProcessors(path.field("processors"), c.Processors, CrossbarKinds, &total)
}

// validateProcessors checks a non-empty list of processors whose platform
// knows the communication kinds kinds, and adds their loads to total,
// which must stay finite: the policies divide the total load.
func validateProcessors(path fieldPath, ps []Processor, kinds []string, total *float64) error {
	if len(ps) == 0 {
		return fieldErr(path, "must list at least one processor")
	}
	for i := range ps {
		pp := path.index(i)
		if err := ps[i].validate(pp, kinds); err != nil {
			return err
		}
		if *total += ps[i].Load; math.IsInf(*total, 0) {
			return fieldErr(pp.field("load"), "the loads up to this one add up to more than %.3g, the largest number; their total must be finite", math.MaxFloat64)
		}
	}
	return nil
}

// MultiCluster is the two-level platform of paper 001: clusters, each a
// crossbar with its own Beta_j, joined by an inter-cluster crossbar of time
// per unit Beta ≥ every Beta_j. A cluster reaches the inter-cluster switch
// through one uplink port (one outgoing and one incoming inter-cluster
// transfer at a time); processors are single-port full duplex.
type MultiCluster struct {
	Beta     float64   `yaml:"beta" json:"beta"`
	Alpha    float64   `yaml:"alpha,omitempty" json:"alpha,omitempty"`
	Clusters []Cluster `yaml:"clusters" json:"clusters"`
}

// Cluster is one cluster of a MultiCluster.
type Cluster struct {
	Name       string     `yaml:"name,omitempty" json:"name,omitempty"`
	Beta       float64    `yaml:"beta" json:"beta"`
	Processors Processors `yaml:"processors" json:"processors"`
}

// MultiClusterKinds are the communication kinds of a multi-cluster processor.
var MultiClusterKinds = []string{KindIntraSend, KindIntraRecv, KindInterSend, KindInterRecv}

// NumProcessors counts the processors of every cluster.
func (m *MultiCluster) NumProcessors() int {
	n := 0
	for _, c := range m.Clusters {
		n += len(c.Processors)
	}
	return n
}

// Locate maps global processor index i to (cluster, index within cluster).
func (m *MultiCluster) Locate(i int) (cluster, j int, ok bool) {
	if i < 0 {
		return 0, 0, false
	}
	for c, cl := range m.Clusters {
		if i < len(cl.Processors) {
			return c, i, true
		}
		i -= len(cl.Processors)
	}
	return 0, 0, false
}

// Validate checks the multi-cluster; β ≥ β_j is an assumption of paper 001's
// algorithm, not of the platform, so it is not checked here.
func (m *MultiCluster) Validate(path string) error { return m.validate(rootPath(path)) }

// validate is Validate below a path kept in pieces.
func (m *MultiCluster) validate(path fieldPath) error {
	if err := positive(path.field("beta"), m.Beta); err != nil {
		return err
	}
	if err := nonNegative(path.field("alpha"), m.Alpha); err != nil {
		return err
	}
	if len(m.Clusters) == 0 {
		return fieldErr(path.field("clusters"), "must list at least one cluster")
	}
	var total float64
	for j := range m.Clusters {
		c := &m.Clusters[j]
		cp := path.elem("clusters", j)
		if err := positive(cp.field("beta"), c.Beta); err != nil {
			return err
		}
		if err := validateProcessors(cp.field("processors"), c.Processors, MultiClusterKinds, &total); err != nil {
			return err
		}
	}
	return nil
}

// Delay is the platform of paper 002: unboundedly many identical processors
// (or Processors of them, if > 0), no contention, and a uniform delay Rho
// between a task and its successor on another processor.
type Delay struct {
	Rho        float64 `yaml:"rho" json:"rho"`
	Processors int     `yaml:"processors,omitempty" json:"processors,omitempty"`
}

// Validate checks the delay platform.
func (d *Delay) Validate(path string) error { return d.validate(rootPath(path)) }

// validate is Validate below a path kept in pieces.
func (d *Delay) validate(path fieldPath) error {
	if err := nonNegative(path.field("rho"), d.Rho); err != nil {
		return err
	}
	if d.Processors < 0 {
		return fieldErr(path.field("processors"), "must be >= 0 (0: unbounded), got %d", d.Processors)
	}
	return nil
}

// positive checks that v is a finite number > 0.
func positive(path fieldPath, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fieldErr(path, "must be a finite number > 0, got %v", v)
	}
	return nil
}

// nonNegative checks that v is a finite number >= 0.
func nonNegative(path fieldPath, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fieldErr(path, "must be a finite number >= 0, got %v", v)
	}
	return nil
}

package models

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Problem is exactly one workload: a divisible load, a task graph, a
// broadcast or a pool of tasks to balance. Its zero value is invalid.
type Problem struct {
	Divisible *Divisible `yaml:"divisible,omitempty" json:"divisible,omitempty"`
	DAG       *DAG       `yaml:"dag,omitempty" json:"dag,omitempty"`
	Broadcast *Broadcast `yaml:"broadcast,omitempty" json:"broadcast,omitempty"`
	Balance   *Balance   `yaml:"balance,omitempty" json:"balance,omitempty"`
}

// Problem families, as named by Problem.Family and by the policy registry.
const (
	FamilyDivisible = "divisible"
	FamilyDAG       = "dag"
	FamilyBroadcast = "broadcast"
	FamilyBalance   = "balance"
)

// Family names the workload that is set, or "" if none or several are.
func (p *Problem) Family() string {
	return exactlyOne([]string{FamilyDivisible, FamilyDAG, FamilyBroadcast, FamilyBalance},
		p.Divisible != nil, p.DAG != nil, p.Broadcast != nil, p.Balance != nil)
}

// Validate checks the problem against the platform it runs on.
func (p *Problem) Validate(pl *Platform) error {
	path := rootPath("problem")
	family := p.Family()
	at := path.field(family)
	switch family {
	case FamilyDivisible:
		return p.Divisible.validate(at, pl)
	case FamilyDAG:
		return p.DAG.validate(at)
	case FamilyBroadcast:
		return p.Broadcast.validate(at, pl)
	case FamilyBalance:
		return p.Balance.validate(at, pl)
	}
	return fieldErr(path, "must set exactly one of divisible, dag, broadcast, balance")
}

// Divisible is the multi-master divisible load of papers 000 and 001: the
// amount x_i each processor starts with is its Processor.Load.
type Divisible struct {
	// Rounds is the number of rounds R; 0 ("auto") lets the policy choose.
	Rounds Rounds `yaml:"rounds,omitempty" json:"rounds,omitempty"`
	// CollectResults sends results back to where each unit came from
	// (paper 000 §4.1), ResultSize units of result per unit of load.
	CollectResults bool    `yaml:"collect_results,omitempty" json:"collect_results,omitempty"`
	ResultSize     float64 `yaml:"result_size,omitempty" json:"result_size,omitempty"`
}

// Validate checks the divisible load on a crossbar or multi-cluster.
func (d *Divisible) Validate(path string, pl *Platform) error { return d.validate(rootPath(path), pl) }

// validate is Validate below a path kept in pieces.
func (d *Divisible) validate(path fieldPath, pl *Platform) error {
	if pl.Crossbar == nil && pl.MultiCluster == nil {
		return fieldErr(path, "a divisible load runs on a crossbar or multicluster platform, not %q", pl.Kind())
	}
	if d.Rounds < 0 {
		return fieldErr(path.field("rounds"), "must be a whole number >= 1 or \"auto\", got %d", d.Rounds)
	}
	return nonNegative(path.field("result_size"), d.ResultSize)
}

// Rounds is a round count; 0 means "auto". In YAML it is a number or "auto".
type Rounds int

// UnmarshalYAML accepts a whole number or the word auto.
func (r *Rounds) UnmarshalYAML(n *yaml.Node) error {
	if n.Value == "auto" {
		*r = 0
		return nil
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < 1 {
		return fmt.Errorf("line %d: rounds: must be a whole number >= 1 or \"auto\", got %q", n.Line, n.Value)
	}
	*r = Rounds(v)
	return nil
}

// MarshalYAML writes 0 as "auto".
func (r Rounds) MarshalYAML() (any, error) {
	if r == 0 {
		return "auto", nil
	}
	return int(r), nil
}

// Broadcast sends a message of Size units from the Roots (initial holders,
// by node name) to every participant of a tree (paper 004).
type Broadcast struct {
	Roots []string `yaml:"roots" json:"roots"`
	Size  float64  `yaml:"size" json:"size"`
}

// Validate checks the broadcast on a tree platform.
func (b *Broadcast) Validate(path string, pl *Platform) error { return b.validate(rootPath(path), pl) }

// validate is Validate below a path kept in pieces.
func (b *Broadcast) validate(path fieldPath, pl *Platform) error {
	if pl.Tree == nil {
		return fieldErr(path, "a broadcast runs on a tree platform, not %q", pl.Kind())
	}
	if err := positive(path.field("size"), b.Size); err != nil {
		return err
	}
	if len(b.Roots) == 0 {
		return fieldErr(path.field("roots"), "must name at least one node that holds the message")
	}
	for i, r := range b.Roots {
		k, ok := pl.Tree.NodeIndex(r)
		if !ok {
			return fieldErr(path.elem("roots", i), "no node is named %q", r)
		}
		if pl.Tree.Nodes[k].Relay {
			return fieldErr(path.elem("roots", i), "%q is a relay: only a participant can hold the message", r)
		}
	}
	return nil
}

package external

import (
	"encoding/json"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// InstanceFormat names the version of the instance format, in the
// instance's format field; it changes when a field changes meaning.
const InstanceFormat = "netsched-instance/1"

// Instance is what an external policy reads on its standard input: one
// JSON object (one line when the policy is persistent). Platform and
// Problem are written as a scenario gives them (package models' JSON
// fields, the YAML keys of a scenario file), after loading: a task graph
// given by file or generator is written out as its tasks and edges, and
// every task has its name (t<i> when the scenario gives none), the label
// its compute action must carry. schemas/instance.schema.json describes
// it.
type Instance struct {
	Format string `json:"format"` // InstanceFormat
	// Policy is the label the scenario gives the policy.
	Policy string `json:"policy"`
	// Seed is the seed of this run: a policy that makes random choices
	// takes them from it, so that a run can be repeated.
	Seed uint64 `json:"seed"`
	// Options are the policy's options from the scenario (options:), by
	// name; {} when it has none.
	Options map[string]any `json:"options"`
	// Platform and Problem are the scenario's, at the run's sweep point.
	Platform *models.Platform `json:"platform"`
	Problem  *models.Problem  `json:"problem"`
	// Nodes are the names of the platform's nodes by index (processors in
	// declaration order across clusters, a tree's relays included): a
	// schedule may give a node by either. Empty on a delay platform with
	// unboundedly many processors, whose node i is named P<i>.
	Nodes []string `json:"nodes"`
}

// NewInstance describes in for the external policy labelled label.
func NewInstance(in policies.Instance, label string) Instance {
	x := Instance{Format: InstanceFormat, Policy: label, Seed: in.Seed, Options: in.Options,
		Platform: in.Platform, Problem: in.Problem, Nodes: []string{}}
	if x.Options == nil {
		x.Options = map[string]any{}
	}
	if in.Platform != nil {
		n := in.Platform.NumNodes()
		x.Nodes = make([]string, n)
		for i := range n {
			x.Nodes[i] = in.Platform.NodeName(i)
		}
	}
	if in.Problem != nil && in.Problem.DAG != nil {
		x.Problem = namedTasks(in.Problem)
	}
	return x
}

// namedTasks returns pr, or a copy of it whose task graph names every
// task, lists its edges ([] rather than null) and no longer says where it
// was read from, when it does not.
func namedTasks(pr *models.Problem) *models.Problem {
	g := pr.DAG
	unnamed := false
	for i := range g.Tasks {
		if g.Tasks[i].Name == "" {
			unnamed = true
			break
		}
	}
	if !unnamed && g.From == nil && g.Edges != nil {
		return pr
	}
	c, cg := *pr, *g
	cg.From = nil
	if cg.Edges == nil {
		cg.Edges = []models.DAGEdge{}
	}
	if unnamed {
		cg.Tasks = make([]models.Task, len(g.Tasks))
		for i, t := range g.Tasks {
			t.Name = g.TaskName(i)
			cg.Tasks[i] = t
		}
	}
	c.DAG = &cg
	return &c
}

// Marshal encodes the instance as one line of JSON, without the newline.
func (x Instance) Marshal() ([]byte, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("encoding the instance: %w", err)
	}
	return b, nil
}

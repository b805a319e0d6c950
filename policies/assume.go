package policies

import (
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
)

// Assumption is a property of the platform model that a policy's
// algorithm takes for granted, as its paper states it: that communication
// overlaps computation, that processors are unbounded, ... A policy
// declares its assumptions in its Entry (Assumes), beside its options;
// `netsched doc` lists them, and the scenario loader checks each against
// the platform and problem of a scenario naming the policy.
type Assumption struct {
	Name   string // a few words, such as "overlap"
	Doc    string // what the policy assumes, in the paper's terms
	Source string // the paper that assumes it, with its section
	// Contradicted, if not nil, says how pl and pr contradict the
	// assumption, naming the field to set: "" when they do not.
	Contradicted func(pl *models.Platform, pr *models.Problem) string
	// Required makes a contradiction an error: the policy cannot plan
	// there at all (the loader refuses the scenario, exit status 2). A
	// contradiction is otherwise a warning: the policy plans, but on
	// another model than its paper's, and a comparison must say so.
	Required bool
}

// Contradiction is an assumption of a policy that a platform and problem
// contradict, and how.
type Contradiction struct {
	Assumption
	Why string // how the platform contradicts it, naming the field to set
}

// String says which assumption of policy is contradicted and how.
func (c Contradiction) String() string {
	return fmt.Sprintf("%s (%s), but %s", c.Doc, c.Source, c.Why)
}

// Contradictions checks the policy's assumptions against pl and pr: the
// contradicted ones that a run may go on with (warnings), and an error
// for the first one it may not (Required).
func (e Entry) Contradictions(pl *models.Platform, pr *models.Problem) ([]Contradiction, error) {
	var out []Contradiction
	for _, a := range e.Assumes {
		if a.Contradicted == nil {
			continue
		}
		why := a.Contradicted(pl, pr)
		if why == "" {
			continue
		}
		c := Contradiction{a, why}
		if a.Required {
			return out, fmt.Errorf("%s assumes %s", e.Name, c)
		}
		out = append(out, c)
	}
	return out, nil
}

// From is the assumption as source states it.
func (a Assumption) From(source string) Assumption {
	a.Source = source
	return a
}

// AssumeOverlap is the assumption of HEFT and CPOP (Topcuoglu, Hariri and
// Wu 2002, §2) and of the clustering algorithms' delay model (paper 002
// §2): a processor computes at full speed while its data is sent and
// received. A crossbar or multi-cluster processor without overlap (the
// default, paper 000's model) stops computing while it communicates.
var AssumeOverlap = Assumption{
	Name:         "overlap",
	Doc:          "that communication overlaps computation: a processor computes at full speed while it sends and receives",
	Contradicted: noOverlap,
}

// noOverlap says which processors of a crossbar, multi-cluster or network compute
// slower, or not at all, while they communicate, and what to write.
func noOverlap(pl *models.Platform, _ *models.Problem) string {
	var procs []models.Processor
	var kinds []string
	var path, fix string
	switch {
	case pl.Crossbar != nil:
		procs, kinds = pl.Crossbar.Processors, models.CrossbarKinds
		path, fix = "platform.crossbar.processors", "overlap: {send: γ, recv: γ} (on a generator, overlap: {send: gamma, recv: gamma})"
	case pl.MultiCluster != nil:
		for _, c := range pl.MultiCluster.Clusters {
			procs = append(procs, c.Processors...)
		}
		kinds = models.MultiClusterKinds
		path, fix = "platform.multicluster.clusters[].processors", "overlap: {intra: γ, inter: γ} (on a generator, overlap: {intra: gamma, inter: gamma})"
	case pl.Network != nil:
		procs, kinds = pl.Network.Hosts, models.NetworkKinds
		path, fix = "platform.network.hosts", "overlap: {send: γ, recv: γ} (on a generator, overlap: {send: gamma, recv: gamma})"
	default:
		return ""
	}
	slower := 0
	for i := range procs {
		if !fullOverlap(&procs[i], kinds) {
			slower++
		}
	}
	if slower == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %d processors of %s stop or slow their computation while they communicate: "+
		"for the paper's model set %s on each, γ its gamma", slower, len(procs), path, fix)
}

// fullOverlap reports whether p computes at its full speed 1/γ whatever
// communication is active.
func fullOverlap(p *models.Processor, kinds []string) bool {
	if p.Rate(kinds) < 1/p.Gamma*(1-1e-12) {
		return false
	}
	for _, k := range kinds {
		if g := p.OverlapGamma(k); math.IsInf(g, 1) || g > p.Gamma*(1+1e-12) {
			return false
		}
	}
	return true
}

// AssumeUnbounded is the assumption of the clustering algorithms' delay
// model (paper 002 §2): as many processors as clusters. On the delay
// platform with a bound (platform.delay.processors), a clustering policy
// maps its clusters onto the processors, as on a crossbar.
var AssumeUnbounded = Assumption{
	Name:   "unbounded processors",
	Doc:    "as many processors as clusters",
	Source: "paper 002 §2",
	Contradicted: func(pl *models.Platform, pr *models.Problem) string {
		if d := pl.Delay; d != nil && d.Processors > 0 {
			return fmt.Sprintf("platform.delay.processors is %d: its clusters are mapped onto the %d processors, largest first "+
				"onto the least loaded, and timed again (0 or no processors field: as many as needed)", d.Processors, d.Processors)
		}
		return ""
	},
}

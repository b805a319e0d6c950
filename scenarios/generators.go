package scenarios

import (
	"fmt"
	"slices"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
	"go.yaml.in/yaml/v3"
)

// checkGenerated refuses, before the file is decoded, a processor
// generator (models.ProcessorGen) of a crossbar or of a cluster whose
// count would not fit the memory budget b: decoding draws the processors.
// A count below 1 is an error too; one that is not a number is left to
// the decoder to report.
func (p *parser) checkGenerated(b budget.Bytes) error {
	check := func(path string, procs *yaml.Node) error {
		procs = resolveAlias(procs)
		if procs == nil || procs.Kind != yaml.MappingNode {
			return nil
		}
		_, count := lookupKey(procs, "count")
		var n float64
		if count == nil || count.Decode(&n) != nil {
			return nil
		}
		if !(n >= 1) {
			return p.fieldError(&models.FieldError{Path: path + ".count", Msg: fmt.Sprintf("must be a whole number >= 1, got %v", n)})
		}
		nameLen := 0
		if _, name := lookupKey(procs, "name"); name != nil && name.Kind == yaml.ScalarNode {
			nameLen = len(name.Value)
		}
		if err := models.CheckProcessorCount(n, nameLen, b); err != nil {
			return p.fieldError(&models.FieldError{Path: path + ".count", Msg: err.Error()})
		}
		return nil
	}
	for _, g := range p.generatorNodes() {
		if err := check(g.path, g.node); err != nil {
			return err
		}
	}
	return nil
}

// generatorNode is the node of a processor generator in the file.
type generatorNode struct {
	path    string // platform.crossbar.processors or platform.multicluster.clusters[i].processors
	cluster int    // -1 for a crossbar's
	node    *yaml.Node
}

// generatorNodes finds the processor generators of the file: the
// mappings written in place of a crossbar's or a cluster's processors.
func (p *locator) generatorNodes() []generatorNode {
	var out []generatorNode
	add := func(path string, cluster int, procs *yaml.Node) {
		if procs = resolveAlias(procs); procs != nil && procs.Kind == yaml.MappingNode {
			out = append(out, generatorNode{path, cluster, procs})
		}
	}
	_, platform := lookupKey(p.root, "platform")
	if platform = resolveAlias(platform); platform == nil || platform.Kind != yaml.MappingNode {
		return nil
	}
	if _, cb := lookupKey(platform, "crossbar"); resolveAlias(cb) != nil && resolveAlias(cb).Kind == yaml.MappingNode {
		_, procs := lookupKey(resolveAlias(cb), "processors")
		add("platform.crossbar.processors", -1, procs)
	}
	_, mc := lookupKey(platform, "multicluster")
	if mc = resolveAlias(mc); mc == nil || mc.Kind != yaml.MappingNode {
		return out
	}
	_, clusters := lookupKey(mc, "clusters")
	if clusters = resolveAlias(clusters); clusters == nil || clusters.Kind != yaml.SequenceNode {
		return out
	}
	for i, c := range clusters.Content {
		if c = resolveAlias(c); c != nil && c.Kind == yaml.MappingNode {
			_, procs := lookupKey(c, "processors")
			add(fmt.Sprintf("platform.multicluster.clusters[%d].processors", i), i, procs)
		}
	}
	return out
}

// generators reads the file's processor generators, once the file has
// decoded (which checked them).
func (p *parser) generators() ([]Generated, error) {
	var out []Generated
	for _, n := range p.generatorNodes() {
		g := Generated{Path: n.path, Cluster: n.cluster}
		if err := n.node.Decode(&g.Gen); err != nil {
			return nil, p.errAt(n.node.Line, "%s: %v", n.path, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// Generated is a processor generator of the scenario's platform
// (models.ProcessorGen), and where its processors go.
type Generated struct {
	Path    string // platform.crossbar.processors or platform.multicluster.clusters[i].processors
	Cluster int    // the cluster's index; -1 for a crossbar's processors
	Gen     models.ProcessorGen
}

// ForSeed is the scenario as a run of seed sees it: the scenario itself,
// unless a generator draws its processors from the run's seed (per_run),
// in which case a copy whose platform holds the processors drawn for
// seed, validated again with the problem on it. The copy shares all else.
func (s *Scenario) ForSeed(seed uint64) (*Scenario, error) {
	c := s
	for i, g := range s.Generated {
		if !g.Gen.PerRun {
			continue
		}
		if c == s {
			copied := *s
			c = &copied
		}
		if err := c.place(i, seed); err != nil {
			return nil, err
		}
	}
	if c == s {
		return s, nil
	}
	if err := c.Platform.Validate(); err != nil {
		return nil, fmt.Errorf("scenario %s: processors drawn for seed %d: %w", s.Source, seed, err)
	}
	if err := c.Problem.Validate(&c.Platform); err != nil {
		return nil, fmt.Errorf("scenario %s: processors drawn for seed %d: %w", s.Source, seed, err)
	}
	return c, nil
}

// SeedsDraw reports whether a generator of the platform draws its
// processors from each run's seed (per_run).
func (s *Scenario) SeedsDraw() bool {
	return slices.ContainsFunc(s.Generated, func(g Generated) bool { return g.Gen.PerRun })
}

// Regenerate sets generator i of s, a shallow copy of a scenario, to g and
// draws its processors into the platform, copying what it changes; per_run
// generators draw for a run of seed 0 here, and for each run in ForSeed. The
// caller validates the platform.
func (s *Scenario) Regenerate(i int, g models.ProcessorGen) error {
	s.Generated = slices.Clone(s.Generated)
	s.Generated[i].Gen = g
	return s.place(i, 0)
}

// place draws the processors of generator i for a run of seed runSeed
// into the platform of s, a shallow copy of a scenario: the crossbar, or
// the multi-cluster and its cluster list, are copied first.
func (s *Scenario) place(i int, runSeed uint64) error {
	g := s.Generated[i]
	ps, err := g.Gen.Draw(runSeed)
	if err != nil {
		return fmt.Errorf("%s: %w", g.Path, err)
	}
	switch pl := &s.Platform; {
	case g.Cluster < 0 && pl.Crossbar != nil:
		cb := *pl.Crossbar
		cb.Processors = ps
		pl.Crossbar = &cb
	case g.Cluster >= 0 && pl.MultiCluster != nil && g.Cluster < len(pl.MultiCluster.Clusters):
		mc := *pl.MultiCluster
		mc.Clusters = slices.Clone(mc.Clusters)
		mc.Clusters[g.Cluster].Processors = ps
		pl.MultiCluster = &mc
	default:
		return fmt.Errorf("%s: the platform has no such processors", g.Path)
	}
	return nil
}

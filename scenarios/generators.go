package scenarios

import (
	"fmt"

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
	_, platform := lookupKey(p.root, "platform")
	if platform = resolveAlias(platform); platform == nil || platform.Kind != yaml.MappingNode {
		return nil
	}
	if _, cb := lookupKey(platform, "crossbar"); resolveAlias(cb) != nil && resolveAlias(cb).Kind == yaml.MappingNode {
		if _, procs := lookupKey(resolveAlias(cb), "processors"); procs != nil {
			if err := check("platform.crossbar.processors", procs); err != nil {
				return err
			}
		}
	}
	_, mc := lookupKey(platform, "multicluster")
	if mc = resolveAlias(mc); mc == nil || mc.Kind != yaml.MappingNode {
		return nil
	}
	_, clusters := lookupKey(mc, "clusters")
	if clusters = resolveAlias(clusters); clusters == nil || clusters.Kind != yaml.SequenceNode {
		return nil
	}
	for i, c := range clusters.Content {
		if c = resolveAlias(c); c == nil || c.Kind != yaml.MappingNode {
			continue
		}
		_, procs := lookupKey(c, "processors")
		if err := check(fmt.Sprintf("platform.multicluster.clusters[%d].processors", i), procs); err != nil {
			return err
		}
	}
	return nil
}

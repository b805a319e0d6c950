package scenarios

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
)

// checkWhole refuses, before the file is decoded, a number with a fraction
// (or an infinity) where the scenario's Go types want a whole number: the
// YAML library would truncate `seeds: 10.5` to 10 and `from: 0.5` to 0
// without a word. It walks the node tree n beside the type t that decodes
// it, so every integer field of the file's types is covered, and names
// the field by its path with indices ("problem.dag.edges[3].from").
// Whatever does not fit t is left to the decoder to report.
func (p *parser) checkWhole(n *yaml.Node, t reflect.Type, path string, depth int) error {
	if n == nil || depth > maxDepth {
		return nil
	}
	line := n.Line // where the value is written, or the alias to it
	if n = resolveAlias(n); n == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case reflect.TypeFor[yaml.Node](), reflect.TypeFor[models.Dist]():
		return nil // read by hand (policies, sweep) or a number of any kind
	case reflect.TypeFor[models.Processors]():
		if n.Kind == yaml.MappingNode { // a generator in place of the list
			return p.checkWhole(n, reflect.TypeFor[models.ProcessorGen](), path, depth+1)
		}
		return p.checkWhole(n, reflect.TypeFor[[]models.Processor](), path, depth+1)
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && !wholeFloat(n.Value) {
			return p.errAt(line, "%s: want a whole number, got %s", path, n.Value)
		}
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if key == "<<" && n.Content[i].ShortTag() == "!!merge" { // <<: *base merges a mapping, or a list of them
				merged := resolveAlias(n.Content[i+1])
				if merged != nil && merged.Kind == yaml.SequenceNode {
					for _, m := range merged.Content {
						if err := p.checkWhole(m, t, path, depth+1); err != nil {
							return err
						}
					}
				} else if err := p.checkWhole(merged, t, path, depth+1); err != nil {
					return err
				}
				continue
			}
			for _, f := range fields {
				if f.name == key {
					if err := p.checkWhole(n.Content[i+1], t.FieldByIndex(f.index).Type, joinKey(path, key), depth+1); err != nil {
						return err
					}
					break
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return nil
		}
		for i, item := range n.Content {
			if err := p.checkWhole(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := p.checkWhole(n.Content[i+1], t.Elem(), joinKey(path, n.Content[i].Value), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// wholeFloat reports whether a YAML float's text denotes a finite whole
// number, such as 1e3 or 10.0 (the YAML library drops underscores, and
// writes infinities and NaN .inf and .nan, which are not).
func wholeFloat(text string) bool {
	x, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	return err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) && x == math.Trunc(x)
}

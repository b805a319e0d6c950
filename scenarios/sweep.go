package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sweep/axis"
)

// Axis is one axis of the file's sweep section (package sweep/axis);
// package sweep says what its path names and checks its values.
type Axis = axis.Axis

// sweep reads the sweep mapping: parameter path → list of numbers or a
// "start:stop:step" range, in file order, with the line of each value.
// Which field a path names and whether its values fit is checked by
// package sweep, which owns what a path means.
func (p *parser) sweep(n *yaml.Node) ([]Axis, error) {
	n = resolveAlias(n)
	if n == nil || n.Kind == 0 || n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errAt(n.Line, "sweep: must map parameters to values, e.g. {beta: [0.1, 0.2]}, got %s", models.DescribeNode(n))
	}
	var axes []Axis
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if line, dup := seen[k.Value]; dup {
			return nil, p.errAt(k.Line, "sweep: %s is already swept at line %d", k.Value, line)
		}
		seen[k.Value] = k.Line
		values, lines, err := p.axisValues(k.Value, v)
		if err != nil {
			return nil, err
		}
		axes = append(axes, Axis{Path: k.Value, Values: values, Line: k.Line, Lines: lines})
		if _, err := axis.Points(axes); err != nil {
			return nil, p.errAt(k.Line, "%v", err)
		}
	}
	return axes, nil
}

// axisValues reads the values of one axis and the line of each.
func (p *parser) axisValues(name string, v *yaml.Node) ([]float64, []int, error) {
	if v == nil {
		return nil, nil, p.errAt(0, "sweep %s: no values", name)
	}
	switch {
	case v.Kind == yaml.SequenceNode && len(v.Content) > 0 && len(v.Content) <= axis.MaxValues:
		values, lines := make([]float64, len(v.Content)), make([]int, len(v.Content))
		for i, item := range v.Content {
			x, err := number(item)
			if err != nil {
				return nil, nil, p.errAt(item.Line, "sweep %s[%d]: %v", name, i, err)
			}
			values[i], lines[i] = x, item.Line
		}
		return values, lines, nil
	case v.Kind == yaml.ScalarNode && strings.Count(v.Value, ":") == 2:
		values, err := axis.ParseRange(v.Value)
		if err != nil {
			return nil, nil, p.errAt(v.Line, "sweep %s: %v", name, err)
		}
		lines := make([]int, len(values))
		for i := range lines {
			lines[i] = v.Line
		}
		return values, lines, nil
	}
	return nil, nil, p.errAt(v.Line, "sweep %s: want a list of 1 to %d numbers or a \"start:stop:step\" range, got %s",
		name, axis.MaxValues, models.DescribeNode(v))
}

// number reads a finite number from a scalar node.
func number(n *yaml.Node) (float64, error) {
	n = resolveAlias(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, fmt.Errorf("want a number")
	}
	x, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("want a finite number, got %q", n.Value)
	}
	return x, nil
}

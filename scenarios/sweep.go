package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits on sweeps, so that a typo such as "0:1e9:1" is an error rather
// than a run that never ends.
const (
	maxAxisValues = 10_000
	maxGridPoints = 1_000_000
)

// sweep reads the sweep mapping: parameter path → list of numbers or a
// "start:stop:step" range, in file order. Every value is checked by
// setting it and validating the scenario.
func (p *parser) sweep(n *yaml.Node, s *Scenario) ([]Axis, error) {
	n = resolveAlias(n)
	if n == nil || n.Kind == 0 || n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errAt(n.Line, "sweep: must map parameters to values, e.g. {beta: [0.1, 0.2]}, got %s", describe(n))
	}
	var axes []Axis
	points := 1
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
		if err := p.checkAxis(s, k, values, lines); err != nil {
			return nil, err
		}
		if points *= len(values); points > maxGridPoints {
			return nil, p.errAt(k.Line, "sweep: more than %d points in all", maxGridPoints)
		}
		axes = append(axes, Axis{Path: k.Value, Values: values})
	}
	return axes, nil
}

// axisValues reads the values of one axis and the line of each.
func (p *parser) axisValues(name string, v *yaml.Node) ([]float64, []int, error) {
	if v == nil {
		return nil, nil, p.errAt(0, "sweep %s: no values", name)
	}
	switch {
	case v.Kind == yaml.SequenceNode && len(v.Content) > 0 && len(v.Content) <= maxAxisValues:
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
		values, err := ParseRange(v.Value)
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
		name, maxAxisValues, describe(v))
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

// ParseRange expands "start:stop:step" into start, start+step, ... ≤ stop.
//
// The values are start + i·step rounded to the decimal digits of start and
// step, so that 0.01:0.2:0.01 gives 0.06 and not 0.060000000000000005.
func ParseRange(r string) ([]float64, error) {
	parts := strings.Split(r, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("range %q: want start:stop:step", r)
	}
	var v [3]float64
	for i, s := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("range %q: want start:stop:step with finite numbers", r)
		}
		v[i] = x
	}
	start, stop, step := v[0], v[1], v[2]
	if !(step > 0) || stop < start {
		return nil, fmt.Errorf("range %q: want step > 0 and stop >= start", r)
	}
	n := math.Floor((stop-start)/step+1e-9) + 1
	if n > maxAxisValues {
		return nil, fmt.Errorf("range %q has %v values, at most %d", r, n, maxAxisValues)
	}
	values := make([]float64, int(n))
	digits := max(decimals(start), decimals(step))
	for i := range values {
		values[i] = roundDecimal(start+float64(i)*step, digits)
	}
	return values, nil
}

// decimals is the number of decimal digits x needs, written as briefly as
// it reads back exactly: 2 for 0.01, 0 for 5 and 1e3, 15 at most.
func decimals(x float64) int {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	_, frac, _ := strings.Cut(s, ".")
	return min(len(frac), 15)
}

// roundDecimal is the float64 nearest to x rounded to the given number of
// decimal digits: a range's value start + i·step, rounded to the digits of
// start and step, is the number a person writes (0.06, not
// 0.060000000000000005).
func roundDecimal(x float64, digits int) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', digits, 64), 64)
	if err != nil {
		return x
	}
	return r
}

// checkAxis checks an axis of the file, reporting the line of a bad value.
func (p *parser) checkAxis(s *Scenario, k *yaml.Node, values []float64, lines []int) error {
	bad, err := s.checkAxis(k.Value, values)
	switch {
	case err == nil:
		return nil
	case bad < 0:
		return p.errAt(k.Line, "sweep: %v", err)
	}
	return p.errAt(lines[bad], "sweep %s = %v: %v", k.Value, values[bad], err)
}

// checkAxis sets each value in turn, validates, and puts the old value
// back. It returns the index of the first bad value, or -1 when the path
// itself is wrong.
func (s *Scenario) checkAxis(path string, values []float64) (int, error) {
	full := s.qualify(path)
	for i, x := range values {
		restore, err := s.set(full, x, inPlace)
		if err != nil {
			return -1, err
		}
		err = s.validate()
		restore()
		if err != nil {
			return i, err
		}
	}
	return 0, nil
}

// WithSweep returns a copy of the scenario whose sweep is axes instead of
// its own, after checking that every axis names a numeric field and that
// every value gives a valid scenario. It is how a command line's axes
// (netsched sweep --set) replace a file's.
func (s *Scenario) WithSweep(axes []Axis) (*Scenario, error) {
	c := deepCopy(s)
	c.Sweep = nil
	points := 1
	for _, a := range axes {
		if len(a.Values) == 0 {
			return nil, fmt.Errorf("axis %s: no values", a.Path)
		}
		bad, err := c.checkAxis(a.Path, a.Values)
		switch {
		case bad < 0:
			return nil, fmt.Errorf("axis %s names no field of scenario %s: %w", a.Path, s.Name, err)
		case err != nil:
			return nil, fmt.Errorf("axis %s = %v: %w", a.Path, a.Values[bad], err)
		}
		if points *= len(a.Values); points > maxGridPoints {
			return nil, fmt.Errorf("more than %d sweep points in all", maxGridPoints)
		}
		c.Sweep = append(c.Sweep, Axis{Path: a.Path, Values: append([]float64(nil), a.Values...)})
	}
	c.resolveSweep()
	return c, nil
}

// resolveSweep records the full path of every axis, once, so that making
// a point does not resolve bare names again.
func (s *Scenario) resolveSweep() {
	s.sweepPaths = make([][]step, len(s.Sweep))
	for i, a := range s.Sweep {
		s.sweepPaths[i], _ = splitPath(s.qualify(a.Path)) // checked when the axis was made
		resolveFields(s.sweepPaths[i])
	}
}

// validate checks the platform and the problem on it.
func (s *Scenario) validate() error {
	if err := s.Platform.Validate(); err != nil {
		return err
	}
	return s.Problem.Validate(&s.Platform)
}

// Grid lists every point of the sweep, one value per axis, the first axis
// varying slowest. A scenario without sweep has one point with no values.
func (s *Scenario) Grid() [][]float64 {
	grid := [][]float64{{}}
	for _, a := range s.Sweep {
		next := make([][]float64, 0, len(grid)*len(a.Values))
		for _, pt := range grid {
			for _, x := range a.Values {
				next = append(next, append(pt[:len(pt):len(pt)], x))
			}
		}
		grid = next
	}
	return grid
}

// Point returns a copy of the scenario with axis i of the sweep set to
// values[i], validated, and without sweep. The copy shares with s all it
// does not change (a task graph, say), so neither may be modified: like
// Instance, it is read-only. Points may be made concurrently.
func (s *Scenario) Point(values []float64) (*Scenario, error) {
	if len(values) != len(s.Sweep) {
		return nil, fmt.Errorf("scenario %s: %d sweep values for %d axes", s.Source, len(values), len(s.Sweep))
	}
	c := *s // shallow: set copies what it changes
	c.Sweep, c.sweepPaths = nil, nil
	for i, steps := range s.sweepPaths {
		if _, err := c.setSteps(steps, values[i], copyOnWrite); err != nil {
			return nil, fmt.Errorf("scenario %s: sweep: %w", s.Source, err)
		}
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("scenario %s: sweep point %v: %w", s.Source, values, err)
	}
	return &c, nil
}

// Package axis reads the axes of a parameter sweep: a dotted path into a
// scenario and the values it takes, from a scenario file's sweep section
// or from a --set flag, with exact decimal ranges, and lists the points of
// their cross product. What a path means and whether a value fits is
// package sweep's business; this package only reads numbers.
package axis

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits on sweeps, so that a typo such as "0:1e9:1" is an error rather
// than a run that never ends.
const (
	MaxValues = 10_000    // values of one axis
	MaxPoints = 1_000_000 // points of a sweep, all axes crossed
)

// Axis is one swept parameter: a dotted path into the scenario (such as
// platform.crossbar.processors[2].gamma), a bare parameter name of the
// platform or problem (beta, alpha, rho, size), or a policy variant's
// option (cross-k5.k), and its values in order.
type Axis struct {
	Path   string
	Values []float64
	// Where the axis comes from, for errors: Line is its line in a scenario
	// file and Lines the line of each value (both 0 for a --set flag).
	Line  int   `yaml:"-"`
	Lines []int `yaml:"-"`
}

// Field names the axis, or its value i (i ≥ 0), in an error message: the
// scenario file's sweep.PATH, or the flag --set PATH.
func (a *Axis) Field(i int) string {
	if a.Line == 0 {
		return "--set " + a.Path
	}
	if i >= 0 && len(a.Values) > 1 {
		return fmt.Sprintf("sweep.%s[%d]", a.Path, i)
	}
	return "sweep." + a.Path
}

// LineOf is the file line of value i, or of the axis when i < 0.
func (a *Axis) LineOf(i int) int {
	if i >= 0 && i < len(a.Lines) {
		return a.Lines[i]
	}
	return a.Line
}

// ParseSet reads a --set argument, NAME=v1,v2,... or NAME=start:stop:step,
// into an axis.
func ParseSet(spec string) (Axis, error) {
	name, vals, ok := strings.Cut(spec, "=")
	name, vals = strings.TrimSpace(name), strings.TrimSpace(vals)
	if !ok || name == "" || vals == "" {
		return Axis{}, fmt.Errorf("--set %q: want NAME=v1,v2,... or NAME=start:stop:step", spec)
	}
	var values []float64
	var err error
	if strings.Contains(vals, ":") {
		values, err = ParseRange(vals)
	} else {
		values, err = parseList(vals)
	}
	if err != nil {
		return Axis{}, fmt.Errorf("--set %s: %w", name, err)
	}
	return Axis{Path: name, Values: values}, nil
}

func parseList(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number", strings.TrimSpace(f))
		}
		out = append(out, v)
	}
	if len(out) > MaxValues {
		return nil, fmt.Errorf("%d values, at most %d", len(out), MaxValues)
	}
	return out, nil
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
	if n > MaxValues {
		return nil, fmt.Errorf("range %q has %v values, at most %d", r, n, MaxValues)
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

// Points counts the points of the axes' cross product, or returns an
// error when there are more than MaxPoints or an axis has no value.
func Points(axes []Axis) (int, error) {
	n := 1
	for _, a := range axes {
		if len(a.Values) == 0 {
			return 0, fmt.Errorf("%s: no values", a.Field(-1))
		}
		if n *= len(a.Values); n > MaxPoints {
			return 0, fmt.Errorf("%s: more than %d sweep points in all", a.Field(-1), MaxPoints)
		}
	}
	return n, nil
}

// Grid lists every point of the axes' cross product, one value per axis,
// the first axis varying slowest. No axes give one point with no values.
func Grid(axes []Axis) [][]float64 {
	grid := [][]float64{{}}
	for _, a := range axes {
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

// Step is one element of a dotted path: a field or map key, or a list
// index.
type Step struct {
	Key     string
	Index   int
	IsIndex bool
}

// SplitPath parses a dotted path such as
// "platform.crossbar.processors[2].overlap.send".
func SplitPath(path string) ([]Step, error) {
	if path == "" {
		return nil, fmt.Errorf("empty path")
	}
	var steps []Step
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" {
			return nil, fmt.Errorf("path %q: empty field name", path)
		}
		steps = append(steps, Step{Key: key})
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 || (after != "" && after[0] != '[') {
				return nil, fmt.Errorf("path %q: want [index] with a whole number >= 0", path)
			}
			steps = append(steps, Step{Index: i, IsIndex: true})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps, nil
}

// PathString prints steps back as a dotted path.
func PathString(steps []Step) string {
	var b strings.Builder
	for i, st := range steps {
		switch {
		case st.IsIndex:
			fmt.Fprintf(&b, "[%d]", st.Index)
		case i > 0:
			b.WriteString("." + st.Key)
		default:
			b.WriteString(st.Key)
		}
	}
	return b.String()
}

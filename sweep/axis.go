package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/netsched/netsched/scenarios"
)

// ParseSet reads a --set argument, NAME=v1,v2,... or NAME=start:stop:step,
// into an axis. NAME is a dotted path into the scenario (for example
// platform.crossbar.processors[2].gamma) or a parameter name of its
// platform or problem (beta, alpha, rho, size); the scenario resolves it.
func ParseSet(spec string) (scenarios.Axis, error) {
	name, vals, ok := strings.Cut(spec, "=")
	name, vals = strings.TrimSpace(name), strings.TrimSpace(vals)
	if !ok || name == "" || vals == "" {
		return scenarios.Axis{}, fmt.Errorf("--set %q: want NAME=v1,v2,... or NAME=start:stop:step", spec)
	}
	var values []float64
	var err error
	if strings.Contains(vals, ":") {
		values, err = scenarios.ParseRange(vals)
	} else {
		values, err = parseList(vals)
	}
	if err != nil {
		return scenarios.Axis{}, fmt.Errorf("--set %s: %w", name, err)
	}
	return scenarios.Axis{Path: name, Values: values}, nil
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
	return out, nil
}

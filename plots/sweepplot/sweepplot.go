// Package sweepplot turns a sweep's results table into comparison plots:
// one line per policy of a metric against one swept parameter, the mean
// over seeds with the standard deviation as error bar, optionally as a
// ratio to (or a speedup over) a baseline policy at the same point and seed.
package sweepplot

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/sweep"
	"github.com/netsched/netsched/sweep/axis"
)

// Spec says which part of a results table to plot.
type Spec struct {
	// X is the axis on the x axis; "" means the table's only axis.
	X string
	// Metric is simulated_makespan, claimed_makespan, gap, violations,
	// plan_seconds, shared_makespan, shared_ratio, or a policy metric
	// (metric.NAME or NAME).
	Metric string
	// RatioTo, if set, divides each policy's metric by this policy's at
	// the same point and seed; with Invert, this policy's by each
	// policy's: a speedup.
	RatioTo string
	Invert  bool
	// Where holds NAME=VALUE filters on the other axes.
	Where []string
	LogX  bool
	// Title is drawn above the plot; empty for none.
	Title string
	// XLabel and YLabel override the axis labels, which are otherwise the
	// swept parameter's and the metric's labels with units
	// in TimeUnit (plots.LookupQuantityIn), or for a ratio
	// plots.RatioLabel.
	XLabel, YLabel string
	// TimeUnit is the unit of model time on the platform the sweep ran
	// on: "" for seconds, plots.TaskTimes on the delay platform. The
	// default labels take it (plots.LookupQuantityIn).
	TimeUnit string
	// Styles gives each policy its colour, dash pattern and marker. The
	// zero value assigns them from every policy of the table (TableStyles),
	// so a policy looks the same in every figure of one sweep; a
	// reproduction that draws several sweeps passes the styles of all
	// their policies.
	Styles plots.Styles
	// Size is the figure's size and font size; zero: 6×4 inches, screen
	// fonts.
	Size plots.Size
}

// TableStyles returns the styles of every policy (or policy label) of a
// results table, whatever rows a figure selects.
func TableStyles(t *sweep.Table) plots.Styles {
	var names []string
	for _, r := range t.Rows {
		names = append(names, r.Policy)
	}
	return plots.NewStyles(names...)
}

// Labels returns the axis labels of the plot spec draws of an x axis
// named xName: spec's own, or the quantities' labels with units.
func (spec Spec) Labels(xName string) (xlabel, ylabel string) {
	xlabel, ylabel = spec.XLabel, spec.YLabel
	if xlabel == "" {
		xlabel = plots.LookupQuantityIn(xName, spec.TimeUnit).Label()
	}
	if ylabel == "" {
		ylabel = plots.LookupQuantityIn(spec.Metric, spec.TimeUnit).Label()
		if spec.RatioTo != "" {
			ylabel = plots.RatioLabel(spec.Metric, spec.RatioTo, spec.Invert)
		}
	}
	return xlabel, ylabel
}

// Save draws what spec selects from a results table into out; the
// extension picks PNG, SVG or PDF.
func Save(t *sweep.Table, spec Spec, out string) error {
	series, xName, err := Lines(t, spec)
	if err != nil {
		return err
	}
	xlabel, ylabel := spec.Labels(xName)
	styles := spec.Styles
	if len(styles.Labels()) == 0 {
		styles = TableStyles(t)
	}
	opt := plots.LineOptions{Title: spec.Title, XLabel: xlabel, YLabel: ylabel, LogX: spec.LogX, Styles: styles,
		Width: spec.Size.Width, Height: spec.Size.Height, FontSize: spec.Size.FontSize}
	return plots.SaveLines(series, opt, out)
}

// Lines turns a results table into one line per policy: the mean of the
// metric over seeds at each x, with the standard deviation as error. It
// returns the name of the x axis too.
func Lines(t *sweep.Table, spec Spec) ([]plots.Series, string, error) {
	xi, err := xAxis(t, spec.X)
	if err != nil {
		return nil, "", err
	}
	rows, err := filterWhere(t, spec.Where, xi)
	if err != nil {
		return nil, "", err
	}
	value := func(r *sweep.Row) (float64, bool) { return Metric(r, spec.Metric) }
	if spec.RatioTo != "" {
		if value, err = ratioTo(rows, spec.RatioTo, spec.Metric, spec.Invert); err != nil {
			return nil, "", err
		}
	}
	samples := map[string]map[float64][]float64{}
	var names []string
	for _, r := range rows {
		v, ok := value(r)
		if !ok {
			continue
		}
		if samples[r.Policy] == nil {
			samples[r.Policy] = map[float64][]float64{}
			names = append(names, r.Policy)
		}
		samples[r.Policy][r.Point[xi]] = append(samples[r.Policy][r.Point[xi]], v)
	}
	if len(names) == 0 {
		return nil, "", fmt.Errorf("no rows have a value for %q", spec.Metric)
	}
	var series []plots.Series
	for _, name := range names {
		series = append(series, summarize(name, samples[name]))
	}
	return series, t.Axes[xi], nil
}

func summarize(name string, byX map[float64][]float64) plots.Series {
	s := plots.Series{Name: name}
	xs := make([]float64, 0, len(byX))
	for x := range byX {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	for _, x := range xs {
		mean, std := stat.MeanStdDev(byX[x], nil)
		if len(byX[x]) < 2 {
			std = 0
		}
		s.X, s.Y, s.YErr = append(s.X, x), append(s.Y, mean), append(s.YErr, std)
	}
	return s
}

func xAxis(t *sweep.Table, name string) (int, error) {
	if len(t.Axes) == 0 {
		return 0, fmt.Errorf("the results have no swept parameter to plot against")
	}
	if name == "" {
		if len(t.Axes) > 1 {
			return 0, fmt.Errorf("several axes (%s): choose one with --x", strings.Join(t.Axes, ", "))
		}
		return 0, nil
	}
	for i, a := range t.Axes {
		if a == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("--x %s: no such axis (have %s)", name, strings.Join(t.Axes, ", "))
}

// filterWhere keeps rows matching every NAME=VALUE, and checks that no
// axis other than x still varies.
func filterWhere(t *sweep.Table, where []string, xi int) ([]*sweep.Row, error) {
	fixed := map[int]float64{}
	for _, w := range where {
		ax, err := axis.ParseSet(w)
		if err != nil || len(ax.Values) != 1 {
			return nil, fmt.Errorf("--where %q: want NAME=VALUE", w)
		}
		i := slices.Index(t.Axes, ax.Path)
		if i < 0 {
			return nil, fmt.Errorf("--where %s: no such axis (have %s)", ax.Path, strings.Join(t.Axes, ", "))
		}
		fixed[i] = ax.Values[0]
	}
	if err := checkWhere(t, fixed); err != nil {
		return nil, err
	}
	var rows []*sweep.Row
	seen := map[int]map[float64]bool{}
	for _, r := range t.Rows {
		keep := true
		for i, v := range fixed {
			keep = keep && sameValue(r.Point[i], v)
		}
		if !keep {
			continue
		}
		rows = append(rows, r)
		for i, v := range r.Point {
			if seen[i] == nil {
				seen[i] = map[float64]bool{}
			}
			seen[i][v] = true
		}
	}
	for i := range t.Axes {
		if i != xi && len(seen[i]) > 1 {
			return nil, fmt.Errorf("axis %s varies too: fix it with --where %s=VALUE", t.Axes[i], t.Axes[i])
		}
	}
	return rows, nil
}

// sameValue reports whether an axis value of a row is the value a --where
// names: equal to 1e-9 relative, so that 0.06 finds the
// 0.060000000000000005 of a sweep run before ranges were rounded.
func sameValue(x, v float64) bool {
	return math.Abs(x-v) <= 1e-9*math.Max(1, math.Abs(v))
}

// checkWhere fails for a --where value that no row has, listing the
// values the axis has.
func checkWhere(t *sweep.Table, fixed map[int]float64) error {
	for i, v := range fixed {
		var have []float64
		for _, r := range t.Rows {
			if sameValue(r.Point[i], v) {
				have = nil
				break
			}
			if !slices.ContainsFunc(have, func(h float64) bool { return sameValue(h, r.Point[i]) }) {
				have = append(have, r.Point[i])
			}
		}
		if have != nil {
			slices.Sort(have)
			vals := make([]string, len(have))
			for k, h := range have {
				vals[k] = strconv.FormatFloat(h, 'g', -1, 64)
			}
			return fmt.Errorf("--where %s=%g: no row has it; the values are %s", t.Axes[i], v, strings.Join(vals, ", "))
		}
	}
	return nil
}

// Metric reads a named figure of a row: simulated_makespan,
// claimed_makespan, gap, violations, plan_seconds (of a sweep with
// --timing), shared_makespan and shared_ratio (of a sweep with --sharing),
// or a policy metric (metric.NAME or NAME). It reports false when the row
// lacks it or it is NaN.
func Metric(r *sweep.Row, name string) (float64, bool) {
	var v float64
	switch name {
	case "simulated_makespan":
		v = r.Simulated
	case "plan_seconds":
		v = r.PlanSeconds
		if v == 0 { // not timed: a timed plan takes some CPU
			return 0, false
		}
	case "shared_makespan", "shared_ratio":
		if r.Sharing == "" {
			return 0, false
		}
		v = r.Shared
		if name == "shared_ratio" {
			v = r.SharedRatio
		}
	case "claimed_makespan":
		v = r.Claimed
	case "gap":
		v = r.Gap
	case "violations":
		v = float64(r.ViolationCount())
	default:
		m, ok := r.Metrics[strings.TrimPrefix(name, "metric.")]
		if !ok {
			return 0, false
		}
		v = m
	}
	return v, !math.IsNaN(v)
}

// ratioTo returns a value function dividing a row's metric by the
// baseline policy's at the same point and seed, or the baseline's by the
// row's when invert is set.
func ratioTo(rows []*sweep.Row, base, metric string, invert bool) (func(*sweep.Row) (float64, bool), error) {
	key := func(r *sweep.Row) string { return fmt.Sprint(r.Point, r.Seed) }
	ref := map[string]float64{}
	for _, r := range rows {
		if r.Policy == base {
			if v, ok := Metric(r, metric); ok {
				ref[key(r)] = v
			}
		}
	}
	if len(ref) == 0 {
		return nil, fmt.Errorf("--ratio-to %s: no rows of that policy", base)
	}
	return func(r *sweep.Row) (float64, bool) {
		v, ok := Metric(r, metric)
		d, found := ref[key(r)]
		if !ok || !found || d == 0 || v == 0 {
			return 0, false
		}
		if invert {
			return d / v, true
		}
		return v / d, true
	}, nil
}

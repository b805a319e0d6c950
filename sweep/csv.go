package sweep

import (
	"encoding/csv"
	"fmt"
	"github.com/netsched/netsched/runs"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// FormatFloat is the float format of every CSV netsched writes: the
// shortest decimal that reads back to the same float64, so files are exact
// and byte-identical from run to run.
func FormatFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Table is a tidy table of rows: one per point × policy × seed.
type Table struct {
	Axes   []string // axis names, the columns between scenario and policy
	Timing bool     // whether plan_seconds is a column
	Rows   []*Row
}

var fixedHead = []string{"policy", "seed", "mode", "claimed_makespan", "simulated_makespan", "gap", "violations", "verified"}

// MetricNames is the sorted union of the rows' metric names.
func (t *Table) MetricNames() []string {
	set := map[string]bool{}
	for _, r := range t.Rows {
		for k := range r.Metrics {
			set[k] = true
		}
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// shared reports whether a row was also replayed under bandwidth sharing.
func (t *Table) shared() bool {
	return slices.ContainsFunc(t.Rows, func(r *Row) bool { return r.Sharing != "" })
}

// sharedHead are the columns of a table under bandwidth sharing.
var sharedHead = []string{"sharing", "shared_makespan", "shared_ratio"}

// WriteCSV writes the table: scenario, the axes, the fixed columns,
// plan_seconds if timed, sharing, shared_makespan and shared_ratio if a
// row was replayed under bandwidth sharing, error, then one metric.NAME
// column per metric.
func (t *Table) WriteCSV(w io.Writer) error {
	metrics := t.MetricNames()
	head := append(append([]string{"scenario"}, t.Axes...), fixedHead...)
	if t.Timing {
		head = append(head, "plan_seconds")
	}
	shared := t.shared()
	if shared {
		head = append(head, sharedHead...)
	}
	head = append(head, "error")
	for _, m := range metrics {
		head = append(head, "metric."+m)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, r := range t.Rows {
		if err := cw.Write(t.record(r, metrics, shared)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (t *Table) record(r *Row, metrics []string, shared bool) []string {
	rec := []string{r.Scenario}
	for _, v := range r.Point {
		rec = append(rec, FormatFloat(v))
	}
	seed := strconv.FormatUint(r.Seed, 10)
	if r.Unseeded {
		seed = "" // a schedule made elsewhere has none
	}
	rec = append(rec, r.Policy, seed, r.Mode,
		FormatFloat(r.Claimed), FormatFloat(r.Simulated), FormatFloat(r.Gap),
		strconv.Itoa(r.ViolationCount()), strconv.FormatBool(r.Verified))
	if t.Timing {
		rec = append(rec, FormatFloat(r.PlanSeconds))
	}
	if shared {
		s, ratio := FormatFloat(r.Shared), FormatFloat(r.SharedRatio)
		if r.Sharing == "" { // a failed run
			s, ratio = "", ""
		}
		rec = append(rec, r.Sharing, s, ratio)
	}
	rec = append(rec, r.Error)
	for _, m := range metrics {
		v, ok := r.Metrics[m]
		if !ok {
			v = math.NaN()
		}
		rec = append(rec, FormatFloat(v))
	}
	return rec
}

// ReadCSV reads a table written by WriteCSV; name labels errors.
func ReadCSV(name string, r io.Reader) (*Table, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	head := recs[0]
	pol := slices.Index(head, "policy")
	if len(head) < 1 || head[0] != "scenario" || pol < 0 || len(head) < pol+len(fixedHead)+1 {
		return nil, fmt.Errorf("%s: not a netsched results CSV (header %q)", name, strings.Join(head, ","))
	}
	t := &Table{Axes: append([]string(nil), head[1:pol]...), Timing: slices.Index(head, "plan_seconds") >= 0}
	for i, rec := range recs[1:] {
		row, err := parseRecord(head, rec, pol)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", name, i+2, err)
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

func parseRecord(head, rec []string, pol int) (*Row, error) {
	r := &Row{Scenario: rec[0], Metrics: map[string]float64{}}
	num := func(col int) (float64, error) {
		if rec[col] == "" {
			return math.NaN(), nil
		}
		v, err := strconv.ParseFloat(rec[col], 64)
		if err != nil {
			return 0, fmt.Errorf("column %s: %q is not a number", head[col], rec[col])
		}
		return v, nil
	}
	for c := 1; c < pol; c++ {
		v, err := num(c)
		if err != nil {
			return nil, err
		}
		r.Point = append(r.Point, v)
	}
	var err error
	for c := pol; c < len(head) && err == nil; c++ {
		err = setColumn(r, head[c], rec[c], func() (float64, error) { return num(c) })
	}
	return r, err
}

// setColumn fills one named column of a row.
func setColumn(r *Row, col, cell string, num func() (float64, error)) error {
	var err error
	switch col {
	case "policy":
		r.Policy = cell
	case "seed":
		if r.Unseeded = cell == ""; !r.Unseeded {
			r.Seed, err = strconv.ParseUint(cell, 10, 64)
		}
	case "mode":
		r.Mode = cell
	case "claimed_makespan":
		r.Claimed, err = num()
	case "simulated_makespan":
		r.Simulated, err = num()
	case "gap":
		r.Gap, err = num()
	case "violations":
		r.NViolations, err = strconv.Atoi(cell)
	case "verified":
		r.Verified, err = strconv.ParseBool(cell)
	case "plan_seconds":
		r.PlanSeconds, err = num()
	case "sharing":
		r.Sharing = cell
	case "shared_makespan":
		r.Shared, err = num()
	case "shared_ratio":
		r.SharedRatio, err = num()
	case "error":
		r.Error = cell
	default:
		name, ok := strings.CutPrefix(col, "metric.")
		if !ok {
			return fmt.Errorf("unknown column %q", col)
		}
		var v float64
		if v, err = num(); err == nil && !math.IsNaN(v) {
			r.Metrics[name] = v
		}
	}
	if err != nil {
		return fmt.Errorf("column %s: %w", col, err)
	}
	return nil
}

// Row is one run of a sweep: a single run's row (package runs), with the
// sweep point it ran at.
type Row = runs.Row

package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/netsched/netsched/sweep"
)

// writeTable prints rows for a terminal: the axes, then the verdict of each
// replay, then warnings and the first violations.
func writeTable(w io.Writer, t *sweep.Table) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := ""
	for _, a := range t.Axes {
		head += a + "\t"
	}
	seeded := slices.ContainsFunc(t.Rows, func(r *sweep.Row) bool { return !r.Unseeded })
	head += "policy\t"
	if seeded { // a schedule made elsewhere (verify) has no seed
		head += "seed\t"
	}
	head += "claimed\tsimulated\tgap\tviolations\tverified\t"
	if t.Timing {
		head += "plan ms\t"
	}
	sharing := ""
	for _, r := range t.Rows {
		sharing = cmp.Or(sharing, r.Sharing)
	}
	if sharing != "" {
		head += sharing + "\tratio\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range t.Rows {
		line := ""
		for _, v := range r.Point {
			line += fmt.Sprintf("%.6g\t", v)
		}
		line += r.Policy + "\t"
		if seeded {
			line += seedCell(r) + "\t"
		}
		line += fmt.Sprintf("%.6g\t%.6g\t%.3g\t%d\t%s\t",
			r.Claimed, r.Simulated, r.Gap, r.ViolationCount(), verdictWord(r))
		if t.Timing {
			line += fmt.Sprintf("%.3f\t", r.PlanSeconds*1000)
		}
		if sharing != "" && r.Sharing != "" {
			line += fmt.Sprintf("%.6g\t%.4g\t", r.Shared, r.SharedRatio)
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range t.Rows {
		writeNotes(w, r)
	}
	if len(t.Axes) == 0 { // one point: the policies' own figures fit too
		for _, r := range t.Rows {
			writeMetrics(w, r)
		}
	}
	return nil
}

// writeMetrics prints a row's policy metrics on one line, sorted by name.
func writeMetrics(w io.Writer, r *sweep.Row) {
	if len(r.Metrics) == 0 {
		return
	}
	names := make([]string, 0, len(r.Metrics))
	for k := range r.Metrics {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "metrics: %s:", runName(r))
	for _, k := range names {
		fmt.Fprintf(w, " %s=%.6g", k, r.Metrics[k])
	}
	fmt.Fprintln(w)
}

// writeNotes prints a row's error, warnings and first violations.
func writeNotes(w io.Writer, r *sweep.Row) {
	if r.Error != "" {
		// the error names the policy once, as in the CSV and JSON outputs
		fmt.Fprintf(w, "error: %s: %s\n", r.Policy, strings.TrimPrefix(r.Error, "policy "+r.Policy+": "))
	}
	for _, msg := range r.Warnings {
		fmt.Fprintf(w, "warning: %s: %s\n", r.Policy, msg)
	}
	for k, v := range r.Violations {
		if k == 5 {
			fmt.Fprintf(w, "%s: ... %d violations in all (see --format json)\n", r.Policy, len(r.Violations))
			break
		}
		fmt.Fprintf(w, "violation: %s: %s\n", r.Policy, v)
	}
}

// runName names a row's run: its policy and seed ("dsc (seed 1)"), or
// only the policy for a schedule made elsewhere, which has no seed.
func runName(r *sweep.Row) string {
	if r.Unseeded {
		return r.Policy
	}
	return fmt.Sprintf("%s (seed %d)", r.Policy, r.Seed)
}

// seedCell is a row's seed in the table, or "-" if it has none.
func seedCell(r *sweep.Row) string {
	if r.Unseeded {
		return "-"
	}
	return strconv.FormatUint(r.Seed, 10)
}

func verdictWord(r *sweep.Row) string {
	switch {
	case r.Error != "":
		return "ERROR"
	case r.Verified:
		return "yes"
	}
	return "NO"
}

// writeJSON writes the rows as an indented JSON array.
func writeJSON(w io.Writer, t *sweep.Table) error {
	rows := make([]sweep.Row, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = *r
		if !t.Timing {
			rows[i].PlanSeconds = 0
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

// writeRows writes the table in the given format.
func writeRows(w io.Writer, format string, t *sweep.Table) error {
	switch format {
	case "csv":
		return t.WriteCSV(w)
	case "json":
		return writeJSON(w, t)
	}
	return writeTable(w, t)
}

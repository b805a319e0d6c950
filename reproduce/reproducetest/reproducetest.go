// Package reproducetest runs a registered paper's reproduction for the
// papers' smoke tests and checks the files it wrote.
package reproducetest

import (
	"context"
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/netsched/netsched/reproduce"
)

// Run runs paper id's reproduction with opt into a temporary results
// folder, and fails unless it succeeds and writes a non-empty SUMMARY.md
// and each of files, listed in it, and unless every link of SUMMARY.md,
// of every Markdown file it wrote and of the README.md that
// reproduce.WriteIndex writes from it resolves. It returns the paper's
// folder.
func Run(t testing.TB, id string, opt reproduce.Options, files ...string) string {
	t.Helper()
	p, ok := reproduce.Lookup(id)
	if !ok {
		t.Fatalf("paper %s is not registered", id)
	}
	root := t.TempDir()
	if err := reproduce.Run(context.Background(), root, p, opt); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, p.Dir)
	summary := Read(t, dir, "SUMMARY.md")
	for _, f := range files {
		Read(t, dir, f)
		if !strings.Contains(summary, "("+f+")") {
			t.Errorf("SUMMARY.md does not list %s", f)
		}
	}
	if err := reproduce.WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	mds, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, md := range append(mds, filepath.Join(root, "README.md")) {
		CheckLinks(t, md)
	}
	return dir
}

// mdLink matches the target of a Markdown link or image.
var mdLink = regexp.MustCompile(`\]\(([^()\s]+)\)`)

// CheckLinks fails for every relative link of the Markdown file md whose
// target does not exist (relative to md's folder).
func CheckLinks(t testing.TB, md string) {
	t.Helper()
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "#") {
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(md), target)); err != nil {
			t.Errorf("%s links %s, which is not there", filepath.Base(md), target)
		}
	}
}

// Read returns the content of dir/name, and fails unless it is non-empty.
func Read(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Errorf("%s is empty", name)
	}
	return string(b)
}

// Committed returns the committed result file results/<dir>/<name> of the
// repository, found above the package's directory.
func Committed(t testing.TB, dir, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		path := filepath.Join(wd, "results", dir, name)
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		parent := filepath.Dir(wd)
		if parent == wd {
			t.Fatalf("no results/%s/%s above the package directory", dir, name)
		}
		wd = parent
	}
}

// SameApartFromClock fails unless the folders a and b hold the same files
// with the same content, apart from the cells of wall-clock columns (a
// header naming reproduce.ClockUnit) in CSV, Markdown and LaTeX tables.
// It returns the number of files compared.
func SameApartFromClock(t testing.TB, a, b string) int {
	t.Helper()
	files := func(root string) map[string]string {
		out := map[string]string{}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			data, err := os.ReadFile(path)
			out[rel] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fa, fb := files(a), files(b)
	for name := range fb {
		if _, ok := fa[name]; !ok {
			t.Errorf("%s: only in the second run", name)
		}
	}
	for name, x := range fa {
		y, ok := fb[name]
		if !ok {
			t.Errorf("%s: only in the first run", name)
			continue
		}
		switch filepath.Ext(name) {
		case ".csv":
			x, y = maskCSV(t, name, x), maskCSV(t, name, y)
		case ".md":
			x, y = MaskClock(x, "|", "|"), MaskClock(y, "|", "|")
		case ".tex":
			x, y = MaskClock(x, "", `\\`), MaskClock(y, "", `\\`)
		}
		if x != y {
			t.Errorf("%s differs between the runs, apart from wall-clock columns:\n%s", name, firstDiff(x, y))
		}
	}
	return len(fa)
}

// maskCSV empties the cells of the CSV columns whose header names
// reproduce.ClockUnit.
func maskCSV(t testing.TB, name, text string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) == 0 {
		return text // not a table of ours (a sweep's CSV has no clock column)
	}
	var clock []int
	for i, h := range recs[0] {
		if strings.Contains(h, reproduce.ClockUnit) {
			clock = append(clock, i)
		}
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	for k, r := range recs {
		for _, i := range clock {
			if k > 0 && i < len(r) {
				r[i] = "·"
			}
		}
		w.Write(r)
	}
	w.Flush()
	return b.String()
}

// MaskClock replaces the cells of wall-clock columns in the tables of a
// Markdown (cells between "|") or LaTeX (cells between "&", rows ending in
// `\\`) text with "·". A table's header is the first row of a run of
// rows; its cells naming reproduce.ClockUnit mark the columns.
func MaskClock(text, edge, end string) string {
	lines := strings.Split(text, "\n")
	var clock []int
	inTable := false
	for k, line := range lines {
		trimmed := strings.TrimSpace(line)
		if trimmed == `\midrule` {
			continue // between a LaTeX table's header and its rows
		}
		isRow := strings.HasSuffix(trimmed, end) && (edge == "" || strings.HasPrefix(trimmed, edge))
		if !isRow {
			inTable, clock = false, nil
			continue
		}
		body := strings.TrimSuffix(strings.TrimPrefix(trimmed, edge), end)
		sep := "&"
		if edge == "|" {
			sep = "|"
		}
		cells := strings.Split(body, sep)
		if !inTable {
			inTable = true
			for i, c := range cells {
				if strings.Contains(c, reproduce.ClockUnit) {
					clock = append(clock, i)
				}
			}
			continue
		}
		for _, i := range clock {
			if i < len(cells) {
				cells[i] = " · "
			}
		}
		lines[k] = edge + strings.Join(cells, sep) + end
	}
	return strings.Join(lines, "\n")
}

// firstDiff shows the first line where x and y differ.
func firstDiff(x, y string) string {
	lx, ly := strings.Split(x, "\n"), strings.Split(y, "\n")
	for i := range min(len(lx), len(ly)) {
		if lx[i] != ly[i] {
			return fmt.Sprintf("line %d:\n  %q\n  %q", i+1, short(lx[i]), short(ly[i]))
		}
	}
	return fmt.Sprintf("%d lines against %d", len(lx), len(ly))
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

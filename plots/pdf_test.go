package plots

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/netsched/netsched/internal/tooltest"
)

// pdftotext returns the path of pdftotext (poppler-utils). Without it the
// test fails under CI (CI=true), which installs it, and is skipped
// elsewhere.
func pdftotext(t *testing.T) string {
	t.Helper()
	return tooltest.Command(t, "pdftotext", "poppler-utils")
}

// TestPDFText checks that PDF text survives as Unicode: gonum/plot's own
// PDF backend wrote "ρ —" as "Ï• â€”".
func TestPDFText(t *testing.T) {
	bin := pdftotext(t)
	paths := paperFigures(t, t.TempDir(), ".pdf")
	for _, tc := range []struct {
		path string
		want []string
	}{
		{paths[0], []string{"ρ", "β", "—", "→", "Gantt chart, ρ = 0.5 — β → 1", "time — β → ρ", "link 0→1"}},
		{paths[1], []string{"ρ", "β", "—", "→", "Makespan ratio vs ρ — β → 1", "ρ — β → 1"}},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			out, err := exec.Command(bin, "-enc", "UTF-8", tc.path, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			got := string(out)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("pdftotext finds no %q in:\n%s", w, got)
				}
			}
		})
	}
}

// TestPDFFontSubset checks that a PDF embeds its font as a Unicode
// TrueType subset: the whole of Liberation Serif made every PDF over
// 200 kB.
func TestPDFFontSubset(t *testing.T) {
	for _, path := range paperFigures(t, t.TempDir(), ".pdf") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"/FontFile2", "/Encoding /Identity-H", "/ToUnicode", "/BaseFont /utf8liberationserif-regular"} {
			if !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s: no %s", filepath.Base(path), want)
			}
		}
		if bytes.Contains(b, []byte("WinAnsiEncoding")) {
			t.Errorf("%s: a font in WinAnsiEncoding (code page 1252)", filepath.Base(path))
		}
		if len(b) > 64<<10 {
			t.Errorf("%s: %d bytes; a font subset should keep it under 64 KiB", filepath.Base(path), len(b))
		}
	}
}

// TestPDFOutsideBMP checks that text beyond the Basic Multilingual Plane,
// on which the PDF library panics, is written as U+FFFD.
func TestPDFOutsideBMP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "emoji.pdf")
	if err := SaveLines(sweepSeries(), LineOptions{Title: "ρ 😀 β"}, path); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext(t), "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	// pdftotext's spacing around a glyph the font lacks varies.
	if got := strings.Join(strings.Fields(string(out)), ""); !strings.Contains(got, "ρ\uFFFDβ") {
		t.Errorf("pdftotext finds no %q in:\n%s", "ρ \uFFFD β", out)
	}
}

// TestArcTo checks the Bézier curves that stand for arcs in PDF: they run
// from the arc's start to its end, a quarter turn at most each, and their
// midpoints lie on the circle.
func TestArcTo(t *testing.T) {
	centre := vg.Point{X: 10, Y: -5}
	const r = 3
	for _, tc := range []struct {
		name         string
		start, angle float64
		curves       int
	}{
		{"quarter", 0, math.Pi / 2, 1},
		{"circle", 0, 2 * math.Pi, 4},
		{"clockwise half", math.Pi / 4, -math.Pi, 2},
		{"sliver", 1, 0.1, 1},
		{"three quarters clockwise", 1, -1.5 * math.Pi, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			onCircle := func(what string, p vg.Point) {
				t.Helper()
				if d := math.Hypot(float64(p.X-centre.X), float64(p.Y-centre.Y)); math.Abs(d-r) > 1e-3*r {
					t.Errorf("%s %v is %g from the centre, want %g", what, p, d, float64(r))
				}
			}
			at := func(a float64) vg.Point {
				return vg.Point{X: centre.X + r*vg.Length(math.Cos(a)), Y: centre.Y + r*vg.Length(math.Sin(a))}
			}
			var cur vg.Point
			curves := 0
			lineTo := func(p vg.Point) { cur = p }
			cubeTo := func(c1, c2, p vg.Point) {
				curves++
				// The midpoint of the cubic Bézier curve cur, c1, c2, p.
				mid := vg.Point{X: (cur.X + 3*c1.X + 3*c2.X + p.X) / 8, Y: (cur.Y + 3*c1.Y + 3*c2.Y + p.Y) / 8}
				onCircle("midpoint", mid)
				onCircle("end", p)
				cur = p
			}
			arcTo(vg.PathComp{Type: vg.ArcComp, Pos: centre, Radius: r, Start: tc.start, Angle: tc.angle}, lineTo, cubeTo)
			if curves != tc.curves {
				t.Errorf("%d curves, want %d", curves, tc.curves)
			}
			if end := at(tc.start + tc.angle); math.Hypot(float64(cur.X-end.X), float64(cur.Y-end.Y)) > 1e-9 {
				t.Errorf("arc ends at %v, want %v", cur, end)
			}
		})
	}
}

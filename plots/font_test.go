package plots

import (
	"math"
	"path/filepath"
	"testing"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// faceOf returns the font face that a text style draws with.
func faceOf(t *testing.T, sty text.Style) (family string, glyph func(rune) sfnt.GlyphIndex) {
	t.Helper()
	h, ok := sty.Handler.(superText)
	if !ok {
		t.Fatalf("text handler %T, want superText", sty.Handler)
	}
	f := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	if f.Face == nil {
		t.Fatalf("font %v: not in the plot's font cache", sty.Font)
	}
	var buf sfnt.Buffer
	family, err := f.Face.Name(&buf, sfnt.NameIDFamily)
	if err != nil {
		t.Fatal(err)
	}
	return family, func(r rune) sfnt.GlyphIndex {
		i, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
}

// TestFigureFont checks that every text of a plot is in Liberation Serif
// and that the font has the glyphs titles and labels use (glyph 0 is the
// "missing glyph" box).
func TestFigureFont(t *testing.T) {
	p := newPlot()
	for _, tc := range []struct {
		name string
		sty  text.Style
	}{
		{"title", p.Title.TextStyle},
		{"legend", p.Legend.TextStyle},
		{"x label", p.X.Label.TextStyle},
		{"x ticks", p.X.Tick.Label},
		{"y label", p.Y.Label.TextStyle},
		{"y ticks", p.Y.Tick.Label},
	} {
		t.Run(tc.name, func(t *testing.T) {
			family, glyph := faceOf(t, tc.sty)
			if family != "Liberation Serif" {
				t.Errorf("font family %q, want Liberation Serif", family)
			}
			for _, r := range "ρβφλμστΔΣ—–→←↔…×−±≤≥∞²·°" {
				if glyph(r) == 0 {
					t.Errorf("no glyph for %q (U+%04X)", r, r)
				}
			}
		})
	}
}

// TestLayoutGlyphs checks that PDF and SVG place glyphs as gonum/plot
// measures text, kerning included ("AV", "To" and "Ty" are kerned in
// Liberation Serif).
func TestLayoutGlyphs(t *testing.T) {
	sty := newPlot().Title.TextStyle
	f := sty.Handler.(superText).Fonts.Lookup(sty.Font, sty.Font.Size)
	for _, tc := range []struct {
		s      string
		kerned bool
	}{
		{"", false},
		{"makespan", false},
		{"AV To Ty", true},
		{"Makespan ratio vs ρ — β → 1", false},
		{"link 0→1", false},
	} {
		t.Run(tc.s, func(t *testing.T) {
			glyphs, adv, err := layoutGlyphs(f, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := vg.Length(adv)*fontUnit(f), f.Width(tc.s); math.Abs(float64(got-want)) > 1e-9 {
				t.Errorf("advance %v, want font.Face.Width %v", got, want)
			}
			kerned := false
			for i, g := range glyphs {
				kerned = kerned || g.kerned
				if i > 0 && g.x <= glyphs[i-1].x {
					t.Errorf("glyph %d at %v, not right of glyph %d at %v", i, g.x, i-1, glyphs[i-1].x)
				}
				if w := f.Width(tc.s[:g.at]); math.Abs(float64(vg.Length(g.x)*fontUnit(f)-w)) > 1e-9 && !g.kerned {
					t.Errorf("glyph %d at %v, want the width of the text before it, %v", i, vg.Length(g.x)*fontUnit(f), w)
				}
			}
			if kerned != tc.kerned {
				t.Errorf("kerned %v, want %v", kerned, tc.kerned)
			}
		})
	}
}

// paperFigures saves a Gantt chart and a comparison plot whose titles and
// labels hold ρ, β, — and → to dir in format ext, and returns their paths.
func paperFigures(t *testing.T, dir, ext string) []string {
	t.Helper()
	gantt := filepath.Join(dir, "gantt"+ext)
	opt := GanttOptions{Title: "Gantt chart, ρ = 0.5 — β → 1", XLabel: "time — β → ρ"}
	if err := SaveGantt(synthTrace(4, 1, 2, 3), opt, gantt); err != nil {
		t.Fatal(err)
	}
	lines := filepath.Join(dir, "lines"+ext)
	lopt := LineOptions{Title: "Makespan ratio vs ρ — β → 1", XLabel: "ρ — β → 1", YLabel: "ratio — ρ → β"}
	if err := SaveLines(sweepSeries(), lopt, lines); err != nil {
		t.Fatal(err)
	}
	return []string{gantt, lines}
}

package plots

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestSVGTextOutlined checks that SVG text is drawn as glyph outlines, so
// that a viewer without Liberation Serif draws the same glyphs.
func TestSVGTextOutlined(t *testing.T) {
	for _, path := range paperFigures(t, t.TempDir(), ".svg") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<text", "font-family"} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s holds %s: it depends on the viewer's fonts", filepath.Base(path), bad)
			}
		}
		if !bytes.Contains(b, []byte(`<g transform="scale(0.005859375,0.005859375)">`)) { // 12 pt / 2048 units per em
			t.Errorf("%s: no glyph outlines of 12-point text", filepath.Base(path))
		}
	}
}

// TestOutline checks the outlines of a few strings: none for spaces, one
// closed contour per contour of the glyphs, and ink inside the advance
// (give or take a twentieth of an em: a dash overhangs its advance, so that
// dashes join).
func TestOutline(t *testing.T) {
	sty := newPlot().Title.TextStyle
	f := sty.Handler.(superText).Fonts.Lookup(sty.Font, sty.Font.Size)
	for _, tc := range []struct {
		s        string
		contours int
	}{
		{"", 0},
		{"  ", 0},
		{"l", 1},
		{"o", 2},
		{"ρβ", 4},
		{"—", 1},
		{"→", 1},
	} {
		t.Run(tc.s, func(t *testing.T) {
			p, err := outline(f, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			_, adv, _ := layoutGlyphs(f, tc.s)
			slack := vg.Length(f.Face.UnitsPerEm()) / 20
			moves, closes := 0, 0
			for _, c := range p {
				switch c.Type {
				case vg.MoveComp:
					moves++
				case vg.CloseComp:
					closes++
				}
				if c.Type != vg.CloseComp && (c.Pos.X < -slack || c.Pos.X > vg.Length(adv)+slack) {
					t.Errorf("outline point %v outside the advance [0, %d]", c.Pos, adv)
				}
			}
			if moves != tc.contours || closes != tc.contours {
				t.Errorf("%d contours, %d closed; want %d", moves, closes, tc.contours)
			}
		})
	}
}

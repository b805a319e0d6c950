package plots

import (
	"errors"
	"fmt"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// figureFont is the font of every text of every figure, in every format:
// Liberation Serif (metrically compatible with Times New Roman), which has
// the Greek letters, arrows, dashes and mathematical signs that titles and
// labels use (ρ, β, →, —, ×, −, ≤, ∞). PNG draws its glyphs, PDF embeds a
// subset of it and SVG draws its glyph outlines, so a figure looks the same
// in every format and on every machine.
func figureFont(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Serif", Size: size}
}

// newPlot returns an empty plot whose texts (title, axis labels, tick
// labels, legend) are all in figureFont, looked up in a font cache of its
// own, so that gonum/plot's package-level defaults (plot.DefaultFont,
// font.DefaultCache) do not decide what a figure looks like.
func newPlot() *plot.Plot {
	p := plot.New()
	h := superText{text.Plain{Fonts: font.NewCache(liberation.Collection())}}
	p.TextHandler = h
	for _, s := range []*text.Style{
		&p.Title.TextStyle, &p.Legend.TextStyle,
		&p.X.Label.TextStyle, &p.X.Tick.Label,
		&p.Y.Label.TextStyle, &p.Y.Tick.Label,
	} {
		s.Font = figureFont(s.Font.Size)
		s.Handler = h
	}
	return p
}

// glyph is one glyph of a line of text, placed as gonum/plot measures the
// line (font.Face.Width: advances and kerning, unhinted).
type glyph struct {
	index sfnt.GlyphIndex
	// at is the byte offset of the glyph's rune in the text.
	at int
	// x is the glyph's origin from the start of the line, in font units.
	x fixed.Int26_6
	// kerned tells whether kerning moved the glyph towards (or away from)
	// the glyph before it.
	kerned bool
}

// layoutGlyphs places the glyphs of the line s in face f and returns them
// with the advance of the whole line, in font units. It places glyphs as
// font.Face.Width measures them, so the text that PDF and SVG draw is as
// wide as the space the layout gave it.
func layoutGlyphs(f font.Face, s string) ([]glyph, fixed.Int26_6, error) {
	if f.Face == nil {
		return nil, 0, fmt.Errorf("font %s: no font data", f.Name())
	}
	// With as many pixels per em as the font has units per em, sfnt's
	// 26.6 fixed-point results count font units, as in font.Face.Width.
	ppem := fixed.Int26_6(f.Face.UnitsPerEm())
	var (
		buf    sfnt.Buffer
		out    []glyph
		x      fixed.Int26_6
		prev   sfnt.GlyphIndex
		hasPre bool
	)
	for at, r := range s {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			return nil, 0, fmt.Errorf("font %s: glyph of %q: %w", f.Name(), r, err)
		}
		g := glyph{index: idx, at: at}
		if hasPre {
			kern, err := f.Face.Kern(&buf, prev, idx, ppem, xfont.HintingNone)
			switch {
			case err == nil:
				x += kern
				g.kerned = kern != 0
			case !errors.Is(err, sfnt.ErrNotFound):
				return nil, 0, fmt.Errorf("font %s: kerning before %q: %w", f.Name(), r, err)
			}
		}
		adv, err := f.Face.GlyphAdvance(&buf, idx, ppem, xfont.HintingNone)
		if err != nil {
			return nil, 0, fmt.Errorf("font %s: advance of %q: %w", f.Name(), r, err)
		}
		g.x = x
		out = append(out, g)
		x += adv
		prev, hasPre = idx, true
	}
	return out, x, nil
}

// fontUnit is the length of one font unit of f at its size.
func fontUnit(f font.Face) vg.Length {
	return f.Font.Size / vg.Length(f.Face.UnitsPerEm())
}

package plots

import (
	"fmt"
	"io"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// svgCanvas is gonum/plot's SVG canvas drawing text as the outlines of its
// glyphs, filled paths, rather than as text elements naming a font. An SVG
// viewer without the figure font would substitute another, with other
// widths: labels were clipped and legend entries overlapped. vgsvg can
// embed the font as a CSS @font-face, but librsvg (rsvg-convert, GNOME,
// many converters) ignores @font-face, and the whole font is 0.5 MB per
// file. Outlines render the same everywhere, as matplotlib's default SVG
// output does; the price is that the SVG's text cannot be selected or
// searched (the PDF's can).
type svgCanvas struct {
	*vgsvg.Canvas
	err error
}

// newSVGCanvas returns an SVG canvas of size w×h.
func newSVGCanvas(w, h vg.Length) *svgCanvas {
	return &svgCanvas{Canvas: vgsvg.New(w, h)}
}

// FillString implements vg.Canvas: it fills the outlines of the glyphs of
// s, with its baseline starting at pt, placed as font.Face.Width measures
// s. The outlines are in font units, scaled to the font size.
func (c *svgCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 || s == "" || c.err != nil {
		return
	}
	p, err := outline(f, s)
	if err != nil {
		c.err = fmt.Errorf("svg: %w", err)
		return
	}
	if len(p) == 0 { // spaces only
		return
	}
	u := float64(fontUnit(f))
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(u, u)
	c.Fill(p)
}

// outline returns the glyph outlines of the line s in face f, in font
// units, y up, with the baseline's start at the origin.
func outline(f font.Face, s string) (vg.Path, error) {
	glyphs, _, err := layoutGlyphs(f, s)
	if err != nil {
		return nil, err
	}
	ppem := fixed.Int26_6(f.Face.UnitsPerEm()) // results in font units
	var (
		buf sfnt.Buffer
		p   vg.Path
	)
	for _, g := range glyphs {
		segs, err := f.Face.LoadGlyph(&buf, g.index, ppem, nil)
		if err != nil {
			return nil, fmt.Errorf("font %s: outline of %q: %w", f.Name(), s[g.at:], err)
		}
		// sfnt's y axis points down.
		at := func(q fixed.Point26_6) vg.Point { return vg.Point{X: vg.Length(g.x + q.X), Y: vg.Length(-q.Y)} }
		for i, seg := range segs {
			switch seg.Op {
			case sfnt.SegmentOpMoveTo:
				if i > 0 {
					p.Close()
				}
				p.Move(at(seg.Args[0]))
			case sfnt.SegmentOpLineTo:
				p.Line(at(seg.Args[0]))
			case sfnt.SegmentOpQuadTo:
				p.QuadTo(at(seg.Args[0]), at(seg.Args[1]))
			case sfnt.SegmentOpCubeTo:
				p.CubeTo(at(seg.Args[0]), at(seg.Args[1]), at(seg.Args[2]))
			}
		}
		if len(segs) > 0 {
			p.Close()
		}
	}
	return p, nil
}

// WriteTo implements io.WriterTo: it writes the SVG document, or returns
// the first error met while drawing.
func (c *svgCanvas) WriteTo(w io.Writer) (int64, error) {
	if c.err != nil {
		return 0, c.err
	}
	return c.Canvas.WriteTo(w)
}

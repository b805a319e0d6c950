package plots

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// PDFDate is the CreationDate and ModDate written into every PDF: the time
// that SOURCE_DATE_EPOCH gives in seconds (the reproducible-builds
// convention), or else the Unix epoch. The PDF library would stamp the
// current time, and the same figure would not give the same bytes.
func PDFDate() time.Time {
	if s, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(s, 0).UTC()
	}
	return time.Unix(0, 0).UTC()
}

// init sets the PDF library's defaults once, before any figure is drawn:
// every PDF of the process then has PDFDate's dates and its resource
// catalogs in a fixed order.
func init() {
	fpdf.SetDefaultCreationDate(PDFDate())
	fpdf.SetDefaultModificationDate(PDFDate())
	fpdf.SetDefaultCatalogSort(true)
}

// pdfCanvas is a vg.Canvas that draws a one-page PDF. It takes the place of
// gonum/plot's vgpdf, which encodes text in code page 1252: every character
// outside it (ρ, β, →) came out as mojibake. pdfCanvas embeds each font as
// a TrueType subset of the glyphs the page uses, with Unicode text (so
// text extraction and search work), and places glyphs with the kerning that
// gonum/plot measured text with.
//
// Coordinates: the canvas's user space is vg's (origin bottom left, y up,
// points), set up as vgpdf does by flipping fpdf's top-left space once for
// the page; text and images, which fpdf draws top-down, flip it back.
type pdfCanvas struct {
	doc       *fpdf.Fpdf
	w, h      vg.Length
	widths    []vg.Length     // line width of each saved graphics state
	fonts     map[string]bool // fonts added to doc, by name
	numImages int
}

// newPDFCanvas returns a PDF canvas of size w×h.
func newPDFCanvas(w, h vg.Length) *pdfCanvas {
	doc := fpdf.NewCustom(&fpdf.InitType{
		UnitStr: "pt",
		Size:    fpdf.SizeType{Wd: w.Points(), Ht: h.Points()},
	})
	doc.SetMargins(0, 0, 0)
	doc.SetAutoPageBreak(false, 0)
	doc.AddPage()
	c := &pdfCanvas{doc: doc, w: w, h: h, widths: make([]vg.Length, 1), fonts: map[string]bool{}}
	c.Push()
	c.Translate(vg.Point{Y: h})
	c.Scale(1, -1)
	vg.Initialize(c)
	return c
}

// Size implements vg.CanvasSizer.
func (c *pdfCanvas) Size() (w, h vg.Length) { return c.w, c.h }

// SetLineWidth implements vg.Canvas.
func (c *pdfCanvas) SetLineWidth(w vg.Length) {
	c.widths[len(c.widths)-1] = w
	c.doc.SetLineWidth(w.Points())
}

// SetLineDash implements vg.Canvas.
func (c *pdfCanvas) SetLineDash(dashes []vg.Length, offset vg.Length) {
	ds := make([]float64, len(dashes))
	for i, d := range dashes {
		ds[i] = d.Points()
	}
	c.doc.SetDashPattern(ds, offset.Points())
}

// SetColor implements vg.Canvas: one colour strokes, fills and writes.
func (c *pdfCanvas) SetColor(clr color.Color) {
	if clr == nil {
		clr = color.Black
	}
	r, g, b, a := clr.RGBA()
	if a == 0 {
		r, g, b = 0, 0, 0
	} else {
		r, g, b = r*0xffff/a, g*0xffff/a, b*0xffff/a // un-premultiply
	}
	ri, gi, bi := int(r>>8), int(g>>8), int(b>>8)
	c.doc.SetDrawColor(ri, gi, bi)
	c.doc.SetFillColor(ri, gi, bi)
	c.doc.SetTextColor(ri, gi, bi)
	c.doc.SetAlpha(float64(a)/0xffff, "Normal")
}

// Rotate implements vg.Canvas; r is counter-clockwise, in radians.
func (c *pdfCanvas) Rotate(r float64) {
	c.doc.TransformRotate(-r*180/math.Pi, 0, 0)
}

// Translate implements vg.Canvas.
func (c *pdfCanvas) Translate(pt vg.Point) {
	c.doc.TransformTranslate(pt.X.Points(), pt.Y.Points())
}

// Scale implements vg.Canvas.
func (c *pdfCanvas) Scale(x, y float64) {
	c.doc.TransformScale(x*100, y*100, 0, 0)
}

// Push implements vg.Canvas: it saves the graphics state.
func (c *pdfCanvas) Push() {
	c.widths = append(c.widths, c.widths[len(c.widths)-1])
	c.doc.TransformBegin()
}

// Pop implements vg.Canvas: it restores the graphics state last saved.
func (c *pdfCanvas) Pop() {
	c.doc.TransformEnd()
	c.widths = c.widths[:len(c.widths)-1]
}

// Stroke implements vg.Canvas.
func (c *pdfCanvas) Stroke(p vg.Path) {
	if c.widths[len(c.widths)-1] > 0 {
		c.path(p, "D")
	}
}

// Fill implements vg.Canvas; overlaps fill by the nonzero winding rule.
func (c *pdfCanvas) Fill(p vg.Path) { c.path(p, "F") }

// path adds p to the page and paints it as fpdf's DrawPath style says ("D"
// strokes, "F" fills). Arcs become cubic Bézier curves, and quadratic
// curves cubic ones, in vg's coordinates, so that fpdf's own arc and
// quadratic conventions (its CurveTo is PDF's "v", not a quadratic) do not
// matter.
func (c *pdfCanvas) path(p vg.Path, style string) {
	if len(p) == 0 {
		return
	}
	var (
		cur, start vg.Point
		open       bool // whether there is a current point
	)
	moveTo := func(pt vg.Point) {
		c.doc.MoveTo(pt.X.Points(), pt.Y.Points())
		cur, start, open = pt, pt, true
	}
	lineTo := func(pt vg.Point) {
		if !open { // a path may begin with an arc
			moveTo(pt)
			return
		}
		c.doc.LineTo(pt.X.Points(), pt.Y.Points())
		cur = pt
	}
	cubeTo := func(c1, c2, pt vg.Point) {
		c.doc.CurveBezierCubicTo(c1.X.Points(), c1.Y.Points(), c2.X.Points(), c2.Y.Points(), pt.X.Points(), pt.Y.Points())
		cur = pt
	}
	for _, comp := range p {
		switch comp.Type {
		case vg.MoveComp:
			moveTo(comp.Pos)
		case vg.LineComp:
			lineTo(comp.Pos)
		case vg.ArcComp:
			arcTo(comp, lineTo, cubeTo)
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1: // the cubic that is this quadratic
				q := comp.Control[0]
				cubeTo(lerp(cur, q, 2.0/3), lerp(comp.Pos, q, 2.0/3), comp.Pos)
			case 2:
				cubeTo(comp.Control[0], comp.Control[1], comp.Pos)
			default:
				c.doc.SetError(fmt.Errorf("pdf: curve with %d control points", len(comp.Control)))
			}
		case vg.CloseComp:
			c.doc.ClosePath()
			cur = start
		default:
			c.doc.SetError(fmt.Errorf("pdf: unknown path component type %d", comp.Type))
		}
	}
	c.doc.DrawPath(style)
}

// arcTo draws the arc comp (centre comp.Pos, radius comp.Radius, from angle
// comp.Start through comp.Angle radians, counter-clockwise if positive) as
// cubic Bézier curves of at most a quarter turn each, after a line from the
// current point to the arc's start.
func arcTo(comp vg.PathComp, lineTo func(vg.Point), cubeTo func(c1, c2, pt vg.Point)) {
	at := func(a float64) vg.Point {
		sin, cos := math.Sincos(a)
		return vg.Point{X: comp.Pos.X + comp.Radius*vg.Length(cos), Y: comp.Pos.Y + comp.Radius*vg.Length(sin)}
	}
	lineTo(at(comp.Start))
	n := max(1, int(math.Ceil(math.Abs(comp.Angle)/(math.Pi/2)-1e-9)))
	step := comp.Angle / float64(n)
	// The control points of a Bézier arc of angle step lie on the tangents
	// at its ends, k radii away.
	k := vg.Length(4.0 / 3 * math.Tan(step/4))
	for i := range n {
		a0, a1 := comp.Start+float64(i)*step, comp.Start+float64(i+1)*step
		p0, p1 := at(a0), at(a1)
		s0, c0 := math.Sincos(a0)
		s1, c1 := math.Sincos(a1)
		ctl0 := vg.Point{X: p0.X - k*comp.Radius*vg.Length(s0), Y: p0.Y + k*comp.Radius*vg.Length(c0)}
		ctl1 := vg.Point{X: p1.X + k*comp.Radius*vg.Length(s1), Y: p1.Y - k*comp.Radius*vg.Length(c1)}
		cubeTo(ctl0, ctl1, p1)
	}
}

// lerp is the point a fraction t of the way from a to b.
func lerp(a, b vg.Point, t float64) vg.Point {
	return vg.Point{X: a.X + (b.X-a.X)*vg.Length(t), Y: a.Y + (b.Y-a.Y)*vg.Length(t)}
}

// FillString implements vg.Canvas: it writes s with its baseline starting
// at pt. Runs of glyphs without kerning between them are one text object
// each, placed where font.Face.Width puts them.
func (c *pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Size == 0 || s == "" {
		return
	}
	glyphs, _, err := layoutGlyphs(f, s)
	if err != nil {
		c.doc.SetError(fmt.Errorf("pdf: %w", err))
		return
	}
	name := c.addFont(f)
	c.doc.SetFont(name, "", f.Font.Size.Points())
	unit := fontUnit(f)
	c.Push()
	defer c.Pop()
	c.Translate(pt)
	c.Scale(1, -1) // fpdf writes text top-down
	for i := 0; i < len(glyphs); {
		j := i + 1
		for j < len(glyphs) && !glyphs[j].kerned {
			j++
		}
		end := len(s)
		if j < len(glyphs) {
			end = glyphs[j].at
		}
		c.doc.Text((vg.Length(glyphs[i].x) * unit).Points(), 0, inBMP(s[glyphs[i].at:end]))
		i = j
	}
}

// inBMP returns s with every rune beyond the Basic Multilingual Plane
// (emoji, say) replaced by U+FFFD: fpdf's Unicode fonts cover the BMP only,
// and it panics on a rune beyond it. The figure font has no glyph for such
// runes, so every format draws the same missing glyph.
func inBMP(s string) string {
	return strings.Map(func(r rune) rune {
		if r > 0xFFFF {
			return utf8.RuneError
		}
		return r
	}, s)
}

// addFont adds f's font to the document, once, and returns its name there.
func (c *pdfCanvas) addFont(f font.Face) string {
	name := f.Name()
	if c.fonts[name] {
		return name
	}
	c.fonts[name] = true
	var ttf bytes.Buffer
	if _, err := f.Face.WriteSourceTo(nil, &ttf); err != nil {
		c.doc.SetError(fmt.Errorf("pdf: font %s: %w", name, err))
		return name
	}
	c.doc.AddUTF8FontFromBytes(name, "", ttf.Bytes())
	return name
}

// DrawImage implements vg.Canvas.
func (c *pdfCanvas) DrawImage(rect vg.Rectangle, img image.Image) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.doc.SetError(fmt.Errorf("pdf: encode image: %w", err))
		return
	}
	c.numImages++
	name := fmt.Sprintf("image%d", c.numImages)
	opt := fpdf.ImageOptions{ImageType: "png"}
	c.doc.RegisterImageOptionsReader(name, opt, &buf)
	c.Push()
	defer c.Pop()
	c.Translate(vg.Point{X: rect.Min.X, Y: rect.Max.Y})
	c.Scale(1, -1) // fpdf draws images top-down
	sz := rect.Size()
	c.doc.ImageOptions(name, 0, 0, sz.X.Points(), sz.Y.Points(), false, opt, 0, "")
}

// WriteTo implements io.WriterTo: it finishes the page and writes the PDF,
// or returns the first error met while drawing. The canvas cannot be drawn
// on afterwards.
func (c *pdfCanvas) WriteTo(w io.Writer) (int64, error) {
	c.Pop()
	c.doc.Close()
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	if err := c.doc.Output(bw); err != nil {
		return cw.n, err
	}
	err := bw.Flush()
	return cw.n, err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

// Write implements io.Writer.
func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	return n, err
}

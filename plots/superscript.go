package plots

import (
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// Superscripts are drawn, not looked up: the figure font, Liberation Serif
// as gonum/plot embeds it, has no glyph for ⁰, ⁹ or the superscript minus
// ⁻ (U+207B), so "10⁻⁸" came out as "10⁸" in PNG and "10 ⁸" in PDF (the
// text layer was right). superText draws a run of superscript characters
// as the plain digits and minus sign (U+2212, which the font has) at
// superSize of the text's size, raised by superRise of it.
const (
	superSize = 0.7
	superRise = 0.38
)

// superPlain maps each superscript character to the character drawn for
// it, smaller and raised.
var superPlain = map[rune]rune{
	'⁰': '0', '¹': '1', '²': '2', '³': '3', '⁴': '4', '⁵': '5', '⁶': '6', '⁷': '7', '⁸': '8', '⁹': '9',
	'⁻': '−', '⁺': '+',
}

// span is a run of a line of text, plain or superscript (as drawn).
type span struct {
	s     string
	super bool
}

// spans splits a line into runs of plain and of superscript characters,
// the superscript ones written as the plain characters drawn for them;
// nil when the line has no superscript.
func spans(line string) []span {
	if !strings.ContainsFunc(line, func(r rune) bool { _, ok := superPlain[r]; return ok }) {
		return nil
	}
	var out []span
	var b strings.Builder
	super := false
	for _, r := range line {
		p, isSuper := superPlain[r]
		if isSuper != super && b.Len() > 0 {
			out = append(out, span{b.String(), super})
			b.Reset()
		}
		super = isSuper
		if isSuper {
			r = p
		}
		b.WriteRune(r)
	}
	return append(out, span{b.String(), super})
}

// superText is gonum/plot's plain text handler, but that it draws
// superscript characters itself (see superSize). Everything else, and any
// rotated or multi-line text, is text.Plain's.
type superText struct {
	text.Plain
}

// superFont is the font superscripts of fnt are drawn in.
func superFont(fnt font.Font) font.Font {
	fnt.Size *= superSize
	return fnt
}

// width is the advance of the spans in fnt.
func (h superText) width(ss []span, fnt font.Font) vg.Length {
	plain, super := h.Fonts.Lookup(fnt, fnt.Size), h.Fonts.Lookup(superFont(fnt), fnt.Size*superSize)
	var w vg.Length
	for _, s := range ss {
		if s.super {
			w += super.Width(s.s)
		} else {
			w += plain.Width(s.s)
		}
	}
	return w
}

// Box implements text.Handler: a line with superscripts is as wide as its
// spans, and as high as the font.
func (h superText) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	ss := spans(txt)
	if ss == nil {
		return h.Plain.Box(txt, fnt)
	}
	face := h.Fonts.Lookup(fnt, fnt.Size)
	ext := face.Extents()
	return h.width(ss, fnt), ext.Ascent, ext.Descent
}

// Draw implements text.Handler, placing a one-line, unrotated text with
// superscripts where text.Plain places its text, span after span.
func (h superText) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	ss := spans(txt)
	if ss == nil || sty.Rotation != 0 || strings.Contains(txt, "\n") {
		h.Plain.Draw(c, txt, sty, pt)
		return
	}
	plain := h.Fonts.Lookup(sty.Font, sty.Font.Size)
	super := h.Fonts.Lookup(superFont(sty.Font), sty.Font.Size*superSize)
	c.SetColor(sty.Color)
	// As text.Plain: the top of the line at YAlign of its height, the
	// baseline one font size below the line's top.
	at := vg.Point{
		X: pt.X + vg.Length(sty.XAlign)*h.width(ss, sty.Font),
		Y: pt.Y + sty.Height(txt)*vg.Length(sty.YAlign) - plain.Extents().Ascent + sty.Font.Size,
	}
	for _, s := range ss {
		if s.super {
			c.FillString(super, vg.Point{X: at.X, Y: at.Y + sty.Font.Size*superRise}, s.s)
			at.X += super.Width(s.s)
			continue
		}
		c.FillString(plain, at, s.s)
		at.X += plain.Width(s.s)
	}
}

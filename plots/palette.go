package plots

import (
	"image/color"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// lightGrey draws grid lines.
var lightGrey = color.Gray{Y: 0xd0}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xff}
}

// qualitative is the Okabe–Ito palette (distinguishable with the common
// forms of colour blindness), without its black, followed by two greys so
// that ten categories get distinct colours before the palette cycles.
var qualitative = [...]uint32{
	0x0072B2, // blue
	0xE69F00, // orange
	0x009E73, // bluish green
	0xCC79A7, // reddish purple
	0x56B4E9, // sky blue
	0xD55E00, // vermillion
	0xF0E442, // yellow
	0x999999, // grey
	0x7F3C8D, // purple
	0x11A579, // green
}

// categoryColor returns the colour of category i, cycling through the
// palette.
func categoryColor(i int) color.RGBA {
	n := len(qualitative)
	return rgb(qualitative[((i%n)+n)%n])
}

// darker returns c scaled towards black by f in [0, 1].
func darker(c color.RGBA, f float64) color.RGBA {
	s := func(v uint8) uint8 { return uint8(float64(v) * (1 - f)) }
	return color.RGBA{R: s(c.R), G: s(c.G), B: s(c.B), A: c.A}
}

// textOn returns black or white, whichever reads better on background c
// (by relative luminance, ITU-R BT.709 weights).
func textOn(c color.RGBA) color.Color {
	l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
	if l < 128 {
		return color.White
	}
	return color.Black
}

// textStyle returns a text style like base in the given font size.
func textStyle(base text.Style, size vg.Length) text.Style {
	s := base
	s.Font = font.From(base.Font, size)
	return s
}

package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// lightGrey draws grid lines.
var lightGrey = color.Gray{Y: 0xd0}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 0xff}
}

// qualitative colours the categories of Gantt charts (rounds, labels):
// the Okabe–Ito palette (distinguishable with the common forms of colour
// blindness), with its yellow darkened and its black as a grey, followed by
// a light tint and a dark shade of two of its hues, so that ten categories
// get distinct colours before the palette cycles. Every fill reads on
// white (contrast at least 1.5:1, so that a bar too small for an outline
// still shows) and keeps its bar's label legible: black or white text,
// whichever textOn picks, has a contrast of at least 4.5:1 on it (WCAG 2.1
// for text). The figures are the fill's contrast on white and its label's.
// Okabe–Ito's own yellow (F0E442) is only 1.3:1 on white.
var qualitative = [...]uint32{
	0x0072B2, // blue; 5.2:1, white text 5.2:1
	0xE69F00, // orange; 2.2:1, black text 9.3:1
	0x009E73, // bluish green; 3.4:1, black text 6.1:1
	0xCC79A7, // reddish purple; 3.1:1, black text 6.9:1
	0x56B4E9, // sky blue; 2.3:1, black text 9.1:1
	0xD55E00, // vermillion; 3.9:1, black text 5.4:1
	0xD8CD3B, // yellow (F0E442) 10% darker; 1.6:1, black text 12.7:1
	0x999999, // grey (black) 60% lighter; 2.9:1, black text 7.4:1
	0xE0AFCA, // reddish purple 40% lighter; 1.9:1, black text 11.2:1
	0x00446B, // blue 40% darker; 10.3:1, white text 10.3:1
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

// textOn returns black or white, whichever has the higher contrast ratio
// on background c.
func textOn(c color.RGBA) color.Color {
	if contrastRatio(c, color.RGBA{A: 0xff}) >= contrastRatio(c, color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}) {
		return color.Black
	}
	return color.White
}

// relativeLuminance is the relative luminance of the sRGB colour c (WCAG
// 2.1): 0 for black, 1 for white. The alpha of c is ignored.
func relativeLuminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrastRatio is the WCAG 2.1 contrast ratio of colours a and b, from 1
// (the same luminance) to 21 (black on white).
func contrastRatio(a, b color.RGBA) float64 {
	la, lb := relativeLuminance(a), relativeLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// textStyle returns a text style like base in the given font size.
func textStyle(base text.Style, size vg.Length) text.Style {
	s := base
	s.Font = font.From(base.Font, size)
	return s
}

package plots

import (
	"image/color"
	"math"
	"testing"

	"github.com/netsched/netsched/sim"
)

var (
	black = color.RGBA{A: 0xff}
	white = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

// The contrast ratio agrees with published WCAG values.
func TestContrastRatio(t *testing.T) {
	for _, tc := range []struct {
		a, b color.RGBA
		want float64
	}{
		{black, white, 21},
		{white, black, 21},
		{white, white, 1},
		{rgb(0x767676), white, 4.54}, // the lightest grey that passes AA on white
		{rgb(0x777777), white, 4.48},
		{rgb(0x0072B2), white, 5.19},
	} {
		if got := contrastRatio(tc.a, tc.b); math.Abs(got-tc.want) > 0.005 {
			t.Errorf("contrastRatio(%v, %v) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

// textOn picks the text colour of higher contrast, also where luma on
// the gamma-encoded values picks the other (vermillion, bluish green).
func TestTextOn(t *testing.T) {
	for _, tc := range []struct {
		fill uint32
		want color.Color
	}{
		{0xD55E00, color.Black},
		{0x009E73, color.Black},
		{0x0072B2, color.White},
		{0x000000, color.White},
		{0xFFFFFF, color.Black},
	} {
		if got := textOn(rgb(tc.fill)); got != tc.want {
			t.Errorf("textOn(%#06x) = %v, want %v", tc.fill, got, tc.want)
		}
	}
}

// Every Gantt fill is an Okabe–Ito colour, or a tint (towards white) or
// shade (towards black) of one; reads on white; keeps its label legible;
// and differs from the others.
func TestGanttFillContrast(t *testing.T) {
	const (
		okabeBlack     = 0x000000
		orange         = 0xE69F00
		skyBlue        = 0x56B4E9
		bluishGreen    = 0x009E73
		yellow         = 0xF0E442
		blue           = 0x0072B2
		vermillion     = 0xD55E00
		reddishPurple  = 0xCC79A7
		minOnWhite     = 1.5 // a fill shows on the white background
		minLabel       = 4.5 // WCAG 2.1 AA for text
		tintOrShadeTol = 1   // rounding of each channel
	)
	type fill struct {
		name string
		got  color.RGBA
		base uint32
		mix  float64 // > 0: that far towards white; < 0: towards black
	}
	fills := []fill{
		{"palette 0", categoryColor(0), blue, 0},
		{"palette 1", categoryColor(1), orange, 0},
		{"palette 2", categoryColor(2), bluishGreen, 0},
		{"palette 3", categoryColor(3), reddishPurple, 0},
		{"palette 4", categoryColor(4), skyBlue, 0},
		{"palette 5", categoryColor(5), vermillion, 0},
		{"palette 6", categoryColor(6), yellow, -0.1},
		{"palette 7", categoryColor(7), okabeBlack, 0.6},
		{"palette 8", categoryColor(8), reddishPurple, 0.4},
		{"palette 9", categoryColor(9), blue, -0.4},
		{"compute", kindColor[sim.KindCompute], skyBlue, 0},
		{"send", kindColor[sim.KindSend], orange, 0},
		{"recv", kindColor[sim.KindRecv], bluishGreen, 0},
		{"link", kindColor[sim.KindLink], reddishPurple, 0},
	}
	if len(qualitative) != 10 {
		t.Fatalf("palette has %d colours, the table %d", len(qualitative), 10)
	}
	for _, f := range fills {
		want := rgb(f.base)
		mixc := func(v uint8) uint8 {
			if f.mix >= 0 {
				return uint8(math.Round(float64(v) + (255-float64(v))*f.mix))
			}
			return uint8(math.Round(float64(v) * (1 + f.mix)))
		}
		want = color.RGBA{R: mixc(want.R), G: mixc(want.G), B: mixc(want.B), A: 0xff}
		for _, ch := range [][2]uint8{{f.got.R, want.R}, {f.got.G, want.G}, {f.got.B, want.B}} {
			if d := int(ch[0]) - int(ch[1]); d < -tintOrShadeTol || d > tintOrShadeTol {
				t.Errorf("%s: %v is not %#06x mixed %+.1f (%v)", f.name, f.got, f.base, f.mix, want)
				break
			}
		}
		if r := contrastRatio(f.got, white); r < minOnWhite {
			t.Errorf("%s (%v): contrast %.2f:1 on white, want at least %.1f:1", f.name, f.got, r, minOnWhite)
		}
		text := color.RGBAModel.Convert(textOn(f.got)).(color.RGBA)
		if r := contrastRatio(text, f.got); r < minLabel {
			t.Errorf("%s (%v): label %v has contrast %.2f:1, want at least %.1f:1", f.name, f.got, text, r, minLabel)
		}
	}
	for i := range qualitative {
		for j := range i {
			if categoryColor(i) == categoryColor(j) {
				t.Errorf("palette colours %d and %d are the same", j, i)
			}
		}
	}
	// The checks catch Okabe–Ito's yellow, and white text on vermillion.
	if r := contrastRatio(rgb(yellow), white); r >= minOnWhite {
		t.Errorf("yellow: %.2f:1 on white, the check is wrong", r)
	}
	if r := contrastRatio(white, rgb(vermillion)); r >= minLabel {
		t.Errorf("white on vermillion: %.2f:1, the check is wrong", r)
	}
}

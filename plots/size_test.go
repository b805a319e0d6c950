package plots

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func TestParseSize(t *testing.T) {
	cm := float64(vg.Centimeter)
	for _, tc := range []struct {
		in       string
		w, h, fs float64 // w and h in cm
		err      string
	}{
		{in: "8.5cmx6cm", w: 8.5, h: 6, fs: 8},
		{in: "8.5cm×6cm", w: 8.5, h: 6, fs: 8},
		{in: "8.5 × 6 cm", w: 8.5, h: 6, fs: 8},
		{in: "85mmX60mm", w: 8.5, h: 6, fs: 8},
		{in: "7inx3in", w: 7 * 2.54, h: 3 * 2.54, fs: 9},
		{in: "720ptx300pt", w: 720 / 72.0 * 2.54, h: 300 / 72.0 * 2.54, fs: 12},
		{in: "one-column", w: 8.5, h: 6, fs: 8},
		{in: "two-column", w: 17.5, h: 8, fs: 9},
		{in: "8.5cm", err: "want WIDTHxHEIGHT"},
		{in: "8.5x6", err: "no unit"},
		{in: "x6cm", err: "not a number"},
		{in: "8.5cmx6furlong", err: `unknown unit "furlong"`},
		{in: "abccmx6cm", err: "width: \"abccm\": not a number"},
		{in: "1cmx6cm", err: "width 1 cm: want 2 cm to 200 cm"},
		{in: "8cmx1e9cm", err: "height 1e+09 cm"},
		{in: "-8cmx6cm", err: "width -8 cm: want 2 cm to 200 cm"},
		{in: "NaNcmx6cm", err: "not a number"},
		{in: "", err: "want WIDTHxHEIGHT"},
		{in: "three-column", err: "one-column or two-column"},
	} {
		sz, err := ParseSize(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSize(%q) = %+v, %v; want an error with %q", tc.in, sz, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSize(%q): %v", tc.in, err)
			continue
		}
		if math.Abs(float64(sz.Width)/cm-tc.w) > 1e-9 || math.Abs(float64(sz.Height)/cm-tc.h) > 1e-9 || float64(sz.FontSize) != tc.fs {
			t.Errorf("ParseSize(%q) = %.4gcm×%.4gcm, %vpt; want %gcm×%gcm, %gpt", tc.in,
				float64(sz.Width)/cm, float64(sz.Height)/cm, sz.FontSize, tc.w, tc.h, tc.fs)
		}
	}
}

package plots

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Size is the printed size of a figure and the font size of its axis
// labels, chosen to read at that size.
type Size struct {
	Width, Height vg.Length
	// FontSize is the size of axis labels; the title is a point larger,
	// tick labels and the legend a point smaller.
	FontSize vg.Length
}

// Size presets: a figure one column wide and one across both columns of a
// two-column paper (IEEE, ACM and LNCS columns are 8.4–8.9 cm wide, their
// text 17.5–18 cm), with the 8 and 9 point labels such papers ask for.
func preset(name string) (Size, bool) {
	switch name {
	case "one-column":
		return Size{Width: 8.5 * vg.Centimeter, Height: 6 * vg.Centimeter, FontSize: 8}, true
	case "two-column":
		return Size{Width: 17.5 * vg.Centimeter, Height: 8 * vg.Centimeter, FontSize: 9}, true
	}
	return Size{}, false
}

// SizePresets lists the names ParseSize accepts besides a width and a
// height.
func SizePresets() []string { return []string{"one-column", "two-column"} }

// Figure sizes that ParseSize accepts.
const (
	minFigureSide = 2 * vg.Centimeter
	maxFigureSide = 200 * vg.Centimeter
)

// ParseSize reads a figure size: a preset (one-column, two-column), or
// WIDTHxHEIGHT with a unit on each or on the last one only (8.5cmx6cm,
// 8.5×6 cm, 85mmx60mm, 3.5inx2.5in, 240ptx170pt; × or x). Each side is
// 2 cm to 2 m. The font size follows the width: 8 points for a figure
// under 12 cm wide, 9 up to 20 cm, 12 above.
func ParseSize(s string) (Size, error) {
	if p, ok := preset(strings.TrimSpace(s)); ok {
		return p, nil
	}
	ws, hs, ok := strings.Cut(strings.NewReplacer("×", "x", "X", "x").Replace(s), "x")
	if !ok {
		return Size{}, fmt.Errorf("size %q: want WIDTHxHEIGHT with units (8.5cmx6cm) or %s", s, strings.Join(SizePresets(), " or "))
	}
	_, hUnit, err := splitLength(hs)
	if err != nil {
		return Size{}, fmt.Errorf("size %q: height: %w", s, err)
	}
	w, err := parseLength(ws, hUnit)
	if err != nil {
		return Size{}, fmt.Errorf("size %q: width: %w", s, err)
	}
	h, err := parseLength(hs, "")
	if err != nil {
		return Size{}, fmt.Errorf("size %q: height: %w", s, err)
	}
	for _, side := range []struct {
		name string
		v    vg.Length
	}{{"width", w}, {"height", h}} {
		if side.v < minFigureSide || side.v > maxFigureSide {
			return Size{}, fmt.Errorf("size %q: %s %.3g cm: want 2 cm to 200 cm", s, side.name, float64(side.v/vg.Centimeter))
		}
	}
	fs := vg.Length(12)
	switch {
	case w < 12*vg.Centimeter:
		fs = 8
	case w <= 20*vg.Centimeter:
		fs = 9
	}
	return Size{Width: w, Height: h, FontSize: fs}, nil
}

// lengthUnit is the length of a unit a size may take.
func lengthUnit(unit string) (vg.Length, bool) {
	switch unit {
	case "cm":
		return vg.Centimeter, true
	case "mm":
		return vg.Millimeter, true
	case "in":
		return vg.Inch, true
	case "pt":
		return 1, true
	}
	return 0, false
}

// splitLength splits "8.5cm" into its number and unit ("" when absent).
func splitLength(s string) (num, unit string, err error) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexAny(s, "0123456789.") + 1
	num, unit = strings.TrimSpace(s[:i]), strings.TrimSpace(s[i:])
	if num == "" {
		return "", "", fmt.Errorf("%q: not a number", s)
	}
	if unit != "" {
		if _, ok := lengthUnit(unit); !ok {
			return "", "", fmt.Errorf("%q: unknown unit %q (want cm, mm, in or pt)", s, unit)
		}
	}
	return num, unit, nil
}

// parseLength reads a length with its unit, or in defUnit if it has none.
func parseLength(s, defUnit string) (vg.Length, error) {
	num, unit, err := splitLength(s)
	if err != nil {
		return 0, err
	}
	if unit == "" {
		unit = defUnit
	}
	if unit == "" {
		return 0, fmt.Errorf("%q: no unit (want cm, mm, in or pt)", strings.TrimSpace(s))
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q: not a number", strings.TrimSpace(s))
	}
	u, _ := lengthUnit(unit)
	return vg.Length(v) * u, nil
}

// fontSizes returns the sizes of the title, axis labels, tick labels and
// legend of a figure whose labels are fs points (0: the screen sizes 12,
// 12, 10 and 9).
func fontSizes(fs vg.Length) (title, label, tick, legend vg.Length) {
	if fs <= 0 {
		return 12, 12, 10, 9
	}
	return fs + 1, fs, fs - 1, fs - 1
}

// setFontSizes sets the sizes of p's texts for axis labels of fs points
// (0: screen sizes) and returns the legend's.
func setFontSizes(p *plot.Plot, fs vg.Length) (legend vg.Length) {
	title, label, tick, legend := fontSizes(fs)
	p.Title.TextStyle = textStyle(p.Title.TextStyle, title)
	p.X.Label.TextStyle = textStyle(p.X.Label.TextStyle, label)
	p.Y.Label.TextStyle = textStyle(p.Y.Label.TextStyle, label)
	p.X.Tick.Label = textStyle(p.X.Tick.Label, tick)
	p.Y.Tick.Label = textStyle(p.Y.Tick.Label, tick)
	return legend
}

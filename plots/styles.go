package plots

import (
	"image/color"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Style is how one series of a comparison plot is drawn: its colour, the
// dash pattern of its line and the shape of its markers.
type Style struct {
	Color  color.RGBA
	Dashes []vg.Length // nil: a solid line
	Shape  draw.GlyphDrawer
}

// linePalette colours the lines of comparison plots: the Okabe–Ito palette
// (distinguishable with the common forms of colour blindness) without its
// yellow, which is too pale on white, and with its orange and sky blue
// darkened to the same hue, so that every colour has a contrast ratio of
// at least 3:1 against white (WCAG 2.1 for graphical objects; the
// originals have 2.3:1). Blue first: it has the most contrast.
var linePalette = [...]uint32{
	0x0072B2, // blue, 5.2:1
	0xD55E00, // vermillion, 3.9:1
	0x009E73, // bluish green, 3.4:1
	0xCC79A7, // reddish purple, 3.1:1
	0x000000, // black, 21:1
	0xC27A00, // orange (E69F00 darkened), 3.5:1
	0x3A93C9, // sky blue (56B4E9 darkened), 3.4:1
}

// Dash patterns and marker shapes of the styles, cycled through with the
// colours; their counts (4 and 8) and the palette's (7) give 56 labels
// distinct styles before one repeats, and all three differ between any
// two of the first four.
var (
	dashes = [][]vg.Length{nil, {6, 3}, {2, 2}, {6, 2, 2, 2}}
	shapes = []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
		draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{},
	}
)

// styleAt is the style number i.
func styleAt(i int) Style {
	return Style{
		Color:  rgb(linePalette[i%len(linePalette)]),
		Dashes: dashes[i%len(dashes)],
		Shape:  shapes[i%len(shapes)],
	}
}

// Styles gives each label (a policy, or a policy variant's label) one
// style, the same in every figure drawn with the same Styles: make one
// from every label of a sweep or of a reproduction, and pass it to each of
// its figures, so that a policy keeps its colour, dash pattern and marker
// whatever other policies a figure shows. Styles are assigned in the
// sorted order of the labels, so they do not depend on the order in which
// runs or series come either.
//
// The zero Styles assigns styles from the labels of each figure, which is
// stable only across figures with the same labels.
type Styles struct {
	index map[string]int // label → style number
}

// NewStyles returns the styles of the given labels.
func NewStyles(labels ...string) Styles {
	return Styles{}.with(labels)
}

// Labels returns the labels of s, in the order of their styles.
func (s Styles) Labels() []string {
	out := make([]string, len(s.index))
	for l, i := range s.index {
		out[i] = l
	}
	return out
}

// Of returns the style of label, and false if s lacks the label (its
// style is then the first one after s's own).
func (s Styles) Of(label string) (Style, bool) {
	i, ok := s.index[label]
	if !ok {
		i = len(s.index)
	}
	return styleAt(i), ok
}

// with returns s extended by the labels it lacks, in sorted order: a
// figure's labels that its Styles lack get styles after those of the
// Styles' own labels, so they are drawn, but they may clash with another
// figure's.
func (s Styles) with(labels []string) Styles {
	var extra []string
	for _, l := range labels {
		if _, ok := s.index[l]; !ok {
			extra = append(extra, l)
		}
	}
	if len(extra) == 0 && s.index != nil {
		return s
	}
	slices.Sort(extra)
	out := Styles{index: make(map[string]int, len(s.index)+len(extra))}
	for l, i := range s.index {
		out.index[l] = i
	}
	for _, l := range slices.Compact(extra) {
		out.index[l] = len(out.index)
	}
	return out
}

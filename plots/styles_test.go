package plots

import (
	"image/color"
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"
)

// contrast is the WCAG 2.1 contrast ratio of c against white.
func contrast(c color.RGBA) float64 {
	return contrastRatio(c, color.RGBA{R: 255, G: 255, B: 255, A: 255})
}

func TestLinePaletteContrast(t *testing.T) {
	for i := range linePalette {
		c := styleAt(i).Color
		if r := contrast(c); r < 3 {
			t.Errorf("line colour %d (%#06x): contrast %.2f:1 on white, want at least 3:1", i, linePalette[i], r)
		}
		for j := range i {
			if styleAt(j).Color == c {
				t.Errorf("line colours %d and %d are the same", j, i)
			}
		}
	}
	// Okabe–Ito's yellow is 1.3:1 on white: the check catches it.
	if r := contrast(rgb(0xF0E442)); r >= 3 {
		t.Errorf("contrast of yellow = %.2f, the check is wrong", r)
	}
}

func sameStyle(a, b Style) bool {
	return a.Color == b.Color && slices.Equal(a.Dashes, b.Dashes) && a.Shape == b.Shape
}

func TestStylesDistinct(t *testing.T) {
	n := len(linePalette) * len(shapes) // 56: every combination differs
	for i := range n {
		for j := range i {
			a, b := styleAt(i), styleAt(j)
			if sameStyle(a, b) {
				t.Fatalf("styles %d and %d are the same", j, i)
			}
		}
	}
}

// TestStylesStableAcrossFigures checks that a label keeps its style in
// figures that show different subsets of a sweep's labels, in any order.
func TestStylesStableAcrossFigures(t *testing.T) {
	all := []string{"optimal", "mpich-binomial", "lam", "fnf", "ecef", "binary-tree"}
	st := NewStyles(all...)
	figures := [][]string{
		{"optimal", "lam"},
		{"lam", "optimal", "fnf"},
		{"ecef", "binary-tree", "mpich-binomial", "lam", "fnf", "optimal"},
		{"fnf"},
	}
	want := map[string]Style{}
	for _, l := range all {
		s, ok := st.Of(l)
		if !ok {
			t.Fatalf("Styles lacks %q", l)
		}
		want[l] = s
	}
	for _, fig := range figures {
		fs := st.with(fig)
		for _, l := range fig {
			if got, _ := fs.Of(l); !sameStyle(got, want[l]) {
				t.Errorf("figure %v: %q drawn as %+v, want %+v", fig, l, got, want[l])
			}
		}
	}
	// The sorted order decides: the same labels in another order give the
	// same styles.
	rev := slices.Clone(all)
	slices.Reverse(rev)
	for _, l := range all {
		if a, _ := NewStyles(rev...).Of(l); !sameStyle(a, want[l]) {
			t.Errorf("%q: style depends on the order of the labels", l)
		}
	}
	// A label the Styles lacks gets a style after the known ones, not one
	// of theirs.
	extra := st.with([]string{"newcomer", "optimal"})
	s, ok := extra.Of("newcomer")
	if _, known := st.Of("newcomer"); known || !ok || !sameStyle(s, styleAt(len(all))) {
		t.Errorf("newcomer: style %+v (known %v), want style %d", s, ok, len(all))
	}
	// The zero Styles sorts the figure's labels.
	zero := Styles{}.with([]string{"b", "a"})
	if a, _ := zero.Of("a"); !sameStyle(a, styleAt(0)) {
		t.Errorf("zero Styles: a is not the first style")
	}
}

func TestDodgeAndSameAs(t *testing.T) {
	series := []Series{
		{Name: "mpich-binomial", X: []float64{1, 2, 3}, Y: []float64{10, 20, 30}},
		{Name: "lam", X: []float64{1, 2, 3}, Y: []float64{10, 20, 30}},
		{Name: "optimal", X: []float64{1, 2, 3}, Y: []float64{5, 20, 25}},
		{Name: "direct", X: []float64{1, 2}, Y: []float64{40, 50}},
		// Within half a marker radius of mpich-binomial at x = 3 (the y
		// range is 45, the data area about 173 points: 0.33 is 1.25
		// points), and at x = 4 just beyond it.
		{Name: "near", X: []float64{3, 4}, Y: []float64{30.3, 5.4}},
		{Name: "far", X: []float64{4}, Y: []float64{5}},
	}
	dx := dodge(series, 4*vg.Inch)
	s := markerSpacing
	want := [][]vg.Length{
		{-s / 2, -s, -s},
		{s / 2, 0, 0},
		{0, s, 0},
		{0, 0},
		{s, 0},
		{0},
	}
	for i := range want {
		if !slices.Equal(dx[i], want[i]) {
			t.Errorf("dodge: series %s moved %v, want %v", series[i].Name, dx[i], want[i])
		}
	}
	if got := sameAs(series); !slices.Equal(got, []int{-1, 0, -1, -1, -1, -1}) {
		t.Errorf("sameAs = %v, want [-1 0 -1 -1 -1 -1]", got)
	}
}

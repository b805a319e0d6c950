package plots

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func approxEqual(a, b []float64) bool {
	return len(a) == len(b) && !slices.ContainsFunc(indices(len(a)), func(i int) bool {
		return math.Abs(a[i]-b[i]) > 1e-12*max(1, math.Abs(b[i]))
	})
}

func indices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestSummarize(t *testing.T) {
	// x = 2: 1, 2, 3 (mean 2, sample std 1); x = 0.5: 5 alone (std 0);
	// x = 10: 2, 4, 4, 4, 5, 5, 7, 9 (mean 5, sample std √(32/7)).
	pts := []Point{{2, 3}, {10, 2}, {0.5, 5}, {2, 1}, {10, 4}, {10, 4}, {2, 2}, {10, 4}, {10, 5}, {10, 5}, {10, 7}, {10, 9}}
	s := Summarize("p", pts)
	if s.Name != "p" || !approxEqual(s.X, []float64{0.5, 2, 10}) || !approxEqual(s.Y, []float64{5, 2, 5}) ||
		!approxEqual(s.YErr, []float64{0, 1, math.Sqrt(32.0 / 7)}) {
		t.Errorf("Summarize = %+v", s)
	}
	if s := Summarize("empty", nil); len(s.X) != 0 {
		t.Errorf("Summarize(nil) = %+v, want no points", s)
	}
}

func TestRatio(t *testing.T) {
	in := []Series{
		{Name: "a", X: []float64{1, 2}, Y: []float64{2, 9}, YErr: []float64{0.2, 0}},
		{Name: "base", X: []float64{2, 1}, Y: []float64{3, 4}, YErr: []float64{0, 0.4}},
		{Name: "c", X: []float64{1}, Y: []float64{0}},
	}
	out, err := Ratio(in, "base")
	if err != nil {
		t.Fatal(err)
	}
	// a/base at x = 1: 2/4 = 0.5, σ = √(0.2² + 0.5²·0.4²)/4 = √0.08/4.
	want := []Series{
		{Name: "a", X: []float64{1, 2}, Y: []float64{0.5, 3}, YErr: []float64{math.Sqrt(0.08) / 4, 0}},
		{Name: "base", X: []float64{2, 1}, Y: []float64{1, 1}, YErr: []float64{0, 0}},
		{Name: "c", X: []float64{1}, Y: []float64{0}, YErr: []float64{0}},
	}
	for i := range want {
		g, w := out[i], want[i]
		if g.Name != w.Name || !approxEqual(g.X, w.X) || !approxEqual(g.Y, w.Y) || !approxEqual(g.YErr, w.YErr) {
			t.Errorf("series %d = %+v, want %+v", i, g, w)
		}
	}
	if in[0].Y[0] != 2 {
		t.Error("Ratio modified its input")
	}
	for _, tc := range []struct {
		series []Series
		base   string
		want   string
	}{
		{in, "nope", `no series named "nope"`},
		{append(slices.Clone(in), Series{Name: "base", X: []float64{1}, Y: []float64{1}}), "base", "several series"},
		{[]Series{{Name: "b", X: []float64{1}, Y: []float64{1}}, {Name: "a", X: []float64{3}, Y: []float64{1}}}, "b", `series "a": baseline "b" has no point at x = 3`},
		{[]Series{{Name: "b", X: []float64{1}, Y: []float64{0}}}, "b", "is 0 at x = 1"},
		{[]Series{{Name: "b", X: []float64{1}, Y: []float64{1}}, {Name: "a", X: []float64{1}, Y: nil}}, "b", "1 X values but 0 Y values"},
	} {
		if _, err := Ratio(tc.series, tc.base); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Ratio(…, %q): error %v, want one containing %q", tc.base, err, tc.want)
		}
	}
}

func TestSeriesSorted(t *testing.T) {
	s := Series{Name: "p", X: []float64{3, 1, 2}, Y: []float64{30, 10, 20}, YErr: []float64{3, 1, 2}}
	got := s.sorted()
	if !approxEqual(got.X, []float64{1, 2, 3}) || !approxEqual(got.Y, []float64{10, 20, 30}) || !approxEqual(got.YErr, []float64{1, 2, 3}) {
		t.Errorf("sorted = %+v", got)
	}
	if s.X[0] != 3 {
		t.Error("sorted modified its receiver")
	}
}

func sweepSeries() []Series {
	var out []Series
	for k, name := range []string{"mmdl", "direct", "rr"} {
		var pts []Point
		for _, b := range []float64{0.01, 0.03, 0.1, 0.3, 1, 3, 10} {
			for seed := range 4 {
				pts = append(pts, Point{b, float64(k+1) * (1 + b) * (1 + 0.01*float64(seed))})
			}
		}
		out = append(out, Summarize(name, pts))
	}
	return out
}

func TestSaveLines(t *testing.T) {
	dir := t.TempDir()
	opt := LineOptions{Title: "makespan against β", XLabel: "β", YLabel: "makespan", LogX: true, DPI: 100}
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		if err := SaveLines(sweepSeries(), opt, filepath.Join(dir, "sweep"+ext)); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
	}
	f, err := os.Open(filepath.Join(dir, "sweep.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 600 || b.Dy() != 400 {
		t.Errorf("PNG is %d×%d, want 600×400 (6×4 inches at 100 dpi)", b.Dx(), b.Dy())
	}
	// Same input, same SVG bytes.
	var svgs [][]byte
	for _, name := range []string{"a.svg", "b.svg"} {
		path := filepath.Join(dir, name)
		if err := SaveLines(sweepSeries(), opt, path); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		svgs = append(svgs, b)
	}
	if !bytes.Equal(svgs[0], svgs[1]) {
		t.Error("two renderings of one sweep differ")
	}
}

func TestLinesLogAxis(t *testing.T) {
	ch, err := Lines(sweepSeries(), LineOptions{LogX: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ch.Plot.X.Scale.(plot.LogScale); !ok {
		t.Errorf("LogX: x scale %T, want plot.LogScale", ch.Plot.X.Scale)
	}
	// The data's decades [0.01, 10], padded by axisPadding of their
	// logarithm at each end, not rounded out to further decades.
	f := math.Pow(1000, axisPadding)
	if math.Abs(ch.Plot.X.Min-0.01/f) > 1e-12 || math.Abs(ch.Plot.X.Max-10*f) > 1e-9 {
		t.Errorf("LogX: x axis [%g, %g], want [0.01, 10] padded by a factor %g", ch.Plot.X.Min, ch.Plot.X.Max, f)
	}
	if len(ch.legend.entries) != 3 || ch.legend.entries[1].text != "direct" {
		t.Errorf("legend %+v, want the three series in order", ch.legend.entries)
	}
}

// TestLinesLogY: LogY draws the values on a log scale, padded by
// axisPadding of their logarithm, so that times of 10 and 500 ms both read.
func TestLinesLogY(t *testing.T) {
	s := []Series{{Name: "a", X: []float64{0, 1, 2}, Y: []float64{10, 50, 500}}}
	ch, err := Lines(s, LineOptions{LogY: true, XNames: []string{"x", "y", "z"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ch.Plot.Y.Scale.(plot.LogScale); !ok {
		t.Errorf("LogY: y scale %T, want plot.LogScale", ch.Plot.Y.Scale)
	}
	if _, ok := ch.Plot.X.Scale.(plot.LogScale); ok {
		t.Error("LogY: the x scale is a log scale too")
	}
	f := math.Pow(50, axisPadding)
	if math.Abs(ch.Plot.Y.Min-10/f) > 1e-9 || ch.Plot.Y.Max < 500 {
		t.Errorf("LogY: y axis [%g, %g], want [10, 500] padded by a factor %g at the bottom", ch.Plot.Y.Min, ch.Plot.Y.Max, f)
	}
}

// TestLinesPadded: no curve runs along the plot's edge; the axes extend
// axisPadding of the data's range beyond it, but not below 0 when the data
// start at 0 or above (issue 39).
func TestLinesPadded(t *testing.T) {
	ch, err := Lines([]Series{{Name: "a", X: []float64{1, 2, 3}, Y: []float64{10, 20, 20}},
		{Name: "b", X: []float64{1, 2, 3}, Y: []float64{0.5, 1, 2}}}, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x, y := ch.Plot.X, ch.Plot.Y
	if !(x.Min < 1 && x.Max > 3 && y.Max > 20 && y.Min == 0) {
		t.Errorf("axes x [%g, %g], y [%g, %g]: want x beyond [1, 3], y above 20 and from 0", x.Min, x.Max, y.Min, y.Max)
	}
	if d := 0.04 * 2; math.Abs(x.Min-(1-d)) > 1e-12 || math.Abs(x.Max-(3+d)) > 1e-12 {
		t.Errorf("x axis [%g, %g], want [1, 3] padded by %g", x.Min, x.Max, d)
	}
}

func TestLinesBadInput(t *testing.T) {
	one := func(s Series) []Series { return []Series{s} }
	for _, tc := range []struct {
		name   string
		series []Series
		opt    LineOptions
		want   string
	}{
		{"none", nil, LineOptions{}, "no series"},
		{"empty", one(Series{Name: "p"}), LineOptions{}, `series "p": no points`},
		{"lengths", one(Series{Name: "p", X: []float64{1, 2}, Y: []float64{1}}), LineOptions{}, "2 X values but 1 Y values"},
		{"errs", one(Series{Name: "p", X: []float64{1}, Y: []float64{1}, YErr: []float64{1, 2}}), LineOptions{}, "1 X values but 2 YErr"},
		{"NaN", one(Series{Name: "p", X: []float64{1}, Y: []float64{math.NaN()}}), LineOptions{}, "point 0: (1, NaN) is not finite"},
		{"negative err", one(Series{Name: "p", X: []float64{1}, Y: []float64{1}, YErr: []float64{-1}}), LineOptions{}, "YErr -1"},
		{"log of 0", one(Series{Name: "p", X: []float64{0, 1}, Y: []float64{1, 1}}), LineOptions{LogX: true}, "x = 0 on a log scale"},
		{"log y of 0", one(Series{Name: "p", X: []float64{0, 1}, Y: []float64{1, 0}}), LineOptions{LogY: true}, "y = 0 on a log scale"},
		{"size", one(Series{Name: "p", X: []float64{1}, Y: []float64{1}}), LineOptions{Height: -2}, "must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := SaveLines(tc.series, tc.opt, filepath.Join(dir, "l.svg"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			assertDirHolds(t, dir)
		})
	}
}

func TestLinesXNames(t *testing.T) {
	s := []Series{{Name: "a", X: []float64{0, 1, 2}, Y: []float64{3, 1, 2}}}
	ch, err := Lines(s, LineOptions{XNames: []string{"tree", "ring", "complete"}})
	if err != nil {
		t.Fatal(err)
	}
	ticks := ch.Plot.X.Tick.Marker.Ticks(ch.Plot.X.Min, ch.Plot.X.Max)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if strings.Join(labels, ",") != "tree,ring,complete" {
		t.Errorf("x tick labels %v, want tree, ring, complete", labels)
	}
}

// TestLinesOneX draws series with a single x value, on linear and log
// axes, in every format: gonum widens an empty range by ±1, which a log
// axis cannot take below 1.
func TestLinesOneX(t *testing.T) {
	dir := t.TempDir()
	for _, x := range []float64{0.02, 3, 500} {
		for _, logX := range []bool{false, true} {
			series := []Series{{Name: "a", X: []float64{x}, Y: []float64{2}, YErr: []float64{0.1}}, {Name: "b", X: []float64{x}, Y: []float64{3}}}
			for _, ext := range []string{".png", ".svg", ".pdf"} {
				if err := SaveLines(series, LineOptions{LogX: logX}, filepath.Join(dir, "one"+ext)); err != nil {
					t.Errorf("x = %g, log %v, %s: %v", x, logX, ext, err)
				}
			}
		}
	}
}

// TestLinesBeside draws a paper's values beside a series: in its colour,
// open markers, no line of their own, an entry of their own in the legend
// right after it; the series drawn beside take no style of their own; an
// unknown or later series to be beside is an error.
func TestLinesBeside(t *testing.T) {
	s := []Series{
		{Name: "ours", X: []float64{1, 2}, Y: []float64{1, 2}},
		{Name: "other", X: []float64{1, 2}, Y: []float64{3, 4}},
		{Name: "paper", X: []float64{1, 2}, Y: []float64{1.1, 2.1}, Beside: "ours"},
	}
	styles := NewStyles("ours", "other")
	ch, err := Lines(s, LineOptions{Styles: styles})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, e := range ch.legend.entries {
		texts = append(texts, e.text)
	}
	if strings.Join(texts, ",") != "ours,paper,other" {
		t.Fatalf("legend %q, want ours, paper, other", texts)
	}
	paper, ok := ch.legend.entries[1].thumbs[0].(*plotter.Scatter)
	if !ok || len(ch.legend.entries[1].thumbs) != 1 {
		t.Fatalf("paper's legend entry %+v, want markers only", ch.legend.entries[1].thumbs)
	}
	ours, _ := styles.Of("ours")
	if paper.GlyphStyle.Color != ours.Color {
		t.Errorf("paper's colour %v, want ours %v", paper.GlyphStyle.Color, ours.Color)
	}
	// A shape no series has, so that a paper's values never look like a
	// series of their own (issue 39: beside a series of open squares they
	// were open squares).
	if _, distinct := paper.GlyphStyle.Shape.(paperGlyph); !distinct {
		t.Errorf("paper's marker %T, want paperGlyph", paper.GlyphStyle.Shape)
	}
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		st, _ := NewStyles("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l").Of(name)
		if _, same := st.Shape.(paperGlyph); same {
			t.Errorf("series %s has the paper's marker", name)
		}
	}
	if err := SaveLines(s, LineOptions{}, filepath.Join(t.TempDir(), "b.png")); err != nil {
		t.Fatal(err)
	}
	s[2].Beside = "nobody"
	if _, err := Lines(s, LineOptions{}); err == nil || !strings.Contains(err.Error(), `no earlier series "nobody"`) {
		t.Errorf("beside an unknown series: %v", err)
	}
	s[2].Beside, s[0], s[2] = "ours", s[2], s[0]
	if _, err := Lines(s, LineOptions{}); err == nil {
		t.Error("beside a later series: no error")
	}
}

// TestLinesHeadroom checks that the highest value of a line plot, a
// marker or the cap of an error bar, is drawn topRoom below the top of the
// plot's area (the figure's edge, or the title), with and without a title.
func TestLinesHeadroom(t *testing.T) {
	for _, tc := range []struct {
		name   string
		series []Series
		title  string
		top    float64
	}{
		{"marker", []Series{{Name: "a", X: []float64{1, 2, 3}, Y: []float64{1, 5, 2}}}, "", 5},
		{"marker under a title", []Series{{Name: "a", X: []float64{1, 2, 3}, Y: []float64{1, 5, 2}}}, "T", 5},
		{"error bar", []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 4}, YErr: []float64{0.5, 2}}}, "", 6},
		{"paper's values", []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}, {Name: "paper", X: []float64{1, 2}, Y: []float64{3, 7}, Beside: "a"}}, "", 7},
	} {
		ch, err := Lines(tc.series, LineOptions{Title: tc.title})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c := draw.New(vgimg.New(ch.Width, ch.Height))
		pc, _ := ch.split(c)
		dc := ch.Plot.DataCanvas(pc)
		_, y := ch.Plot.Transforms(&dc)
		top := pc.Max.Y
		if tc.title != "" {
			top -= ch.Plot.Title.TextStyle.Height(tc.title) + ch.Plot.Title.Padding
		}
		if room := top - y(tc.top); room < topRoom-0.01 {
			t.Errorf("%s: the highest value is %.2f pt below the top of the plot, want at least %.2f", tc.name, float64(room), float64(topRoom))
		}
	}
}

// TestLinesTicksAtData: with TicksAtData every x value of the data has a
// labelled tick (a reproduction's ρ = 1.5, 3, 5, 8, 14 skipped 3 and 8);
// without it the ticks still end where the data end, not where the
// axis's padding does.
func TestLinesTicksAtData(t *testing.T) {
	s := []Series{{Name: "a", X: []float64{1.5, 3, 5, 8, 14}, Y: []float64{1, 2, 3, 2, 1}}}
	ch, err := Lines(s, LineOptions{TicksAtData: true})
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := tickLabels(ch.Plot.X.Tick.Marker.Ticks(ch.Plot.X.Min, ch.Plot.X.Max))
	if !slices.Equal(labels, []string{"1.5", "3", "5", "8", "14"}) {
		t.Errorf("TicksAtData: labels %q, want 1.5, 3, 5, 8, 14", labels)
	}
	ch, err = Lines(s, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	labels, _ = tickLabels(ch.Plot.X.Tick.Marker.Ticks(ch.Plot.X.Min, ch.Plot.X.Max))
	if len(labels) == 0 || labels[0] != "1.5" || labels[len(labels)-1] != "14" {
		t.Errorf("labels %q, want the ends of the data, 1.5 and 14", labels)
	}
}

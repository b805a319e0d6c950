package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a comparison plot: a policy's metric Y at each
// value X of the swept parameter, with an optional symmetric error YErr
// (drawn as Y ± YErr; Summarize fills it with the standard deviation over
// seeds). YErr is nil or as long as X.
type Series struct {
	Name string
	X, Y []float64
	YErr []float64
	// Beside, if set, names an earlier series that this one is drawn
	// beside (a paper's published values beside ours): in its colour and
	// marker shape, hollow and larger, without a line.
	Beside string
}

// LineOptions tune a comparison plot. The zero value gives a 6×4 inch plot
// with linear axes.
type LineOptions struct {
	Title, XLabel, YLabel string
	// LogX draws the swept parameter on a log scale (β from 0.01 to 10,
	// say); every X must then be positive.
	LogX bool
	// LogY draws the measured values on a log scale (times that span
	// decades across the x values); every Y must then be positive.
	LogY bool
	// Width and Height are the figure size; defaults 6 and 4 inches.
	Width, Height vg.Length
	// FontSize is the size of the axis labels, in points (the title a
	// point larger, ticks and legend a point smaller); 0 gives the screen
	// sizes 12 (title, labels), 10 (ticks) and 9 (legend). Size.FontSize
	// is the size that reads at a printed figure's size.
	FontSize vg.Length
	// DPI is the resolution of PNG output; default DefaultDPI.
	DPI int
	// Styles gives each series, by its name, its colour, dash pattern and
	// marker; pass the same Styles to every figure of a sweep or a
	// reproduction. The zero value assigns styles from this figure's
	// series names, sorted.
	Styles Styles
	// TicksAtData labels a tick at each x value of the series (at most
	// maxDataTicks of them; more get the usual ticks), as a paper's
	// figure does at the values it measured (ρ = 1.5, 3, 5, 8, 14).
	TicksAtData bool
	// XNames, when set, names the x values 0, 1, 2, … (a categorical
	// parameter such as a topology): the x axis shows the names instead of
	// numbers.
	XNames []string
}

// SaveLines draws the comparison plot of series and writes it to path; the
// extension (.png, .svg, .pdf) chooses the format. The write is atomic.
func SaveLines(series []Series, opt LineOptions, path string) error {
	ch, err := Lines(series, opt)
	if err != nil {
		return err
	}
	return ch.Save(path, opt.DPI)
}

// Lines builds a comparison plot: one line per series, in the given order,
// each with the colour, dash pattern and marker opt.Styles gives its name
// (so the plot also reads in black and white), error bars where YErr is
// set, and a legend beneath. Points are joined in increasing X.
//
// Curves that coincide stay visible: markers that would be drawn on top
// of each other are set side by side, and a series equal to an earlier one
// at every point is listed in the legend as "NAME (same as OTHER)".
func Lines(series []Series, opt LineOptions) (*Chart, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("lines: no series")
	}
	if opt.Width == 0 {
		opt.Width = 6 * vg.Inch
	}
	if opt.Height == 0 {
		opt.Height = 4 * vg.Inch
	}
	if !(opt.Width > 0 && opt.Height > 0) {
		return nil, fmt.Errorf("lines: Width %v and Height %v must be positive", opt.Width, opt.Height)
	}
	p := newPlot()
	legendSize := setFontSizes(p, opt.FontSize)
	p.Title.Text = opt.Title
	p.Title.Padding = 6
	p.X.Label.Text, p.Y.Label.Text = opt.XLabel, opt.YLabel
	p.Y.Tick.Marker = niceTicks(6)
	p.X.Tick.Marker = lineTicks(max(3, int(opt.Width/vg.Inch)))
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = lightGrey, lightGrey
	grid.Vertical.Width, grid.Horizontal.Width = 0.4, 0.4
	p.Add(grid)

	ch := &Chart{Plot: p, Width: opt.Width, Height: opt.Height, legend: newLegend(p.Legend.TextStyle, legendSize)}
	var sorted, beside []Series // series drawn with a line; series drawn beside one
	var names []string
	for _, s := range series {
		if err := s.validate(opt.LogX, opt.LogY); err != nil {
			return nil, fmt.Errorf("lines: %w", err)
		}
		if s.Beside != "" {
			if !slices.Contains(names, s.Beside) {
				return nil, fmt.Errorf("lines: series %q: no earlier series %q to be drawn beside", s.Name, s.Beside)
			}
			beside = append(beside, s.sorted())
			continue
		}
		sorted, names = append(sorted, s.sorted()), append(names, s.Name)
	}
	styles := opt.Styles.with(names)
	dx, same := dodge(sorted, opt.Height), sameAs(sorted)
	for i, s := range sorted {
		st, _ := styles.Of(s.Name)
		line, points, bars := seriesPlotters(s, st, dx[i])
		if bars != nil {
			p.Add(bars)
		}
		p.Add(line, points)
		name := s.Name
		if same[i] >= 0 {
			name += " (same as " + sorted[same[i]].Name + ")"
		}
		ch.legend.add(name, line, points)
		for _, b := range beside { // after s in the legend
			if b.Beside == s.Name {
				points := besidePlotter(b, st)
				p.Add(points)
				ch.legend.add(b.Name, points)
			}
		}
	}
	p.Add(headroom{y: topValue(series)})
	if len(opt.XNames) > 0 {
		ticks := make([]plot.Tick, len(opt.XNames))
		for i, name := range opt.XNames {
			ticks[i] = plot.Tick{Value: float64(i), Label: name}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = -0.25, float64(len(opt.XNames))-0.75
	}
	if opt.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
		if p.X.Min == p.X.Max { // one x value: a factor of 2 either side
			p.X.Min, p.X.Max = p.X.Min/2, p.X.Max*2
		}
	}
	if len(opt.XNames) == 0 {
		xs := dataXs(series)
		p.X.Tick.Marker = inRange{p.X.Tick.Marker, p.X.Min, p.X.Max} // ends labelled where the data end, not the padding
		if !opt.LogX && allWhole(xs) {
			p.X.Tick.Marker = wholeTicks{p.X.Tick.Marker} // a seed, a count: no tick labelled 1.5
		}
		if opt.TicksAtData && len(xs) <= maxDataTicks {
			p.X.Tick.Marker = atData(xs)
		}
		pad(&p.X, opt.LogX)
	}
	if opt.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	pad(&p.Y, opt.LogY)
	return ch, nil
}

// maxDataTicks is the most x values TicksAtData labels one by one.
const maxDataTicks = 12

// dataXs is the sorted distinct x values of the series.
func dataXs(series []Series) []float64 {
	var xs []float64
	for _, s := range series {
		xs = append(xs, s.X...)
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// allWhole reports whether every value is a whole number.
func allWhole(xs []float64) bool {
	for _, x := range xs {
		if x != math.Trunc(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return len(xs) > 0
}

// wholeTicks labels only the whole numbers among its ticker's labelled
// ticks, written as whole numbers ("2", not "2.0"), for an axis whose
// values are all whole (a seed, a count): the others stay as unlabelled
// ticks.
type wholeTicks struct{ plot.Ticker }

// Ticks implements plot.Ticker.
func (w wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := w.Ticker.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		if t.Value != math.Trunc(t.Value) {
			ticks[i].Label = ""
		} else if strings.Contains(t.Label, ".") && !strings.ContainsAny(t.Label, "eE") {
			ticks[i].Label = strings.TrimRight(strings.TrimRight(t.Label, "0"), ".")
		}
	}
	return ticks
}

// atData is a ticker with a labelled tick at each of its values.
type atData []float64

// Ticks implements plot.Ticker.
func (xs atData) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, x := range xs {
		if x >= lo && x <= hi {
			ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)})
		}
	}
	return ticks
}

// inRange is a ticker that ticks [lo, hi] whatever the axis's range, so
// that padding the axis (pad) leaves the ticks where the data are.
type inRange struct {
	plot.Ticker
	lo, hi float64
}

// Ticks implements plot.Ticker.
func (r inRange) Ticks(float64, float64) []plot.Tick { return r.Ticker.Ticks(r.lo, r.hi) }

// axisPadding is the part of an axis's data range added at each end, so
// that no curve runs along the edge of the plot (a constant series at the
// top, the lowest point on the time axis).
const axisPadding = 0.04

// pad widens the axis's range by axisPadding of it at each end (of its
// logarithm on a log axis); a range that starts at 0 or above is not
// widened below 0.
func pad(a *plot.Axis, log bool) {
	lo, hi := a.Min, a.Max
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return
	}
	if log && lo > 0 {
		f := math.Pow(hi/lo, axisPadding)
		a.Min, a.Max = lo/f, hi*f
		return
	}
	d := axisPadding * (hi - lo)
	a.Min, a.Max = lo-d, hi+d
	if lo >= 0 && a.Min < 0 {
		a.Min = 0
	}
}

// seriesPlotters returns the line, markers and (if s has errors) error
// bars of a series drawn in style st, its markers moved dx[j] points
// across from their points (so coinciding markers of several series stay
// visible).
func seriesPlotters(s Series, st Style, dx []vg.Length) (*plotter.Line, *dodgedScatter, *plotter.YErrorBars) {
	xys := make(plotter.XYs, len(s.X))
	for j := range xys {
		xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
	}
	line := &plotter.Line{XYs: xys, LineStyle: draw.LineStyle{Color: st.Color, Width: 1.2, Dashes: st.Dashes}}
	points := &dodgedScatter{xys: xys, dx: dx, style: draw.GlyphStyle{Color: st.Color, Radius: markerRadius, Shape: st.Shape}}
	if s.YErr == nil {
		return line, points, nil
	}
	errs := make(plotter.YErrors, len(s.YErr))
	for j, e := range s.YErr {
		errs[j].Low, errs[j].High = e, e
	}
	bars := &plotter.YErrorBars{XYs: xys, YErrors: errs, LineStyle: draw.LineStyle{Color: st.Color, Width: 0.8}, CapWidth: 5}
	return line, points, bars
}

// markerRadius is the radius of a series' markers; coinciding markers are
// set markerSpacing apart.
const (
	markerRadius  = 2.5 * vg.Length(1)
	markerSpacing = 2*markerRadius + 1
)

// dodgedScatter draws a marker at each point, moved dx[j] across.
type dodgedScatter struct {
	xys   plotter.XYs
	dx    []vg.Length
	style draw.GlyphStyle
}

// Plot implements plot.Plotter.
func (d *dodgedScatter) Plot(c draw.Canvas, p *plot.Plot) {
	x, y := p.Transforms(&c)
	for j, pt := range d.xys {
		at := vg.Point{X: x(pt.X) + d.dx[j], Y: y(pt.Y)}
		if c.Contains(at) {
			c.DrawGlyph(d.style, at)
		}
	}
}

// GlyphBoxes implements plot.GlyphBoxer, so that the plot leaves room
// for markers at the edges of the data.
func (d *dodgedScatter) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	r := d.style.Radius
	boxes := make([]plot.GlyphBox, len(d.xys))
	for j, pt := range d.xys {
		boxes[j] = plot.GlyphBox{
			X: p.X.Norm(pt.X), Y: p.Y.Norm(pt.Y),
			Rectangle: vg.Rectangle{Min: vg.Point{X: d.dx[j] - r, Y: -r}, Max: vg.Point{X: d.dx[j] + r, Y: r}},
		}
	}
	return boxes
}

// DataRange implements plot.DataRanger.
func (d *dodgedScatter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return plotter.XYRange(d.xys)
}

// Thumbnail implements plot.Thumbnailer.
func (d *dodgedScatter) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(d.style, c.Center())
}

// topRoom is the blank space kept above the highest value of a line plot
// (a marker's centre or an error bar's cap), under the title or the top
// edge of the figure: a marker, even a larger hollow one of a paper's
// values, stays clear of it.
const topRoom = 2*markerRadius + 1.5

// headroom is an invisible plotter whose glyph box asks the plot for
// topRoom above the highest value y, as markers' glyph boxes keep them
// inside the side edges.
type headroom struct{ y float64 }

// Plot implements plot.Plotter; headroom draws nothing.
func (headroom) Plot(draw.Canvas, *plot.Plot) {}

// GlyphBoxes implements plot.GlyphBoxer.
func (h headroom) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	return []plot.GlyphBox{{X: 0.5, Y: p.Y.Norm(h.y), Rectangle: vg.Rectangle{Max: vg.Point{Y: topRoom}}}}
}

// topValue is the highest value the series draw: a point, or the top of
// its error bar.
func topValue(series []Series) float64 {
	top := math.Inf(-1)
	for _, s := range series {
		for j, y := range s.Y {
			if s.YErr != nil {
				y += s.YErr[j]
			}
			top = max(top, y)
		}
	}
	return top
}

// dodge returns, for each series (sorted by X), how far across to move
// each of its markers: markers of several series that would be drawn on
// top of each other, hiding most of the one below (equal X, and Y closer
// than half a marker's radius on a figure height high, taking the data
// area as 60 % of it), are set side by side, centred on their point, in
// series order. Markers that only overlap in part stay in place: their
// shapes tell them apart.
func dodge(series []Series, height vg.Length) [][]vg.Length {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, y := range s.Y {
			lo, hi = min(lo, y), max(hi, y)
		}
	}
	tol := (hi - lo) * float64(markerRadius/2/(0.6*height))
	if !(tol > 0) {
		tol = 1e-9 * max(1, math.Abs(hi))
	}
	type member struct{ series, point int }
	type group struct {
		y       float64
		members []member
	}
	byX := map[float64][]*group{}
	var xs []float64
	out := make([][]vg.Length, len(series))
	for i, s := range series {
		out[i] = make([]vg.Length, len(s.X))
		for j, x := range s.X {
			gs, seen := byX[x]
			if !seen {
				xs = append(xs, x)
			}
			k := slices.IndexFunc(gs, func(g *group) bool { return math.Abs(g.y-s.Y[j]) <= tol })
			if k < 0 {
				gs = append(gs, &group{y: s.Y[j]})
				k = len(gs) - 1
			}
			gs[k].members = append(gs[k].members, member{i, j})
			byX[x] = gs
		}
	}
	for _, x := range xs {
		for _, g := range byX[x] {
			n := len(g.members)
			for m, mb := range g.members {
				out[mb.series][mb.point] = (vg.Length(m) - vg.Length(n-1)/2) * markerSpacing
			}
		}
	}
	return out
}

// sameAs returns, for each series, the index of an earlier series it
// coincides with at every point (the same X values, and Y and YErr equal
// to 1e-9 relative), or −1.
func sameAs(series []Series) []int {
	eq := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }
	same := func(a, b Series) bool {
		if len(a.X) != len(b.X) || (a.YErr == nil) != (b.YErr == nil) {
			return false
		}
		for j := range a.X {
			if a.X[j] != b.X[j] || !eq(a.Y[j], b.Y[j]) || (a.YErr != nil && !eq(a.YErr[j], b.YErr[j])) {
				return false
			}
		}
		return true
	}
	out := make([]int, len(series))
	for i := range series {
		out[i] = slices.IndexFunc(series[:i], func(o Series) bool { return same(o, series[i]) })
	}
	return out
}

// paperGlyph is the marker of values drawn beside a series (a paper's
// own): an open diamond around a dot, a shape no series has (styles.go),
// so that they never look like a series of their own, in the colour of the
// series they belong to.
type paperGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (paperGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Stroke(p)
	var dot vg.Path
	dot.Move(vg.Point{X: pt.X + r/4, Y: pt.Y})
	dot.Arc(pt, r/4, 0, 2*math.Pi)
	dot.Close()
	c.SetColor(sty.Color)
	c.Fill(dot)
}

// besidePlotter returns the markers of a series drawn beside a series of
// style st: its colour, paperGlyph's shape, larger, no line.
func besidePlotter(s Series, st Style) *plotter.Scatter {
	xys := make(plotter.XYs, len(s.X))
	for j := range xys {
		xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
	}
	return &plotter.Scatter{XYs: xys, GlyphStyle: draw.GlyphStyle{Color: st.Color, Radius: 1.6 * markerRadius, Shape: paperGlyph{}}}
}

// validate reports a series that cannot be drawn.
func (s Series) validate(logX, logY bool) error {
	switch {
	case len(s.X) == 0:
		return fmt.Errorf("series %q: no points", s.Name)
	case len(s.Y) != len(s.X):
		return fmt.Errorf("series %q: %d X values but %d Y values", s.Name, len(s.X), len(s.Y))
	case s.YErr != nil && len(s.YErr) != len(s.X):
		return fmt.Errorf("series %q: %d X values but %d YErr values", s.Name, len(s.X), len(s.YErr))
	}
	for j := range s.X {
		switch {
		case !finite(s.X[j]) || !finite(s.Y[j]):
			return fmt.Errorf("series %q: point %d: (%g, %g) is not finite", s.Name, j, s.X[j], s.Y[j])
		case logX && s.X[j] <= 0:
			return fmt.Errorf("series %q: point %d: x = %g on a log scale; must be positive", s.Name, j, s.X[j])
		case logY && s.Y[j] <= 0:
			return fmt.Errorf("series %q: point %d: y = %g on a log scale; must be positive", s.Name, j, s.Y[j])
		case s.YErr != nil && !(s.YErr[j] >= 0 && finite(s.YErr[j])):
			return fmt.Errorf("series %q: point %d: YErr %g must be finite and non-negative", s.Name, j, s.YErr[j])
		}
	}
	return nil
}

// sorted returns a copy of s with its points in increasing X.
func (s Series) sorted() Series {
	idx := make([]int, len(s.X))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(s.X[a], s.X[b]) })
	out := Series{Name: s.Name, X: make([]float64, len(idx)), Y: make([]float64, len(idx)), Beside: s.Beside}
	if s.YErr != nil {
		out.YErr = make([]float64, len(idx))
	}
	for i, j := range idx {
		out.X[i], out.Y[i] = s.X[j], s.Y[j]
		if s.YErr != nil {
			out.YErr[i] = s.YErr[j]
		}
	}
	return out
}

// Point is one observation of a metric: value Y at parameter value X (one
// seed's run, say).
type Point struct{ X, Y float64 }

// Summarize groups points by equal X and returns the series named name of
// the mean of Y at each distinct X, in increasing X, with YErr the sample
// standard deviation (n−1 in the denominator; 0 where there is a single
// point). Error bars drawn from it are mean ± one standard deviation.
func Summarize(name string, pts []Point) Series {
	sorted := slices.Clone(pts)
	slices.SortStableFunc(sorted, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
	s := Series{Name: name}
	for lo := 0; lo < len(sorted); {
		hi := lo
		var ys []float64
		for ; hi < len(sorted) && sorted[hi].X == sorted[lo].X; hi++ {
			ys = append(ys, sorted[hi].Y)
		}
		if hi == lo { // NaN X: a group of its own
			ys, hi = []float64{sorted[lo].Y}, lo+1
		}
		mean, std := stat.MeanStdDev(ys, nil)
		if len(ys) == 1 {
			std = 0
		}
		s.X = append(s.X, sorted[lo].X)
		s.Y = append(s.Y, mean)
		s.YErr = append(s.YErr, std)
		lo = hi
	}
	return s
}

// Ratio divides every series by the series named baseline, point by point
// at equal X, so a comparison plot shows each policy relative to the
// baseline (which becomes the constant 1). Errors combine as for
// independent quantities: for r = a/b, σ_r = sqrt(σ_a² + r²σ_b²)/|b|.
// When both policies ran on the same seeds the two are not independent:
// dividing per seed and then calling Summarize accounts for the pairing;
// prefer that when the per-seed values are at hand.
//
// It is an error if no series or more than one is named baseline, if a
// series has an X the baseline lacks, or if the baseline is 0 at some X.
func Ratio(series []Series, baseline string) ([]Series, error) {
	bi := slices.IndexFunc(series, func(s Series) bool { return s.Name == baseline })
	if bi < 0 {
		return nil, fmt.Errorf("ratio: no series named %q", baseline)
	}
	if slices.IndexFunc(series[bi+1:], func(s Series) bool { return s.Name == baseline }) >= 0 {
		return nil, fmt.Errorf("ratio: several series named %q", baseline)
	}
	base := series[bi]
	if err := base.validate(false, false); err != nil {
		return nil, fmt.Errorf("ratio: baseline: %w", err)
	}
	at := make(map[float64]int, len(base.X))
	for j, x := range base.X {
		at[x] = j
	}
	out := make([]Series, len(series))
	for i, s := range series {
		if err := s.validate(false, false); err != nil {
			return nil, fmt.Errorf("ratio: %w", err)
		}
		r := Series{Name: s.Name, X: slices.Clone(s.X), Y: make([]float64, len(s.X))}
		if s.YErr != nil || base.YErr != nil {
			r.YErr = make([]float64, len(s.X))
		}
		for j, x := range s.X {
			k, ok := at[x]
			if !ok {
				return nil, fmt.Errorf("ratio: series %q: baseline %q has no point at x = %g", s.Name, baseline, x)
			}
			b := base.Y[k]
			if b == 0 {
				return nil, fmt.Errorf("ratio: baseline %q is 0 at x = %g", baseline, x)
			}
			r.Y[j] = s.Y[j] / b
			if r.YErr != nil && i != bi {
				r.YErr[j] = math.Hypot(errAt(s.YErr, j), r.Y[j]*errAt(base.YErr, k)) / math.Abs(b)
			}
		}
		out[i] = r
	}
	return out, nil
}

// errAt is errs[j], or 0 for a series without errors.
func errAt(errs []float64, j int) float64 {
	if errs == nil {
		return 0
	}
	return errs[j]
}

package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/netsched/netsched/sim"
)

// GanttOptions tune a Gantt chart. The zero value gives a chart coloured by
// kind, labelled with task names, 7 inches wide, 18 points per lane.
type GanttOptions struct {
	// Title is drawn above the chart; empty for none.
	Title string
	// ColorBy chooses the bar colours: "kind" (compute, send, recv, link;
	// the default), "round" (Interval.Round) or "label" (Interval.Label).
	// Rounds and labels take the colours of a 10-colour palette in order
	// of first appearance, so the 11th one reuses the first colour; the
	// legend lists the first 11 and counts the rest.
	ColorBy string
	// LabelBy chooses the text drawn inside bars wide and tall enough for
	// it: "label" (Interval.Label; the default), "round" ("r" and
	// Interval.Round) or "none".
	LabelBy string
	// XLabel names the time axis; default "time (s)".
	XLabel string
	// Width is the figure width; default 7 inches.
	Width vg.Length
	// LaneHeight is the height of a lane; default 18 points. The figure
	// height is the sum of the lane heights plus the title, time axis and
	// legend, so a chart of 64 lanes is as readable as one of 8. Lane names
	// and bar labels shrink with lanes lower than 15 points; bar labels
	// smaller than 5 points (lanes lower than about 12) are left out.
	LaneHeight vg.Length
	// FontSize is the size of the axis labels, as in LineOptions (0:
	// screen sizes); lane names are a point smaller, or smaller still in
	// low lanes.
	FontSize vg.Length
	// DPI is the resolution of PNG output; default DefaultDPI.
	DPI int
	// HideIdle leaves out lanes with no interval, such as the relays of a
	// tree network, which forward but never send or receive themselves
	// (in the time window, if one is set).
	HideIdle bool
	// MaxHeight caps the figure's height; default 9 inches, negative for
	// no cap. A chart that would be taller gets lower lanes; when they
	// would be lower than 10 points, consecutive lanes are named by group
	// instead of one by one: a cluster's processors and uplinks (A0, A1,
	// A uplink-out), the links, or blocks of numbered lanes (P0–P15), as
	// many groups as have room for their names. Lanes are kept at least
	// half a point high, so a chart of thousands of lanes may exceed the
	// cap; select some with Lanes, or a time window.
	MaxHeight vg.Length
	// Lanes, when set, selects the lanes to draw, in trace order: each
	// entry is a lane name, a glob pattern (path.Match: "P1?", "A*",
	// "*→sw0") or a group ("links", or a name's leading letters such as
	// "A" or "P"). An entry that selects no lane is an error.
	Lanes []string
	// From and To set the time window drawn; intervals are cut at its
	// ends. To 0 means the makespan; both 0, the whole trace.
	From, To float64
}

// Gantt chart defaults.
const (
	defaultGanttWidth = 7 * vg.Inch
	defaultLaneHeight = 18 * vg.Length(1)
	defaultMaxHeight  = 9 * vg.Inch
	maxLegendEntries  = 12
	minLabelSize      = 5 * vg.Length(1) // smaller bar labels are not drawn
)

// Bar borders: bars narrower or lower than minOutlined have none.
const (
	outlineWidth = 0.3 * vg.Length(1)
	outlineShade = 0.4
	minOutlined  = 1.5 * vg.Length(1)
)

// kindColor is the colour of each kind when colouring by kind.
var kindColor = map[sim.IntervalKind]color.RGBA{
	sim.KindCompute: rgb(0x56B4E9),
	sim.KindSend:    rgb(0xE69F00),
	sim.KindRecv:    rgb(0x009E73),
	sim.KindLink:    rgb(0xCC79A7),
}

// SaveGantt draws the Gantt chart of tr and writes it to path; the
// extension (.png, .svg, .pdf) chooses the format. The write is atomic.
func SaveGantt(tr *sim.Trace, opt GanttOptions, path string) error {
	ch, err := Gantt(tr, opt)
	if err != nil {
		return err
	}
	return ch.Save(path, opt.DPI)
}

// Gantt builds the Gantt chart of a trace: one lane per trace lane, in
// trace order from top to bottom, over a time axis from 0 (or the earliest
// start, if negative) to the makespan.
//
// A processor lane shows compute bars in a middle row and, if the trace has
// any, send and receive bars in thin rows above and below it, so
// communication that overlaps computation shows. A link lane shows its
// reservations. Intervals of one row that overlap in time (reservations
// sharing a link, the sends of a tree node) are split into sub-rows, as
// many as the row's peak concurrency. A lane is LaneHeight high unless its
// sub-rows need more: a link lane holds three concurrent reservations, a
// processor lane one sub-row per row, and each further sub-row makes the
// lane taller, so sub-rows keep a readable height. Zero-length intervals
// are not drawn.
//
// A nil trace, a trace without lanes, an interval on a lane that does not
// exist, of an unknown kind, or with a non-finite or reversed time span is
// an error. A trace with lanes but no intervals gives an empty chart.
func Gantt(tr *sim.Trace, opt GanttOptions) (*Chart, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := validateTrace(tr); err != nil {
		return nil, err
	}
	lo, hi := timeRange(tr)
	if opt.From != 0 || opt.To != 0 {
		if lo, hi, err = opt.window(lo, hi); err != nil {
			return nil, err
		}
		tr = clipTrace(tr, lo, hi)
	}
	if len(opt.Lanes) > 0 {
		if tr, err = selectLanes(tr, opt.Lanes); err != nil {
			return nil, err
		}
	}
	if opt.HideIdle {
		tr = busyLanes(tr)
	}
	lay := layoutGantt(tr, opt)
	ch := buildGantt(tr, lay, opt, lo, hi, opt.LaneHeight, nil)
	if opt.MaxHeight < 0 || ch.Height <= opt.MaxHeight {
		return ch, nil
	}
	// Too tall: lower the lanes to fit the cap; when they get too low to
	// carry their names, name groups of them instead.
	overhead := ch.Height - vg.Length(lay.height)*opt.LaneHeight
	lh := max(minLaneHeight, (opt.MaxHeight-overhead)/vg.Length(lay.height))
	if lh >= minNamedLane {
		return buildGantt(tr, lay, opt, lo, hi, lh, nil), nil
	}
	_, _, tick, _ := fontSizes(opt.FontSize)
	maxGroups := max(1, int(float64(vg.Length(lay.height)*lh/(groupSpacing*tick))))
	return buildGantt(tr, lay, opt, lo, hi, lh, groupLanes(tr, maxGroups)), nil
}

// Lane heights of charts that would be taller than MaxHeight.
const (
	minNamedLane  = 10 * vg.Length(1)  // lower lanes are named by group
	minLaneHeight = 0.5 * vg.Length(1) // the cap gives way below this
	groupSpacing  = 1.8                // group names' spacing, in font sizes
)

// buildGantt draws the laid-out trace over the time span [lo, hi] with
// lanes lh high, each lane named, or with groups, each group.
func buildGantt(tr *sim.Trace, lay ganttLayout, opt GanttOptions, lo, hi float64, lh vg.Length, groups []laneGroup) *Chart {
	p := newPlot()
	legendSize := setFontSizes(p, opt.FontSize)
	p.Title.Text = opt.Title
	p.Title.Padding = 6
	p.X.Label.Text = opt.XLabel
	p.X.Min, p.X.Max = lo, hi
	p.X.Tick.Marker = lineTicks(max(3, int(opt.Width/vg.Inch)))
	p.Y.Min, p.Y.Max = 0, lay.height
	p.Y.Padding, p.X.Padding = 0, 0
	// Invisible tick marks keep lane names off the axis line.
	p.Y.Tick.Length = 4
	p.Y.Tick.LineStyle.Color = color.Transparent
	var ticks plot.ConstantTicks
	bands := laneBands(lay.lanes)
	if groups == nil {
		p.Y.Tick.Label = textStyle(p.Y.Tick.Label, min(p.Y.Tick.Label.Font.Size, 0.65*lh))
		for i, name := range tr.Lanes {
			ticks = append(ticks, plot.Tick{Value: (lay.lanes[i][0] + lay.lanes[i][1]) / 2, Label: name})
		}
	} else {
		// A group's name is left out where it would overlap the one
		// above (a small group next to a large one).
		bands = nil
		minGap := float64(p.Y.Tick.Label.Height(" ") / lh)
		for _, g := range groups {
			span := [2]float64{lay.lanes[g.last][0], lay.lanes[g.first][1]}
			bands = append(bands, span)
			t := plot.Tick{Value: (span[0] + span[1]) / 2, Label: g.label}
			if k := len(ticks) - 1; k >= 0 && ticks[k].Value-t.Value < minGap {
				continue
			}
			ticks = append(ticks, t)
		}
	}
	p.Y.Tick.Marker = ticks

	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	grid.Vertical.Color = lightGrey
	grid.Vertical.Width = 0.4
	labels := textStyle(p.Y.Tick.Label, barLabelSize(lh))
	p.Add(bands, grid, &ganttBars{bars: lay.bars, label: labels})

	ch := &Chart{Plot: p, Width: opt.Width, legend: newLegend(p.Legend.TextStyle, legendSize)}
	for i, k := range lay.keys {
		if i == maxLegendEntries-1 && len(lay.keys) > maxLegendEntries {
			ch.legend.add(fmt.Sprintf("… %d more", len(lay.keys)-i))
			break
		}
		ch.legend.add(k.name, swatch(k.fill))
	}
	ch.fitHeight(vg.Length(lay.height) * lh)
	return ch
}

func (o GanttOptions) withDefaults() (GanttOptions, error) {
	switch o.ColorBy {
	case "":
		o.ColorBy = "kind"
	case "kind", "round", "label":
	default:
		return o, fmt.Errorf("gantt: ColorBy %q: want kind, round or label", o.ColorBy)
	}
	switch o.LabelBy {
	case "":
		o.LabelBy = "label"
	case "label", "round", "none":
	default:
		return o, fmt.Errorf("gantt: LabelBy %q: want label, round or none", o.LabelBy)
	}
	if o.XLabel == "" {
		o.XLabel = LookupQuantity("time").Label()
	}
	if o.Width == 0 {
		o.Width = defaultGanttWidth
	}
	if o.LaneHeight == 0 {
		o.LaneHeight = defaultLaneHeight
	}
	if o.MaxHeight == 0 {
		o.MaxHeight = defaultMaxHeight
	}
	if !(o.Width > 0 && o.LaneHeight > 0) {
		return o, fmt.Errorf("gantt: Width %v and LaneHeight %v must be positive", o.Width, o.LaneHeight)
	}
	return o, nil
}

func validateTrace(tr *sim.Trace) error {
	if tr == nil {
		return fmt.Errorf("gantt: nil trace")
	}
	if len(tr.Lanes) == 0 {
		return fmt.Errorf("gantt: trace has no lanes")
	}
	for i, iv := range tr.Intervals {
		if iv.Lane < 0 || iv.Lane >= len(tr.Lanes) {
			return fmt.Errorf("gantt: interval %d: lane %d out of range [0, %d)", i, iv.Lane, len(tr.Lanes))
		}
		if _, ok := kindColor[iv.Kind]; !ok {
			return fmt.Errorf("gantt: interval %d: unknown kind %q", i, iv.Kind)
		}
		if !finite(iv.Start) || !finite(iv.End) || iv.End < iv.Start {
			return fmt.Errorf("gantt: interval %d (lane %q): bad time span [%g, %g]", i, tr.Lanes[iv.Lane], iv.Start, iv.End)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// timeRange is the span of the time axis.
func timeRange(tr *sim.Trace) (lo, hi float64) {
	hi = tr.Makespan()
	for _, iv := range tr.Intervals {
		lo = min(lo, iv.Start)
	}
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// barLabelSize is the font size of bar labels for lanes of height lh: at
// most 8 points, and small enough to fit the compute row of a lane that
// also has send and receive rows.
func barLabelSize(lh vg.Length) vg.Length {
	return min(8, 0.8*laneFill*lh*vg.Length(rowUnit[sim.KindCompute]))
}

// laneBands shades every other lane (given as [y0, y1] spans) so the eye
// can follow a lane across a wide chart.
type laneBands [][2]float64

// Plot implements plot.Plotter.
func (lanes laneBands) Plot(c draw.Canvas, p *plot.Plot) {
	_, y := p.Transforms(&c)
	c.SetColor(color.Gray{Y: 0xf2})
	for i := 1; i < len(lanes); i += 2 {
		r := vg.Rectangle{
			Min: vg.Point{X: c.Min.X, Y: y(lanes[i][0])},
			Max: vg.Point{X: c.Max.X, Y: y(lanes[i][1])},
		}
		c.Fill(r.Path())
	}
}

// minBarWidth is the narrowest a bar is drawn: an interval shorter than
// that on the chart's time scale (a short send or receive beside long
// computations) is widened to it about its middle, so that it shows.
const minBarWidth = 1.5 * vg.Length(1)

// ganttBars draws the bars and their labels.
type ganttBars struct {
	bars  []bar
	label text.Style
}

// Plot implements plot.Plotter.
func (g *ganttBars) Plot(c draw.Canvas, p *plot.Plot) {
	x, y := p.Transforms(&c)
	sty := g.label
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	for _, b := range g.bars {
		r := vg.Rectangle{Min: vg.Point{X: x(b.x0), Y: y(b.y0)}, Max: vg.Point{X: x(b.x1), Y: y(b.y1)}}
		if w := r.Max.X - r.Min.X; w < minBarWidth { // a short send would be a sliver: widen it about its middle
			r.Min.X -= (minBarWidth - w) / 2
			r.Max.X = r.Min.X + minBarWidth
		}
		c.SetColor(b.fill)
		c.Fill(r.Path())
		sz := r.Size()
		if sz.X >= minOutlined && sz.Y >= minOutlined {
			c.SetLineStyle(draw.LineStyle{Color: darker(b.fill, outlineShade), Width: outlineWidth})
			c.Stroke(r.Path())
		}
		if b.label != "" && sty.Font.Size >= minLabelSize && sty.Height(b.label) <= sz.Y && sty.Width(b.label)+3 <= sz.X {
			sty.Color = textOn(b.fill)
			mid := vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
			c.FillText(sty, mid, b.label)
		}
	}
}

// busyLanes returns the trace without its lanes that have no interval
// (all of them kept if none has one).
func busyLanes(tr *sim.Trace) *sim.Trace {
	busy := make([]bool, len(tr.Lanes))
	for _, iv := range tr.Intervals {
		busy[iv.Lane] = true
	}
	out := &sim.Trace{Intervals: make([]sim.Interval, len(tr.Intervals))}
	index := make([]int, len(tr.Lanes))
	for i, name := range tr.Lanes {
		if busy[i] {
			index[i] = len(out.Lanes)
			out.Lanes = append(out.Lanes, name)
		}
	}
	if len(out.Lanes) == 0 {
		return tr
	}
	for k, iv := range tr.Intervals {
		iv.Lane = index[iv.Lane]
		out.Intervals[k] = iv
	}
	return out
}

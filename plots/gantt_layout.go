package plots

import (
	"cmp"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/netsched/netsched/sim"
)

// Lane geometry, in units of LaneHeight.
const (
	// laneFill is the part of a standard lane that its bars use; the rest
	// (1 − laneFill, the same for every lane) separates neighbours.
	laneFill = 0.86
)

// rowUnit is the height of one sub-row of each kind, as a fraction of a
// standard lane's bars. A processor lane with send, compute and receive
// rows of one sub-row each fills a standard lane exactly; a link lane fits
// three concurrent reservations before it grows.
var rowUnit = map[sim.IntervalKind]float64{
	sim.KindSend: 0.2, sim.KindCompute: 0.6, sim.KindRecv: 0.2, sim.KindLink: 1.0 / 3,
}

// kindOrder is the top-to-bottom order of rows in a lane, and the order of
// the kind legend.
var kindOrder = []sim.IntervalKind{sim.KindSend, sim.KindCompute, sim.KindRecv, sim.KindLink}

// bar is one interval placed on the chart, in data coordinates (time
// across, lane units up).
type bar struct {
	x0, x1, y0, y1 float64
	fill           color.RGBA
	label          string
}

// colorKey is one legend entry: a category and its colour.
type colorKey struct {
	name string
	fill color.RGBA
}

// ganttLayout is a trace placed on the chart.
type ganttLayout struct {
	bars   []bar
	lanes  [][2]float64 // each lane's [y0, y1], lane 0 on top
	height float64      // total height, in lanes
	keys   []colorKey   // the colours used, for the legend
}

// layoutGantt places every interval of tr in its lane, row and sub-row.
//
// A lane with link intervals only is a link lane with one row; every other
// lane (an idle one too) has the processor rows drawn anywhere in the trace
// (no compute row in a broadcast, whose send and receive rows then fill
// the lane), so processor lanes line up. Each row has as many sub-rows as its peak
// concurrency (at least one), each rowUnit high; a lane is one LaneHeight
// high, or more when its sub-rows need more, and its rows share its height
// in proportion to their needs.
func layoutGantt(tr *sim.Trace, opt GanttOptions) ganttLayout {
	n := len(tr.Lanes)
	byLane := make([][]sim.Interval, n)
	laneKinds := make([]map[sim.IntervalKind]bool, n)
	procKinds := map[sim.IntervalKind]bool{}
	for i := range laneKinds {
		laneKinds[i] = map[sim.IntervalKind]bool{}
	}
	for _, iv := range tr.Intervals {
		byLane[iv.Lane] = append(byLane[iv.Lane], iv)
		laneKinds[iv.Lane][iv.Kind] = true
		if iv.Kind != sim.KindLink && iv.End > iv.Start {
			procKinds[iv.Kind] = true
		}
	}
	if len(procKinds) == 0 { // nothing drawn on processors: an idle lane still has a row
		procKinds[sim.KindCompute] = true
	}
	col := newColorer(tr, opt.ColorBy)
	lay := ganttLayout{lanes: make([][2]float64, n)}
	rows := make([][]laneRow, n)
	for lane := range n {
		need := 0.0
		for _, k := range laneRowKinds(laneKinds[lane], procKinds) {
			r := newLaneRow(byLane[lane], k, tr.Makespan())
			rows[lane] = append(rows[lane], r)
			need += float64(r.tracks) * rowUnit[k]
		}
		lay.lanes[lane][1] = max(1, need) // the lane's height, for now
		lay.height += lay.lanes[lane][1]
	}
	top := lay.height
	for lane := range n {
		h := lay.lanes[lane][1]
		lay.lanes[lane] = [2]float64{top - h, top}
		lay.bars = append(lay.bars, placeRows(rows[lane], top, h, col, opt.LabelBy)...)
		top -= h
	}
	lay.keys = col.keys()
	return lay
}

// laneRowKinds returns the kinds of the rows of a lane whose intervals have
// the given kinds, in kindOrder.
func laneRowKinds(kinds, procKinds map[sim.IntervalKind]bool) []sim.IntervalKind {
	proc := !kinds[sim.KindLink] || len(kinds) > 1
	var out []sim.IntervalKind
	for _, k := range kindOrder {
		if (k == sim.KindLink && kinds[k]) || (k != sim.KindLink && proc && procKinds[k]) {
			out = append(out, k)
		}
	}
	return out
}

// laneRow is one row of a lane: the intervals of one kind, each with its
// sub-row.
type laneRow struct {
	kind   sim.IntervalKind
	ivs    []sim.Interval
	track  []int
	tracks int
}

// newLaneRow builds the row of one kind from a lane's intervals; horizon
// is the makespan.
func newLaneRow(lane []sim.Interval, kind sim.IntervalKind, horizon float64) laneRow {
	ivs := rowIntervals(lane, kind)
	track, tracks := assignTracks(ivs, horizon)
	return laneRow{kind: kind, ivs: ivs, track: track, tracks: tracks}
}

// placeRows returns the bars of a lane's rows, the lane spanning
// [top − h, top] minus the gap between lanes.
func placeRows(rows []laneRow, top, h float64, col *colorer, labelBy string) []bar {
	need := 0.0
	for _, r := range rows {
		need += float64(r.tracks) * rowUnit[r.kind]
	}
	gap := 1 - laneFill
	scale := (h - gap) / need
	y := top - gap/2
	var bars []bar
	for _, r := range rows {
		sub := rowUnit[r.kind] * scale
		for j, iv := range r.ivs {
			y1 := y - float64(r.track[j])*sub
			bars = append(bars, bar{
				x0: iv.Start, x1: iv.End, y0: y1 - sub, y1: y1,
				fill:  col.color(iv),
				label: barLabel(iv, labelBy),
			})
		}
		y -= float64(r.tracks) * sub
	}
	return bars
}

// rowIntervals returns a lane's intervals of one kind with a positive
// length, sorted by start, then end, then trace order.
func rowIntervals(lane []sim.Interval, kind sim.IntervalKind) []sim.Interval {
	var out []sim.Interval
	for _, iv := range lane {
		if iv.Kind == kind && iv.End > iv.Start {
			out = append(out, iv)
		}
	}
	slices.SortStableFunc(out, func(a, b sim.Interval) int {
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.End, b.End)
	})
	return out
}

// assignTracks gives each interval (sorted by start) the lowest sub-row
// whose last interval has ended, so overlapping intervals never share a
// sub-row, and returns each interval's sub-row and the number of sub-rows
// (at least 1), which is the peak number of intervals active at once.
// Intervals that touch within a relative 1e-9 of the horizon do not
// overlap.
func assignTracks(ivs []sim.Interval, horizon float64) ([]int, int) {
	eps := 1e-9 * max(math.Abs(horizon), 1)
	var ends []float64
	track := make([]int, len(ivs))
	for i, iv := range ivs {
		t := slices.IndexFunc(ends, func(e float64) bool { return e <= iv.Start+eps })
		if t < 0 {
			t = len(ends)
			ends = append(ends, 0)
		}
		ends[t] = iv.End
		track[i] = t
	}
	return track, max(len(ends), 1)
}

func barLabel(iv sim.Interval, by string) string {
	switch by {
	case "label":
		return iv.Label
	case "round":
		return "r" + strconv.Itoa(iv.Round)
	}
	return ""
}

// colorer maps intervals to colours and remembers the categories it used,
// in the order of first appearance in the trace (kinds: in kindOrder).
type colorer struct {
	by    string
	index map[string]int
	order []string
	kinds map[sim.IntervalKind]bool
}

func newColorer(tr *sim.Trace, by string) *colorer {
	c := &colorer{by: by, index: map[string]int{}, kinds: map[sim.IntervalKind]bool{}}
	for _, iv := range tr.Intervals {
		if iv.End > iv.Start { // drawn (rowIntervals): the legend lists only what the chart shows
			c.color(iv)
		}
	}
	return c
}

func (c *colorer) color(iv sim.Interval) color.RGBA {
	var key string
	switch c.by {
	case "kind":
		c.kinds[iv.Kind] = true
		return kindColor[iv.Kind]
	case "round":
		key = "round " + strconv.Itoa(iv.Round)
	default:
		key = iv.Label
		if key == "" {
			key = "(no label)"
		}
	}
	i, ok := c.index[key]
	if !ok {
		i = len(c.order)
		c.index[key] = i
		c.order = append(c.order, key)
	}
	return categoryColor(i)
}

func (c *colorer) keys() []colorKey {
	var keys []colorKey
	if c.by == "kind" {
		for _, k := range kindOrder {
			if c.kinds[k] {
				keys = append(keys, colorKey{name: string(k), fill: kindColor[k]})
			}
		}
		return keys
	}
	for i, name := range c.order {
		keys = append(keys, colorKey{name: name, fill: categoryColor(i)})
	}
	return keys
}

package plots

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/netsched/netsched/sim"
)

// namedTrace has one compute interval on each named lane, and a link
// interval on each name with an arrow.
func namedTrace(names ...string) *sim.Trace {
	tr := &sim.Trace{}
	for i, n := range names {
		tr.AddLane(n)
		kind := sim.KindCompute
		if strings.Contains(n, "→") {
			kind = sim.KindLink
		}
		tr.Record(sim.Interval{Lane: i, Kind: kind, Start: float64(i), End: float64(i) + 2})
	}
	return tr
}

func TestGroupLanes(t *testing.T) {
	multicluster := []string{"A0", "A1", "A2", "A3", "B0", "B1", "B2", "A uplink-out", "A uplink-in", "B uplink-out", "B uplink-in"}
	tree := []string{"h0", "h1", "h2", "sw0", "sw1", "h3", "h4", "h5", "h0→sw0", "h1→sw0", "sw0→h1", "sw0→sw1", "sw1→h3"}
	var procs []string
	for i := range 116 {
		procs = append(procs, fmt.Sprintf("P%d", i))
	}
	for _, tc := range []struct {
		name      string
		lanes     []string
		maxGroups int
		want      []string
	}{
		{"clusters", multicluster, 10, []string{"A0–A3", "B0–B2", "A uplink (2)", "B uplink (2)"}},
		{"clusters, few groups", multicluster, 3, []string{"A0–A3", "B0–B2", "A uplink-out – B uplink-in"}},
		{"tree", tree, 8, []string{"h0–h2", "sw0–sw1", "h3–h5", "links (5)"}},
		{"processors in blocks", procs, 30, []string{"P0–P7", "P8–P15"}},
		{"processors, 8 groups", procs, 8, []string{"P0–P15", "P16–P31"}},
		{"numbers", []string{"0", "1", "2", "3"}, 1, []string{"0–3"}},
		{"one lane a group", []string{"fe", "ge", "smp0"}, 5, []string{"fe", "ge", "smp0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			groups := groupLanes(namedTrace(tc.lanes...), tc.maxGroups)
			var labels []string
			next := 0
			for _, g := range groups {
				labels = append(labels, g.label)
				if g.first != next || g.last < g.first {
					t.Errorf("group %q spans lanes %d–%d, want it to start at %d", g.label, g.first, g.last, next)
				}
				next = g.last + 1
			}
			if next != len(tc.lanes) {
				t.Errorf("groups cover %d of %d lanes", next, len(tc.lanes))
			}
			if len(groups) > tc.maxGroups && tc.name != "clusters, few groups" {
				t.Errorf("%d groups, want at most %d", len(groups), tc.maxGroups)
			}
			if !slices.Equal(labels[:min(len(labels), len(tc.want))], tc.want) {
				t.Errorf("labels %q, want them to start with %q", labels, tc.want)
			}
		})
	}
}

func TestSelectLanes(t *testing.T) {
	tr := namedTrace("A0", "A1", "B0", "A uplink-out", "h0→sw0", "sw0→h1")
	for _, tc := range []struct {
		sel  []string
		want []string
		err  string
	}{
		{[]string{"A*"}, []string{"A0", "A1", "A uplink-out"}, ""},
		{[]string{"B0", "A1"}, []string{"A1", "B0"}, ""},
		{[]string{"links"}, []string{"h0→sw0", "sw0→h1"}, ""},
		{[]string{"*→sw0", "A"}, []string{"A0", "A1", "A uplink-out", "h0→sw0"}, ""},
		{[]string{"A0", "C*"}, nil, `lanes "C*": no lane or group has that name (lanes: A0, A1, B0, A uplink-out, h0→sw0, sw0→h1)`},
		{[]string{"[A"}, nil, `lanes "[A": bad pattern`},
	} {
		got, err := selectLanes(tr, tc.sel)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrGanttOptions) {
				t.Errorf("selectLanes(%q): %v, want an ErrGanttOptions with %q", tc.sel, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("selectLanes(%q): %v", tc.sel, err)
			continue
		}
		if !slices.Equal(got.Lanes, tc.want) {
			t.Errorf("selectLanes(%q) = %q, want %q", tc.sel, got.Lanes, tc.want)
		}
		for _, iv := range got.Intervals {
			if want := float64(slices.Index(tr.Lanes, got.Lanes[iv.Lane])); iv.Start != want {
				t.Errorf("selectLanes(%q): interval starting at %g is on lane %q", tc.sel, iv.Start, got.Lanes[iv.Lane])
			}
		}
	}
}

func TestGanttWindow(t *testing.T) {
	tr := namedTrace("P0", "P1", "P2", "P3") // [i, i+2] on lane i; makespan 5
	for _, tc := range []struct {
		from, to float64
		lo, hi   float64
		spans    [][2]float64
		err      string
	}{
		{0, 0, 0, 5, [][2]float64{{0, 2}, {1, 3}, {2, 4}, {3, 5}}, ""},
		{1.5, 3.5, 1.5, 3.5, [][2]float64{{1.5, 2}, {1.5, 3}, {2, 3.5}, {3, 3.5}}, ""},
		{2.5, 0, 2.5, 5, [][2]float64{{2.5, 3}, {2.5, 4}, {3, 5}}, ""},
		{3, 2, 0, 0, nil, "want from before to"},
		{6, 0, 0, 0, nil, "the schedule runs from 0 to 5"},
		{-3, -1, 0, 0, nil, "the schedule runs from 0 to 5"},
		{math.NaN(), 2, 0, 0, nil, "want finite times"},
	} {
		ch, err := Gantt(tr, GanttOptions{From: tc.from, To: tc.to})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrGanttOptions) {
				t.Errorf("window [%g, %g]: %v, want an ErrGanttOptions with %q", tc.from, tc.to, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("window [%g, %g]: %v", tc.from, tc.to, err)
			continue
		}
		if ch.Plot.X.Min != tc.lo || ch.Plot.X.Max != tc.hi {
			t.Errorf("window [%g, %g]: axis [%g, %g], want [%g, %g]", tc.from, tc.to, ch.Plot.X.Min, ch.Plot.X.Max, tc.lo, tc.hi)
		}
		var spans [][2]float64
		for _, iv := range clipTrace(tr, ch.Plot.X.Min, ch.Plot.X.Max).Intervals {
			spans = append(spans, [2]float64{iv.Start, iv.End})
		}
		if !slices.Equal(spans, tc.spans) {
			t.Errorf("window [%g, %g]: bars %v, want %v", tc.from, tc.to, spans, tc.spans)
		}
	}
}

// TestGanttHeightCap: a chart taller than MaxHeight gets lower lanes, named
// one by one while they are at least minNamedLane high, by group below
// that, and fits the cap; the chart of FFT(32) unclustered (223 lanes) was
// 8533 pixels high.
func TestGanttHeightCap(t *testing.T) {
	for _, tc := range []struct {
		procs     int
		maxHeight vg.Length
		grouped   bool
	}{
		{8, 0, false},  // fits: lanes keep their height
		{40, 0, false}, // 40 lanes of 18 points: lowered, still named
		{223, 0, true}, // grouped
		{223, 4 * vg.Inch, true},
		{1000, 0, true},
	} {
		tr := synthTrace(tc.procs, 0, 1, 3)
		ch, err := Gantt(tr, GanttOptions{MaxHeight: tc.maxHeight})
		if err != nil {
			t.Fatal(err)
		}
		capH := tc.maxHeight
		if capH == 0 {
			capH = defaultMaxHeight
		}
		if ch.Height > capH+1e-6 {
			t.Errorf("%d lanes: %v high, over the cap %v", tc.procs, ch.Height, capH)
		}
		ticks := ch.Plot.Y.Tick.Marker.(plot.ConstantTicks)
		if grouped := len(ticks) < tc.procs; grouped != tc.grouped {
			t.Errorf("%d lanes, cap %v: %d names on the lane axis; grouped %v, want %v", tc.procs, capH, len(ticks), grouped, tc.grouped)
		}
		// Names never overlap: each is at least its font's height apart.
		h := ch.Plot.Y.Tick.Label.Height("P0")
		dataH := dataHeight(ch)
		for i := 1; i < len(ticks); i++ {
			gap := vg.Length(math.Abs(ticks[i].Value-ticks[i-1].Value)/ch.Plot.Y.Max) * dataH
			if gap < h {
				t.Errorf("%d lanes: names %q and %q are %v apart, less than their height %v", tc.procs, ticks[i-1].Label, ticks[i].Label, gap, h)
				break
			}
		}
	}
}

// dataHeight is the height of a chart's data area.
func dataHeight(ch *Chart) vg.Length {
	c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: ch.Width, Y: ch.Height}}}
	pc, _ := ch.split(c)
	return ch.Plot.DataCanvas(pc).Size().Y
}

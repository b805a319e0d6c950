package plots

import (
	"bytes"
	"cmp"
	"errors"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/netsched/netsched/sim"
)

func TestSaveGanttFormats(t *testing.T) {
	tr := synthTrace(64, 6, 2, 1)
	dir := t.TempDir()
	opt := GanttOptions{Title: "64 lanes", DPI: 100}
	ch, err := Gantt(tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	magic := map[string]string{".png": "\x89PNG\r\n", ".svg": "<?xml", ".pdf": "%PDF-", ".PNG": "\x89PNG\r\n"}
	for ext, want := range magic {
		path := filepath.Join(dir, "gantt"+ext)
		if err := SaveGantt(tr, opt, path); err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte(want)) {
			t.Errorf("%s: file starts with %q, want %q", ext, b[:min(len(b), 8)], want)
		}
	}
	f, err := os.Open(filepath.Join(dir, "gantt.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode PNG: %v", err)
	}
	wantW := int(float64(ch.Width/vg.Inch)*100 + 0.5)
	wantH := int(float64(ch.Height/vg.Inch)*100 + 0.5)
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("PNG is %d×%d pixels, want %d×%d", b.Dx(), b.Dy(), wantW, wantH)
	}
	if wantW != 700 {
		t.Errorf("default width: %d pixels at 100 dpi, want 700 (7 inches)", wantW)
	}
}

// Without a height cap the figure grows by exactly LaneHeight per lane,
// the data area is lanes × LaneHeight, and lane names are never taller
// than a lane.
func TestGanttHeightGrowsWithLanes(t *testing.T) {
	for _, lh := range []vg.Length{0, 8, 30} {
		opt := GanttOptions{LaneHeight: lh, MaxHeight: -1}
		want := lh
		if want == 0 {
			want = defaultLaneHeight
		}
		var heights []vg.Length
		for _, procs := range []int{8, 64} {
			tr := synthTrace(procs, 4, 2, 7)
			ch, err := Gantt(tr, opt)
			if err != nil {
				t.Fatal(err)
			}
			heights = append(heights, ch.Height)
			c := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: ch.Width, Y: ch.Height}}}
			pc, _ := ch.split(c)
			dataH := ch.Plot.DataCanvas(pc).Size().Y
			n := len(tr.Lanes)
			if h := layoutGantt(tr, GanttOptions{}).height; h != float64(n) {
				t.Fatalf("%d lanes of the synthetic trace take %g standard lanes, want %d", n, h, n)
			}
			if math.Abs(float64(dataH-vg.Length(n)*want)) > 1e-6 {
				t.Errorf("lane height %v, %d lanes: data area %v high, want %v", lh, n, dataH, vg.Length(n)*want)
			}
			if h := ch.Plot.Y.Tick.Label.Height("P63"); h > want {
				t.Errorf("lane height %v: lane names are %v high; they would overlap", lh, h)
			}
		}
		if d := heights[1] - heights[0]; math.Abs(float64(d-56*want)) > 1e-6 {
			t.Errorf("lane height %v: 56 more lanes add %v, want %v", lh, d, 56*want)
		}
	}
}

func TestSaveGanttUnknownExtension(t *testing.T) {
	tr := synthTrace(4, 1, 1, 1)
	for _, name := range []string{"gantt.gif", "gantt.jpg", "gantt", "gantt.png.txt"} {
		dir := t.TempDir()
		err := SaveGantt(tr, GanttOptions{}, filepath.Join(dir, name))
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat", name, err)
		}
		assertDirHolds(t, dir)
	}
}

func TestGanttBadInput(t *testing.T) {
	lanes := []string{"P0", "link"}
	iv := func(lane int, kind sim.IntervalKind, s, e float64) *sim.Trace {
		return &sim.Trace{Lanes: lanes, Intervals: []sim.Interval{
			{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 1},
			{Lane: lane, Kind: kind, Start: s, End: e},
		}}
	}
	ok := iv(1, sim.KindLink, 0, 1)
	for _, tc := range []struct {
		name string
		tr   *sim.Trace
		opt  GanttOptions
		want string
	}{
		{"nil trace", nil, GanttOptions{}, "nil trace"},
		{"no lanes", &sim.Trace{}, GanttOptions{}, "no lanes"},
		{"lane too large", iv(2, sim.KindCompute, 0, 1), GanttOptions{}, "interval 1: lane 2 out of range [0, 2)"},
		{"negative lane", iv(-1, sim.KindCompute, 0, 1), GanttOptions{}, "interval 1: lane -1 out of range"},
		{"unknown kind", iv(0, "teleport", 0, 1), GanttOptions{}, `interval 1: unknown kind "teleport"`},
		{"reversed", iv(1, sim.KindLink, 2, 1), GanttOptions{}, `interval 1 (lane "link"): bad time span [2, 1]`},
		{"NaN", iv(1, sim.KindLink, math.NaN(), 1), GanttOptions{}, "bad time span"},
		{"Inf", iv(1, sim.KindLink, 0, math.Inf(1)), GanttOptions{}, "bad time span"},
		{"ColorBy", ok, GanttOptions{ColorBy: "colour"}, `ColorBy "colour"`},
		{"LabelBy", ok, GanttOptions{LabelBy: "task"}, `LabelBy "task"`},
		{"Width", ok, GanttOptions{Width: -1}, "must be positive"},
		{"DPI", ok, GanttOptions{DPI: -3}, "dpi -3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := SaveGantt(tc.tr, tc.opt, filepath.Join(dir, "g.png"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			assertDirHolds(t, dir)
		})
	}
}

// A trace with lanes but no intervals is an empty chart, not an error.
func TestGanttEmptyTrace(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0", "P1", "P2"}}
	ch, err := Gantt(tr, GanttOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.legend.entries) != 0 {
		t.Errorf("empty trace: %d legend entries, want none", len(ch.legend.entries))
	}
	if ch.Plot.X.Min != 0 || ch.Plot.X.Max != 1 {
		t.Errorf("empty trace: time axis [%g, %g], want [0, 1]", ch.Plot.X.Min, ch.Plot.X.Max)
	}
	dir := t.TempDir()
	if err := SaveGantt(tr, GanttOptions{}, filepath.Join(dir, "empty.png")); err != nil {
		t.Fatal(err)
	}
}

func TestGanttDeterministic(t *testing.T) {
	tr := synthTrace(16, 3, 3, 5)
	for _, ext := range []string{".svg", ".png", ".pdf"} {
		dir := t.TempDir()
		var outs [][]byte
		for _, name := range []string{"a", "b"} {
			path := filepath.Join(dir, name+ext)
			if err := SaveGantt(tr, GanttOptions{ColorBy: "round"}, path); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := "/CreationDate (D:" + PDFDate().Format("20060102150405") + ")"; ext == ".pdf" && !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s: the PDF does not hold %s", name+ext, want)
			}
			outs = append(outs, b)
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: two renderings of one trace differ", ext)
		}
	}
}

// TestPDFDate reads SOURCE_DATE_EPOCH, and is the epoch without it.
func TestPDFDate(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "")
	if got := PDFDate(); !got.Equal(time.Unix(0, 0)) {
		t.Errorf("PDFDate() = %v without SOURCE_DATE_EPOCH, want the Unix epoch", got)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if got := PDFDate(); !got.Equal(time.Unix(1700000000, 0)) || got.Location() != time.UTC {
		t.Errorf("PDFDate() = %v with SOURCE_DATE_EPOCH=1700000000, want 2023-11-14 22:13:20 UTC", got)
	}
}

// A hand-made trace: a processor that computes while it sends and
// receives, and a link with two overlapping reservations.
func handTrace() *sim.Trace {
	return &sim.Trace{Lanes: []string{"P0", "L0"}, Intervals: []sim.Interval{
		{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 4, Label: "A", Round: 0},
		{Lane: 0, Kind: sim.KindSend, Start: 1, End: 2, Label: "A", Round: 0},
		{Lane: 0, Kind: sim.KindRecv, Start: 3, End: 5, Label: "B", Round: 1},
		{Lane: 1, Kind: sim.KindLink, Start: 1, End: 3, Label: "A", Round: 0},
		{Lane: 1, Kind: sim.KindLink, Start: 2, End: 4, Label: "B", Round: 1},
		{Lane: 1, Kind: sim.KindLink, Start: 4, End: 4, Label: "C", Round: 2}, // zero length
	}}
}

func TestLayoutGeometry(t *testing.T) {
	lay := layoutGantt(handTrace(), GanttOptions{ColorBy: "kind", LabelBy: "label"})
	// Two standard lanes: P0 spans [1, 2], L0 [0, 1]. Bars leave a gap g
	// between lanes; P0's bars are send 1/5 on top, compute 3/5, recv 1/5;
	// L0's two overlapping reservations take half each.
	const f, g = laneFill, 1 - laneFill
	top0, top1 := 2-g/2, 1-g/2
	want := []bar{
		{1, 2, top0 - f/5, top0, kindColor[sim.KindSend], "A"},
		{0, 4, top0 - 4*f/5, top0 - f/5, kindColor[sim.KindCompute], "A"},
		{3, 5, top0 - f, top0 - 4*f/5, kindColor[sim.KindRecv], "B"},
		{1, 3, top1 - f/2, top1, kindColor[sim.KindLink], "A"},
		{2, 4, top1 - f, top1 - f/2, kindColor[sim.KindLink], "B"},
	}
	if lay.height != 2 || lay.lanes[0] != [2]float64{1, 2} || lay.lanes[1] != [2]float64{0, 1} {
		t.Errorf("lanes %v, height %g; want [1 2] [0 1], 2", lay.lanes, lay.height)
	}
	if len(lay.bars) != len(want) {
		t.Fatalf("%d bars, want %d: %+v", len(lay.bars), len(want), lay.bars)
	}
	for i := range want {
		g, w := lay.bars[i], want[i]
		if g.x0 != w.x0 || g.x1 != w.x1 || math.Abs(g.y0-w.y0) > 1e-12 || math.Abs(g.y1-w.y1) > 1e-12 || g.fill != w.fill || g.label != w.label {
			t.Errorf("bar %d = %+v, want %+v", i, g, w)
		}
	}
	var names []string
	for _, k := range lay.keys {
		names = append(names, k.name)
	}
	if !slices.Equal(names, []string{"send", "compute", "recv", "link"}) {
		t.Errorf("legend %q, want send, compute, recv, link", names)
	}
}

// A lane grows when its sub-rows need more than a standard lane: a node
// with three concurrent sends needs 3·0.2 + 0.6 + 0.2 = 1.4 lanes, a link
// with six concurrent reservations 6/3 = 2; sub-rows never overlap and stay
// inside their lane.
func TestLayoutLaneGrowth(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"root", "leaf", "link"}}
	for k := range 3 {
		tr.Record(sim.Interval{Lane: 0, Kind: sim.KindSend, Start: float64(k), End: float64(k) + 5})
	}
	tr.Record(sim.Interval{Lane: 1, Kind: sim.KindRecv, Start: 0, End: 1})
	tr.Record(sim.Interval{Lane: 1, Kind: sim.KindCompute, Start: 1, End: 2})
	for k := range 6 {
		tr.Record(sim.Interval{Lane: 2, Kind: sim.KindLink, Start: float64(k), End: 10})
	}
	lay := layoutGantt(tr, GanttOptions{ColorBy: "kind"})
	wantLanes := [][2]float64{{3, 4.4}, {2, 3}, {0, 2}}
	for i, w := range wantLanes {
		if math.Abs(lay.lanes[i][0]-w[0]) > 1e-12 || math.Abs(lay.lanes[i][1]-w[1]) > 1e-12 {
			t.Errorf("lane %d spans %v, want %v", i, lay.lanes[i], w)
		}
	}
	if math.Abs(lay.height-4.4) > 1e-12 {
		t.Errorf("height %g lanes, want 4.4", lay.height)
	}
	g := (1 - laneFill) / 2
	for i, b := range lay.bars {
		if !slices.ContainsFunc(lay.lanes, func(l [2]float64) bool { return b.y0 >= l[0]+g-1e-12 && b.y1 <= l[1]-g+1e-12 }) {
			t.Errorf("bar %+v is outside every lane", b)
		}
		for _, c := range lay.bars[:i] {
			if b.x0 < c.x1 && c.x0 < b.x1 && b.y0 < c.y1-1e-12 && c.y0 < b.y1-1e-12 {
				t.Errorf("bars %+v and %+v overlap", b, c)
			}
		}
	}
}

func TestLayoutBarsByRound(t *testing.T) {
	lay := layoutGantt(handTrace(), GanttOptions{ColorBy: "round", LabelBy: "round"})
	bars, keys := lay.bars, lay.keys
	var names []string
	for i, k := range keys {
		names = append(names, k.name)
		if k.fill != categoryColor(i) {
			t.Errorf("key %q has colour %v, want palette colour %d", k.name, k.fill, i)
		}
	}
	// Round 2 occurs only on a zero-length interval, which is not drawn:
	// the legend lists only what the chart shows (issue 39).
	if !slices.Equal(names, []string{"round 0", "round 1"}) {
		t.Errorf("legend %q, want rounds 0, 1", names)
	}
	for _, b := range bars {
		r := map[string]int{"r0": 0, "r1": 1}[b.label]
		if b.fill != categoryColor(r) {
			t.Errorf("bar %q coloured %v, want %v", b.label, b.fill, categoryColor(r))
		}
	}
}

// Sub-rows: overlapping intervals never share one, and there are as many
// as the peak number of intervals active at once (checked by a sweep).
func TestAssignTracks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(30)
		ivs := make([]sim.Interval, n)
		for i := range ivs {
			s := float64(rng.IntN(20))
			ivs[i] = sim.Interval{Start: s, End: s + float64(1+rng.IntN(6))}
		}
		slices.SortStableFunc(ivs, func(a, b sim.Interval) int { return cmp.Compare(a.Start, b.Start) })
		track, tracks := assignTracks(ivs, 30)
		for i := range ivs {
			for j := range i {
				overlap := ivs[i].Start < ivs[j].End && ivs[j].Start < ivs[i].End
				if overlap && track[i] == track[j] {
					t.Fatalf("trial %d: overlapping %v and %v share sub-row %d", trial, ivs[i], ivs[j], track[i])
				}
			}
		}
		peak := 0
		for _, at := range ivs {
			active := 0
			for _, iv := range ivs {
				if iv.Start <= at.Start && at.Start < iv.End {
					active++
				}
			}
			peak = max(peak, active)
		}
		if tracks != peak {
			t.Fatalf("trial %d: %d sub-rows, peak concurrency %d", trial, tracks, peak)
		}
	}
	// Intervals that touch up to rounding share a sub-row.
	ivs := []sim.Interval{{Start: 0, End: 0.1 + 0.2}, {Start: 0.3, End: 1}}
	if _, n := assignTracks(ivs, 1); n != 1 {
		t.Errorf("touching intervals: %d sub-rows, want 1", n)
	}
}

// Labels are drawn inside bars wide enough for them, and only there.
func TestGanttLabelsFit(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0"}, Intervals: []sim.Interval{
		{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 50, Label: "wide"},
		{Lane: 0, Kind: sim.KindCompute, Start: 50, End: 50.01, Label: "narrow"},
		{Lane: 0, Kind: sim.KindCompute, Start: 60, End: 100, Label: ""},
	}}
	for _, tc := range []struct {
		labelBy string
		want    []string
	}{
		{"label", []string{"wide"}},
		{"round", []string{"r0", "r0"}},
		{"none", nil},
	} {
		ch, err := Gantt(tr, GanttOptions{LabelBy: tc.labelBy})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recorder.Canvas{}
		ch.Draw(draw.NewCanvas(rec, ch.Width, ch.Height))
		var got []string
		for _, a := range rec.Actions {
			if fs, ok := a.(*recorder.FillString); ok && fs.Size == barLabelSize(defaultLaneHeight) {
				got = append(got, fs.String)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("LabelBy %q: bar labels %q, want %q", tc.labelBy, got, tc.want)
		}
	}
}

// More categories than maxLegendEntries: the legend lists the first ones
// and counts the rest; rows wrap at the figure width.
func TestGanttLegend(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0"}}
	for k := range 40 {
		tr.Record(sim.Interval{Lane: 0, Kind: sim.KindCompute, Start: float64(k), End: float64(k + 1), Label: "task" + strconv.Itoa(k)})
	}
	ch, err := Gantt(tr, GanttOptions{ColorBy: "label"})
	if err != nil {
		t.Fatal(err)
	}
	es := ch.legend.entries
	if len(es) != maxLegendEntries || es[0].text != "task0" || es[len(es)-1].text != "… 29 more" || len(es[len(es)-1].thumbs) != 0 {
		t.Errorf("legend %+v, want task0…task10 and “… 29 more”", es)
	}
	wide, narrow := ch.legend.rows(7*vg.Inch), ch.legend.rows(2*vg.Inch)
	if len(narrow) <= len(wide) {
		t.Errorf("legend rows: %d at 7 in, %d at 2 in; want more rows when narrower", len(wide), len(narrow))
	}
	for _, row := range narrow {
		var w vg.Length
		for i, e := range row {
			if i > 0 {
				w += legendSpacing
			}
			w += ch.legend.entryWidth(e)
		}
		if len(row) > 1 && w > 2*vg.Inch {
			t.Errorf("legend row %d entries, %v wide, exceeds 2 in", len(row), w)
		}
	}
	narrowCh, err := Gantt(tr, GanttOptions{ColorBy: "label", Width: 2 * vg.Inch})
	if err != nil {
		t.Fatal(err)
	}
	if narrowCh.Height <= ch.Height {
		t.Errorf("a narrower chart with a wrapped legend is %v high, not more than %v", narrowCh.Height, ch.Height)
	}
}

func TestGanttHideIdle(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"relay", "a", "idle", "b"}, Intervals: []sim.Interval{
		{Lane: 1, Kind: sim.KindSend, Start: 0, End: 1}, {Lane: 3, Kind: sim.KindRecv, Start: 0, End: 1},
	}}
	got := busyLanes(tr)
	if strings.Join(got.Lanes, ",") != "a,b" || got.Intervals[0].Lane != 0 || got.Intervals[1].Lane != 1 {
		t.Fatalf("busy lanes %v with intervals on lanes %d, %d; want a,b on 0, 1", got.Lanes, got.Intervals[0].Lane, got.Intervals[1].Lane)
	}
	if tr.Intervals[1].Lane != 3 {
		t.Error("busyLanes changed the trace it was given")
	}
	ch, err := Gantt(tr, GanttOptions{HideIdle: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ch.Plot.Y.Tick.Marker.Ticks(0, 1)); n != 2 {
		t.Errorf("%d lane ticks, want 2", n)
	}
}

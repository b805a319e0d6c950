package plots

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"image/png"

	"github.com/netsched/netsched/sim"
)

// TestGanttLegendDrawnKinds: the kind legend lists the kinds the chart
// draws, not one that only a zero-length interval has (issue 39).
func TestGanttLegendDrawnKinds(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0", "P1"}, Intervals: []sim.Interval{
		{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 4},
		{Lane: 0, Kind: sim.KindSend, Start: 4, End: 4},
		{Lane: 1, Kind: sim.KindRecv, Start: 4, End: 4},
	}}
	var names []string
	for _, k := range layoutGantt(tr, GanttOptions{ColorBy: "kind"}).keys {
		names = append(names, k.name)
	}
	if !slices.Equal(names, []string{"compute"}) {
		t.Errorf("legend %q, want only compute", names)
	}
}

// TestGanttShortSendsShow draws a send and a receive 10^-6 of the chart's
// time long beside long computations: each is widened to minBarWidth, so
// that pixels of its colour show in the PNG (they were slivers).
func TestGanttShortSendsShow(t *testing.T) {
	tr := &sim.Trace{Lanes: []string{"P0", "P1"}, Intervals: []sim.Interval{
		{Lane: 0, Kind: sim.KindCompute, Start: 0, End: 500},
		{Lane: 0, Kind: sim.KindSend, Start: 500, End: 500.001},
		{Lane: 1, Kind: sim.KindRecv, Start: 500, End: 500.001},
		{Lane: 1, Kind: sim.KindCompute, Start: 500.001, End: 1000},
	}}
	path := filepath.Join(t.TempDir(), "g.png")
	if err := SaveGantt(tr, GanttOptions{}, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []sim.IntervalKind{sim.KindSend, sim.KindRecv} {
		chart := img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()*6/10)) // above the legend
		if n := pixelsOf(chart, kindColor[kind]); n < 4 {
			t.Errorf("%s: %d pixels of its colour, want a visible bar", kind, n)
		}
	}
}

// pixelsOf counts the pixels of img within a few levels of c.
func pixelsOf(img image.Image, c color.RGBA) int {
	n := 0
	near := func(a uint32, b uint8) bool { return int(a>>8)-int(b) <= 8 && int(b)-int(a>>8) <= 8 }
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(r, c.R) && near(g, c.G) && near(b, c.B) {
				n++
			}
		}
	}
	return n
}

package plots

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/netsched/netsched/internal/tooltest"
)

// label draws one tick label as log axes do, left-aligned on a small
// canvas.
type label string

func (l label) Draw(c draw.Canvas) {
	sty := newPlot().X.Tick.Label
	sty.Font.Size = 12
	sty.XAlign, sty.YAlign = text.XLeft, text.YBottom
	c.FillText(sty, vg.Point{X: 4, Y: 6}, string(l))
}

// raster renders txt in the format of ext (.png, or .pdf rasterised by
// pdftoppm at 300 dpi) and returns its pixels.
func raster(t *testing.T, txt, ext string) image.Image {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "label"+ext)
	if err := save(path, 1.2*vg.Inch, 0.4*vg.Inch, 300, label(txt)); err != nil {
		t.Fatal(err)
	}
	if ext == ".pdf" {
		bin := tooltest.Command(t, "pdftoppm", "poppler-utils")
		if out, err := exec.Command(bin, "-r", "300", "-png", "-singlefile", path, filepath.Join(dir, "label")).CombinedOutput(); err != nil {
			t.Fatalf("pdftoppm: %v\n%s", err, out)
		}
		path = filepath.Join(dir, "label.png")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// ink is the bounding box of the dark pixels of img.
func ink(img image.Image) image.Rectangle {
	var box image.Rectangle
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			if a > 0x8000 && r+g+b < 3*0x8000 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// TestSuperscriptsDrawn renders log-axis tick labels in PNG and in PDF
// (rasterised, not only its text layer): the figure font has no glyph for
// ⁻, ⁰ or ⁹, and 10⁻⁸ came out as 10⁸. The negative exponent must draw
// more ink than the positive one, to the right (the minus sign), and
// 10⁰ and 10⁹ more than 10; the exponent stands above the digits' middle.
func TestSuperscriptsDrawn(t *testing.T) {
	for _, ext := range []string{".png", ".pdf"} {
		t.Run(ext, func(t *testing.T) {
			neg, pos, ten := ink(raster(t, "10⁻⁸", ext)), ink(raster(t, "10⁸", ext)), ink(raster(t, "10", ext))
			if neg.Dx() < pos.Dx()+10 {
				t.Errorf("10⁻⁸ is %d px wide, 10⁸ %d: no minus sign drawn", neg.Dx(), pos.Dx())
			}
			for _, s := range []string{"10⁰", "10⁹"} {
				if got := ink(raster(t, s, ext)); got.Dx() < ten.Dx()+10 || got.Min.Y >= ten.Min.Y {
					t.Errorf("%s: ink %v, 10's %v: want its exponent drawn to the right of 10 and above its top", s, got, ten)
				}
			}
			if pos.Min.Y >= ten.Min.Y || neg.Max.Y != ten.Max.Y {
				t.Errorf("ink of 10⁸ %v, 10⁻⁸ %v, 10 %v: want the exponent raised and the baseline kept", pos, neg, ten)
			}
		})
	}
}

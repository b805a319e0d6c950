package plots

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/netsched/netsched/internal/atomicfile"
)

// DefaultDPI is the resolution of PNG output when an options struct leaves
// DPI at zero. Vector formats (SVG, PDF) have no resolution.
const DefaultDPI = 150

// maxPNGPixels bounds the size of a PNG image (4 bytes a pixel in memory):
// a figure larger than this should be SVG or PDF.
const maxPNGPixels = 100 << 20

// ErrFormat is returned (wrapped) when a file extension names no supported
// output format.
var ErrFormat = errors.New("unsupported output format (want .png, .svg or .pdf)")

// drawer is anything that draws itself on a canvas: a *plot.Plot or a
// *Chart.
type drawer interface {
	Draw(draw.Canvas)
}

// newCanvas returns a canvas of size w×h for the format named by path's
// extension (case-insensitive).
func newCanvas(path string, w, h vg.Length, dpi int) (vg.CanvasWriterTo, error) {
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("figure size %v×%v: width and height must be positive", w, h)
	}
	if dpi < 0 {
		return nil, fmt.Errorf("dpi %d: must be positive", dpi)
	}
	if dpi == 0 {
		dpi = DefaultDPI
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		px := float64(w/vg.Inch) * float64(h/vg.Inch) * float64(dpi*dpi)
		if px > maxPNGPixels {
			return nil, fmt.Errorf("%q: a %.0f-megapixel PNG is too large; use .svg or .pdf, or a lower DPI", path, px/(1<<20))
		}
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}, nil
	case ".svg":
		return newSVGCanvas(w, h), nil
	case ".pdf":
		return newPDFCanvas(w, h), nil
	default:
		return nil, fmt.Errorf("%q: extension %q: %w", path, ext, ErrFormat)
	}
}

// save draws d on a w×h canvas of the format path names and writes it to
// path atomically.
func save(path string, w, h vg.Length, dpi int, d drawer) error {
	c, err := newCanvas(path, w, h, dpi)
	if err != nil {
		return err
	}
	d.Draw(draw.New(c))
	return writeAtomic(path, c)
}

// writeAtomic writes src to path whole or not at all (package atomicfile).
func writeAtomic(path string, src io.WriterTo) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := src.WriteTo(w)
		return err
	})
}

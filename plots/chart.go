package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Chart is a figure ready to draw or save: a gonum plot with a legend laid
// out in rows beneath it, where it never hides data. Gantt and Lines build
// Charts; callers may adjust Plot (fonts, axis ranges) before saving.
type Chart struct {
	// Plot holds the data, axes and title.
	Plot *plot.Plot
	// Width and Height are the size of the whole figure.
	Width, Height vg.Length

	legend legend
}

// chartMargin is the blank border around a chart.
const chartMargin = 6 * vg.Length(1)

// Draw draws the chart on c: the legend along the bottom, the plot above.
func (ch *Chart) Draw(c draw.Canvas) {
	if ch.Plot.BackgroundColor != nil {
		c.SetColor(ch.Plot.BackgroundColor)
		c.Fill(c.Rectangle.Path())
	}
	pc, lc := ch.split(c)
	ch.Plot.Draw(pc)
	ch.legend.draw(lc)
}

// split divides c, inside the margin, into the plot area and the legend
// strip beneath it.
func (ch *Chart) split(c draw.Canvas) (plotArea, legendArea draw.Canvas) {
	c = draw.Crop(c, chartMargin, -chartMargin, chartMargin, -chartMargin)
	lh := ch.legend.height(c.Size().X)
	legendArea = c
	legendArea.Max.Y = c.Min.Y + lh
	return draw.Crop(c, 0, 0, lh, 0), legendArea
}

// fitHeight sets Height so that the plot's data area is dataH high, by
// measuring the space the title, axes and legend take at this Width.
func (ch *Chart) fitHeight(dataH vg.Length) {
	guess := dataH + 300
	pc, _ := ch.split(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: ch.Width, Y: guess}}})
	ch.Height = guess - ch.Plot.DataCanvas(pc).Size().Y + dataH
}

// Save writes the chart to path in the format its extension names (.png,
// .svg, .pdf), atomically. dpi sets the PNG resolution (0: DefaultDPI).
func (ch *Chart) Save(path string, dpi int) error {
	return save(path, ch.Width, ch.Height, dpi, ch)
}

// legend is a list of entries (a thumbnail and a text) laid out left to
// right in centred rows that wrap at the figure width.
type legend struct {
	entries []legendEntry
	style   text.Style
}

type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer // none: text only (an ellipsis entry, say)
}

// Legend geometry.
const (
	legendThumb   = 16 * vg.Length(1) // thumbnail width, points
	legendGap     = 4 * vg.Length(1)  // thumbnail to text
	legendSpacing = 14 * vg.Length(1) // entry to entry
	legendMargin  = 4 * vg.Length(1)  // space above the legend
)

func newLegend(base text.Style, size vg.Length) legend {
	return legend{style: textStyle(base, size)}
}

func (l *legend) add(text string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{text: text, thumbs: thumbs})
}

func (l *legend) entryWidth(e legendEntry) vg.Length {
	w := l.style.Width(e.text)
	if len(e.thumbs) > 0 {
		w += legendThumb + legendGap
	}
	return w
}

// rows splits the entries into rows that fit in width w; each row holds at
// least one entry.
func (l *legend) rows(w vg.Length) [][]legendEntry {
	var rows [][]legendEntry
	var cur []legendEntry
	var used vg.Length
	for _, e := range l.entries {
		ew := l.entryWidth(e)
		if len(cur) > 0 && used+legendSpacing+ew > w {
			rows = append(rows, cur)
			cur, used = nil, 0
		}
		if len(cur) > 0 {
			used += legendSpacing
		}
		cur = append(cur, e)
		used += ew
	}
	if len(cur) > 0 {
		rows = append(rows, cur)
	}
	return rows
}

func (l *legend) rowHeight() vg.Length { return l.style.Height("Mg") * 1.4 }

// height is the height of the legend strip for a figure of width w.
func (l *legend) height(w vg.Length) vg.Length {
	n := len(l.rows(w))
	if n == 0 {
		return 0
	}
	return vg.Length(n)*l.rowHeight() + legendMargin
}

// draw draws the legend in the strip c.
func (l *legend) draw(c draw.Canvas) {
	rh := l.rowHeight()
	sty := l.style
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	y := c.Max.Y - legendMargin - rh/2
	for _, row := range l.rows(c.Size().X) {
		var rw vg.Length
		for i, e := range row {
			if i > 0 {
				rw += legendSpacing
			}
			rw += l.entryWidth(e)
		}
		x := c.Center().X - rw/2
		for _, e := range row {
			if len(e.thumbs) > 0 {
				th := sty.Height("M")
				tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
					Min: vg.Point{X: x, Y: y - th/2},
					Max: vg.Point{X: x + legendThumb, Y: y + th/2},
				}}
				for _, t := range e.thumbs {
					t.Thumbnail(&tc)
				}
				x += legendThumb + legendGap
			}
			c.FillText(sty, vg.Point{X: x, Y: y}, e.text)
			x += sty.Width(e.text) + legendSpacing
		}
		y -= rh
	}
}

// swatch is a legend thumbnail: a filled rectangle with a darker outline.
type swatch color.RGBA

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	fill := color.RGBA(s)
	c.SetColor(fill)
	c.Fill(c.Rectangle.Path())
	c.SetLineStyle(draw.LineStyle{Color: darker(fill, outlineShade), Width: outlineWidth})
	c.Stroke(c.Rectangle.Path())
}

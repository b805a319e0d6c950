package plots

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
)

// niceTicks is a plot.Ticker for linear axes that puts about n labelled
// ticks at multiples of 1, 2 or 5 × 10^k, with an unlabelled minor tick
// halfway between them. (gonum's DefaultTicks aims at three, too sparse for
// reading times off a wide Gantt chart.)
type niceTicks int

// Ticks implements plot.Ticker.
func (n niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || n < 1 || !finite(lo) || !finite(hi) {
		return nil
	}
	step := niceStep((hi - lo) / float64(n))
	decimals := max(0, -int(math.Floor(math.Log10(step))))
	sci := max(math.Abs(lo), math.Abs(hi)) >= 1e6
	var ticks []plot.Tick
	for i := math.Ceil(lo / step * 2); i/2*step <= hi*(1+1e-12); i++ {
		v := i / 2 * step
		t := plot.Tick{Value: v}
		if math.Mod(i, 2) == 0 {
			t.Label = linearLabel(v, decimals, sci)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// linearLabel formats a tick value with the given decimals, or when sci
// is set as m×10^k (values of a million and more).
func linearLabel(v float64, decimals int, sci bool) string {
	if sci && v != 0 {
		k := int(math.Floor(math.Log10(math.Abs(v))))
		m := v / math.Pow(10, float64(k))
		return strconv.FormatFloat(roundTo(m, 6), 'f', -1, 64) + "×10" + superscript(k)
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if s == "-0" || strings.Trim(s, "-0.") == "" {
		return "0"
	}
	return s
}

// roundTo rounds x to the given number of significant digits, so that
// 1.9999999999 prints as 2.
func roundTo(x float64, digits int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	return v
}

// lineTicks is the ticker of a comparison plot's linear x axis: niceTicks
// whose ticks at the ends of the axis are always labelled, so that an
// axis starting on a minor tick (β from 0.005 in steps of 0.01) still says
// where it starts.
type lineTicks int

// Ticks implements plot.Ticker.
func (n lineTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := niceTicks(n).Ticks(lo, hi)
	if len(ticks) < 2 {
		return ticks
	}
	step := 2 * (ticks[1].Value - ticks[0].Value)
	decimals := max(0, -int(math.Floor(math.Log10(step/2))))
	sci := max(math.Abs(lo), math.Abs(hi)) >= 1e6
	for _, i := range []int{0, len(ticks) - 1} {
		t := &ticks[i]
		end := lo
		if i > 0 {
			end = hi
		}
		if t.Label == "" && math.Abs(t.Value-end) <= 1e-9*step {
			t.Label = linearLabel(t.Value, decimals, sci)
		}
	}
	// An end far from every label (β from 0.005 with labels every 0.02)
	// gets a labelled tick of its own.
	labelled := func(t plot.Tick) bool { return t.Label != "" }
	first := slices.IndexFunc(ticks, labelled)
	last := first
	for i := range ticks {
		if labelled(ticks[i]) {
			last = i
		}
	}
	if first >= 0 && ticks[first].Value-lo > 0.5*step {
		ticks = slices.Insert(ticks, 0, plot.Tick{Value: lo, Label: endLabel(lo, sci)})
		last++
	}
	if first >= 0 && hi-ticks[last].Value > 0.5*step {
		ticks = append(ticks, plot.Tick{Value: hi, Label: endLabel(hi, sci)})
	}
	return ticks
}

// endLabel formats an axis end that is not on a tick: three significant
// digits.
func endLabel(v float64, sci bool) string {
	if sci {
		return linearLabel(roundTo(v, 3), 0, true)
	}
	return strconv.FormatFloat(roundTo(v, 3), 'f', -1, 64)
}

// niceStep rounds x > 0 up to the nearest 1, 2 or 5 × 10^k.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-12) {
			return m * p
		}
	}
	return 10 * p
}

// logTicks is the plot.Ticker of log axes. On a range of two decades or
// more it labels the powers of ten, with unlabelled minor ticks at 2–9 ×
// 10^k; on a shorter range, where powers of ten would leave one label or
// none, it labels 1, 2 and 5 × 10^k and leaves 3, 4, 6, 7, 8, 9 × 10^k as
// minor ticks. On a range too short for two such labels it falls back to
// the labels of a linear axis. Ticks lie within [lo, hi]: the axis is not
// widened to whole decades.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !(lo > 0) || !finite(hi) {
		return nil
	}
	labelled := func(m int) bool { return m == 1 }
	if hi/lo < 100*(1-1e-9) {
		labelled = func(m int) bool { return m == 1 || m == 2 || m == 5 }
	}
	var ticks []plot.Tick
	nLabels := 0
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, float64(k))
			v = roundTo(v, 12)
			if v < lo*(1-1e-12) || v > hi*(1+1e-12) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled(m) {
				t.Label = logLabel(m, k)
				nLabels++
			}
			ticks = append(ticks, t)
		}
	}
	if nLabels < 2 {
		return niceTicks(4).Ticks(lo, hi)
	}
	return ticks
}

// logLabel formats m × 10^k: plainly from 0.001 to 99999 ("0.02", "500"),
// else as "2×10⁵" (or "10⁵" for m = 1).
func logLabel(m, k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(float64(m)*math.Pow(10, float64(k)), 'f', max(0, -k), 64)
	}
	if m == 1 {
		return "10" + superscript(k)
	}
	return strconv.Itoa(m) + "×10" + superscript(k)
}

// superscript writes k in superscript digits.
func superscript(k int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	var b strings.Builder
	for _, r := range strconv.Itoa(k) {
		if r == '-' {
			b.WriteString("⁻")
			continue
		}
		b.WriteString(string([]rune(digits)[r-'0']))
	}
	return b.String()
}

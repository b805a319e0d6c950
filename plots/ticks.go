package plots

import (
	"math"
	"strconv"

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
	var ticks []plot.Tick
	for i := math.Ceil(lo / step * 2); i/2*step <= hi*(1+1e-12); i++ {
		v := i / 2 * step
		t := plot.Tick{Value: v}
		if math.Mod(i, 2) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
			if t.Label == "-0" {
				t.Label = "0"
			}
		}
		ticks = append(ticks, t)
	}
	return ticks
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

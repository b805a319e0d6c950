package tracefile

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/sim"
)

// track is one row of a lane in the exported trace: intervals of the lane
// that do not overlap, in time order.
type track struct {
	name string
	ivs  []int // indices into the trace's intervals
}

// layout checks tr and splits each of its lanes into tracks (see the
// package documentation), returned in lane order.
func layout(tr *sim.Trace) ([]track, error) {
	if tr == nil {
		return nil, fmt.Errorf("tracefile: no trace")
	}
	byLane := make([][]int, len(tr.Lanes))
	for i, iv := range tr.Intervals {
		if iv.Lane < 0 || iv.Lane >= len(tr.Lanes) {
			return nil, fmt.Errorf("tracefile: interval %d: lane %d out of range [0, %d)", i, iv.Lane, len(tr.Lanes))
		}
		if !finite(iv.Start) || !finite(iv.End) || iv.End < iv.Start {
			return nil, fmt.Errorf("tracefile: interval %d (lane %q): bad time span [%g, %g]", i, tr.Lanes[iv.Lane], iv.Start, iv.End)
		}
		byLane[iv.Lane] = append(byLane[iv.Lane], i)
	}
	var tracks []track
	for lane, ivs := range byLane {
		slices.SortFunc(ivs, func(a, b int) int {
			x, y := &tr.Intervals[a], &tr.Intervals[b]
			return cmp.Or(cmp.Compare(x.Start, y.Start), cmp.Compare(x.End, y.End), cmp.Compare(a, b))
		})
		first := len(tracks)
		tracks = append(tracks, track{name: tr.Lanes[lane]})
		var free []float64 // when each track of the lane is free
		for _, i := range ivs {
			iv := &tr.Intervals[i]
			k := slices.IndexFunc(free, func(t float64) bool { return t <= iv.Start })
			if k < 0 {
				k = len(free)
				free = append(free, 0)
				if k > 0 {
					tracks = append(tracks, track{name: fmt.Sprintf("%s #%d", tr.Lanes[lane], k+1)})
				}
			}
			free[k] = iv.End
			tracks[first+k].ivs = append(tracks[first+k].ivs, i)
		}
	}
	return tracks, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// name is what a viewer calls an interval: its label, or its kind.
func name(iv *sim.Interval) string {
	if iv.Label != "" {
		return iv.Label
	}
	return string(iv.Kind)
}

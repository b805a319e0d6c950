package bound

import (
	"math"

	"github.com/netsched/netsched/replay"
)

// State is what the bounder reads from a search state.
type State struct {
	Ready    []float64  // max(t_last, arrival) for holders, +Inf otherwise
	TLast    float64    // start of the last transfer
	Holders  int        // participants that hold the message
	Missing  int        // participants that do not
	Windows  [][]Window // reservations per channel, in placement order
	Makespan float64    // the latest arrival so far
	Cutoff   float64    // the bound may stop as soon as it reaches this (the best makespan so far)
	// Fit is the earliest start at or after t of a transfer u→v that fits
	// the reservations made.
	Fit func(u, v int, t float64) float64
}

// Window is a reservation of bandwidth BW on a channel during [Start, End).
type Window struct {
	Start, End, BW float64
	PrevMax        float64 // the channel's latest end before this window
}

// Reserve adds the windows of a transfer over rt that starts at start
// with a message of size to the reservations.
func (st *State) Reserve(rt *replay.Route, start, size float64) {
	dur := size / rt.Bandwidth
	for i, ch := range rt.Channels {
		ws := st.Windows[ch]
		prevMax := math.Inf(-1)
		if len(ws) > 0 {
			prevMax = math.Max(ws[len(ws)-1].PrevMax, ws[len(ws)-1].End)
		}
		a := start + rt.Offsets[i]
		st.Windows[ch] = append(ws, Window{Start: a, End: a + dur, BW: rt.Bandwidth, PrevMax: prevMax})
	}
}

// Release takes off the windows of the last transfer reserved, over rt.
func (st *State) Release(rt *replay.Route) {
	for _, ch := range rt.Channels {
		st.Windows[ch] = st.Windows[ch][:len(st.Windows[ch])-1]
	}
}

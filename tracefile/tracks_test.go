package tracefile

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/sim"
)

func TestLayout(t *testing.T) {
	iv := func(lane int, start, end float64) sim.Interval {
		return sim.Interval{Lane: lane, Kind: sim.KindCompute, Start: start, End: end}
	}
	type trk struct {
		name string
		ivs  []int
	}
	tests := []struct {
		name  string
		lanes []string
		ivs   []sim.Interval
		want  []trk
		err   string
	}{
		{"idle lanes", []string{"a", "b"}, nil, []trk{{"a", nil}, {"b", nil}}, ""},
		{"back to back", []string{"a"}, []sim.Interval{iv(0, 1, 2), iv(0, 0, 1)}, []trk{{"a", []int{1, 0}}}, ""},
		{"zero length", []string{"a"}, []sim.Interval{iv(0, 1, 1), iv(0, 1, 1), iv(0, 0, 1)}, []trk{{"a", []int{2, 0, 1}}}, ""},
		{"overlap", []string{"a", "b"}, []sim.Interval{iv(0, 0, 2), iv(0, 1, 3), iv(1, 0, 1)},
			[]trk{{"a", []int{0}}, {"a #2", []int{1}}, {"b", []int{2}}}, ""},
		{"first free track", []string{"a"}, []sim.Interval{iv(0, 0, 4), iv(0, 1, 2), iv(0, 1.5, 3), iv(0, 2, 5)},
			[]trk{{"a", []int{0}}, {"a #2", []int{1, 3}}, {"a #3", []int{2}}}, ""},
		{"lane out of range", []string{"a"}, []sim.Interval{iv(1, 0, 1)}, nil, "lane 1 out of range"},
		{"end before start", []string{"a"}, []sim.Interval{iv(0, 2, 1)}, nil, "bad time span"},
		{"NaN", []string{"a"}, []sim.Interval{iv(0, math.NaN(), 1)}, nil, "bad time span"},
		{"infinite", []string{"a"}, []sim.Interval{iv(0, 0, math.Inf(1))}, nil, "bad time span"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tracks, err := layout(&sim.Trace{Lanes: tt.lanes, Intervals: tt.ivs})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []trk
			for _, k := range tracks {
				got = append(got, trk(k))
			}
			if !slices.EqualFunc(got, tt.want, func(a, b trk) bool { return a.name == b.name && slices.Equal(a.ivs, b.ivs) }) {
				t.Errorf("tracks %v, want %v", got, tt.want)
			}
		})
	}
}

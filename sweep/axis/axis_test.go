package axis

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestParseSet(t *testing.T) {
	tests := []struct {
		spec    string
		want    []float64
		wantErr string
	}{
		{"beta=0.1,0.2,0.5", []float64{0.1, 0.2, 0.5}, ""},
		{"rho=1:3:0.5", []float64{1, 1.5, 2, 2.5, 3}, ""},
		{"rho=0:1:0.1", []float64{0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001, 0.7000000000000001, 0.8, 0.9, 1}, ""},
		{"x=1:2:0", nil, "step > 0"},
		{"x=3:1:-1", nil, "step > 0"},
		{"x=1,a", nil, "not a finite number"},
		{"x", nil, "want NAME="},
		{"=1,2", nil, "want NAME="},
		{"x=1:2", nil, "start:stop:step"},
		{"x=1:2:3:4", nil, "start:stop:step"},
		{"x=0:1e9:1e-3", nil, "at most"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			ax, err := ParseSet(tt.spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(ax.Values) != len(tt.want) {
				t.Fatalf("values %v, want %v", ax.Values, tt.want)
			}
			for i := range tt.want {
				if math.Abs(ax.Values[i]-tt.want[i]) > 1e-12 {
					t.Fatalf("values %v, want %v", ax.Values, tt.want)
				}
			}
		})
	}
}

// TestParseRangeDecimal checks that a range's values are the decimals a
// person writes, not start + i·step in binary floating point.
func TestParseRangeDecimal(t *testing.T) {
	for _, tc := range []struct {
		r    string
		i    int
		want float64
		n    int
	}{
		{"0.01:0.2:0.01", 5, 0.06, 20},
		{"0.1:1:0.1", 2, 0.3, 10},
		{"1e-3:5e-3:1e-3", 2, 0.003, 5},
		{"0:10:2.5", 3, 7.5, 5},
		{"1:3:1", 2, 3, 3},
	} {
		v, err := ParseRange(tc.r)
		if err != nil || len(v) != tc.n || v[tc.i] != tc.want {
			t.Errorf("ParseRange(%q) = %v, %v; want %d values, value %d = %v", tc.r, v, err, tc.n, tc.i, tc.want)
		}
	}
}

func TestGrid(t *testing.T) {
	g := Grid([]Axis{{Path: "a", Values: []float64{1, 2}}, {Path: "b", Values: []float64{3, 4, 5}}})
	want := "[[1 3] [1 4] [1 5] [2 3] [2 4] [2 5]]"
	if got := fmt.Sprint(g); got != want {
		t.Errorf("Grid = %s, want %s", got, want)
	}
	if got := fmt.Sprint(Grid(nil)); got != "[[]]" {
		t.Errorf("Grid(nil) = %s, want one empty point", got)
	}
}

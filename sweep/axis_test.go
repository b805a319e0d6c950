package sweep

import (
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

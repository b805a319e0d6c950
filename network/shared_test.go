package network_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/network"
)

// TestSharedInstances replays the hand-checked instances of
// shared/data/flows and compares every end time with the file's expected
// ones (pure max-min) and expected_cm02 (SimGrid's CM02), to 1e-12
// relative.
func TestSharedInstances(t *testing.T) {
	dir := shareddata.FlowsDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no instances in %s (%v)", dir, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			in, err := network.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want struct {
				Expected     []float64 `json:"expected"`
				ExpectedCM02 []float64 `json:"expected_cm02"`
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if want.Expected == nil {
				t.Fatal("no expected end times")
			}
			compareEnds(t, in, network.MaxMin, want.Expected)
			if want.ExpectedCM02 != nil {
				compareEnds(t, in, network.CM02{Gamma: network.DefaultGamma}, want.ExpectedCM02)
			}
		})
	}
}

func compareEnds(t *testing.T, in *network.Instance, m network.Sharing, want []float64) {
	t.Helper()
	times, err := network.Replay(context.Background(), &in.Network, in.Flows, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(times) != len(want) {
		t.Fatalf("%s: %d flows, %d expected end times", m.Name(), len(times), len(want))
	}
	for i, tm := range times {
		if !closeRel(tm.End, want[i], 1e-12) {
			t.Errorf("%s: flow %d ends at %v, want %v", m.Name(), i, tm.End, want[i])
		}
	}
}

func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

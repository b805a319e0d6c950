package recorded_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/formats/wfcommons"
	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/runs/recorded"
)

// TestReplayRecordedOneMachine: tasks that share one machine exchange
// their data through its memory, never the network. recorded-fork.json
// with c moved to n1 runs a, then b and c side by side on n1's two cores,
// then d: 2 + 4 + 1 = 7 s of computation, whatever the network's
// bandwidth, plus at most the 450 MB of its edges at the memory
// bandwidth (0.045 s at 10^10 bytes/s, 0 at 10^18). The eight shared
// instances whose tasks ran on one machine replay in their longest path
// in runtimes at any network bandwidth, within their data at the memory
// bandwidth.
func TestReplayRecordedOneMachine(t *testing.T) {
	data, err := os.ReadFile("../../cmd/netsched/testdata/recorded-fork.json")
	if err != nil {
		t.Fatal(err)
	}
	one := strings.Replace(string(data), `{"id": "c", "runtimeInSeconds": 4, "machines": ["n2"]}`,
		`{"id": "c", "runtimeInSeconds": 4, "machines": ["n1"]}`, 1)
	if one == string(data) {
		t.Fatal("testdata/recorded-fork.json changed; c is not on n2")
	}
	file := filepath.Join(t.TempDir(), "one.json")
	if err := os.WriteFile(file, []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		bandwidth, memory float64
		lo, hi            float64
	}{
		{1e8, 1e10, 7, 7 + 450e6/1e10},
		{1, 1e10, 7, 7 + 450e6/1e10},
		{1, 1e18, 7, 7 + 1e-9},
	} {
		r, err := recorded.Replay(context.Background(), file, recorded.Network{Bandwidth: tc.bandwidth, Memory: tc.memory})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Verified || r.Simulated < tc.lo || r.Simulated > tc.hi {
			t.Errorf("network %g, memory %g: %v s (verified %v), want in [%g, %g]", tc.bandwidth, tc.memory, r.Simulated, r.Verified, tc.lo, tc.hi)
		}
	}

	dir := shareddata.WfCommonsDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		w, err := wfcommons.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Machines) != 1 {
			continue
		}
		total := 0.0
		for _, e := range w.DAG.Edges {
			total += e.Data
		}
		for _, bw := range []float64{1, 1.25e8} {
			r, err := recorded.Replay(context.Background(), f, recorded.Network{Bandwidth: bw, Memory: models.DefaultMemoryBandwidth})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Verified || r.Simulated < r.Path-1e-9 || r.Simulated > r.Path+total/models.DefaultMemoryBandwidth+1e-9 {
				t.Errorf("%s at %g bytes/s: %v s, want the longest path %v within %v s of data in memory", filepath.Base(f), bw, r.Simulated, r.Path, total/models.DefaultMemoryBandwidth)
			}
		}
	}
}

package network_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/internal/tooltest"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/flowgen"
)

// simgridScript returns the path of scripts/simgrid/run-flows.sh, or skips
// (fails under CI=true) when SimGrid, g++ or python3 is missing.
func simgridScript(t *testing.T) string {
	t.Helper()
	return tooltest.Path(t, func() (string, error) {
		for _, tool := range []string{"g++", "python3", "bash"} {
			if _, err := exec.LookPath(tool); err != nil {
				return "", fmt.Errorf("%s is not on PATH, which the SimGrid comparison needs: %w", tool, err)
			}
		}
		if _, err := os.Stat("/usr/include/simgrid/s4u.hpp"); err != nil {
			return "", errors.New("SimGrid is not installed (Debian package libsimgrid-dev)")
		}
		return filepath.Abs("../scripts/simgrid/run-flows.sh")
	})
}

// runSimGrid replays in with SimGrid under model and returns its end
// times.
func runSimGrid(t *testing.T, script string, in *network.Instance, model string) []float64 {
	t.Helper()
	file := filepath.Join(t.TempDir(), "flows.json")
	var buf bytes.Buffer
	if err := network.Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// SimGrid's default lazy update drifts by up to 1e-4 relative under
	// CM02's weights on large instances; its full update is exact
	out, err := exec.Command("bash", script, file, model, "--cfg=network/optim:Full").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("%s: %v\n%s", script, err, ee.Stderr)
		}
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil || len(rows) != len(in.Flows)+1 {
		t.Fatalf("SimGrid's output (%v):\n%s", err, out)
	}
	ends := make([]float64, len(in.Flows))
	for i, row := range rows[1:] {
		if ends[i], err = strconv.ParseFloat(row[1], 64); err != nil {
			t.Fatal(err)
		}
	}
	return ends
}

// TestSimGrid compares every flow's end with SimGrid's (3.32, CM02 with
// no correction factors, scripts/simgrid/run-flows.sh), to 1e-9 relative,
// on generated stars, clusters, trees and dumbbells under both models:
// 6 instances of up to 60 flows (4 with -short), 100 of up to 200 under
// NETSCHED_SLOW=1.
func TestSimGrid(t *testing.T) {
	script := simgridScript(t)
	seeds, maxFlows := slowtest.Pick(6, 100), slowtest.Pick(60, 200)
	if testing.Short() {
		seeds = 4
	}
	var cases []*network.Instance
	for seed := range seeds {
		cases = append(cases, flowgen.Random(rand.New(rand.NewPCG(uint64(seed), 32)), maxFlows))
	}
	for _, m := range []network.Sharing{network.MaxMin, network.CM02{Gamma: network.DefaultGamma}} {
		for i, in := range cases {
			times, err := network.Replay(context.Background(), &in.Network, in.Flows, m)
			if err != nil {
				t.Fatal(err)
			}
			want := runSimGrid(t, script, in, m.Name())
			for k, tm := range times {
				if !closeRel(tm.End, want[k], 1e-9) {
					t.Errorf("instance %d (%d flows), %s: flow %d ends at %v, SimGrid says %v", i, len(in.Flows), m.Name(), k, tm.End, want[k])
				}
			}
		}
	}
}

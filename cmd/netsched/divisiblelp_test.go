package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/internal/slowtest"
)

// largeDivisibleLP writes a scenario of divisible-lp on 1,000 processors:
// one half-duplex crossbar, or 100 clusters of 10.
func largeDivisibleLP(t *testing.T, multiCluster bool) string {
	t.Helper()
	gen := func(n, seed int) string {
		return fmt.Sprintf("{count: %d, seed: %d, gamma: {uniform: [0.05, 0.2]}, load: {choice: [0, 0, 100]}}", n, seed)
	}
	var b strings.Builder
	if multiCluster {
		b.WriteString("platform:\n  multicluster:\n    beta: 0.02\n    clusters:\n")
		for j := range 100 {
			fmt.Fprintf(&b, "      - {beta: 0.01, processors: %s}\n", gen(10, j))
		}
	} else {
		fmt.Fprintf(&b, "platform:\n  crossbar: {beta: 0.01, alpha: 0.001, duplex: half, processors: %s}\n", gen(1000, 1))
	}
	b.WriteString("problem: {divisible: {rounds: auto}}\npolicies: [divisible-lp]\n")
	path := filepath.Join(t.TempDir(), "lp.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDivisibleLPMemoryBudget checks that divisible-lp on a multi-cluster
// whose simplex tableau is above --max-memory is refused before it runs,
// with exit status 2 and the estimate.
func TestDivisibleLPMemoryBudget(t *testing.T) {
	path := largeDivisibleLP(t, true)
	code, _, errs := netsched(t, "run", path, "--max-memory", "100MB")
	if code != 2 || !strings.Contains(errs, "divisible-lp: the optimal round's simplex tableau on 1000 processors needs about 292 MiB") {
		t.Errorf("exit %d, stderr %q; want 2 and the tableau's estimate", code, errs)
	}
}

// TestDivisibleLPTimeout is a wall-clock test (NETSCHED_TIMING=1; .ci/run
// runs it alone): divisible-lp on a 1,000-processor crossbar ends within
// 6 s under --timeout 5s (it finishes: its search is O(P) per step), and
// on 100 clusters of 10, whose simplex runs for minutes, --timeout 5s and
// Ctrl-C stop it with exit 124 and 130 within a second.
func TestDivisibleLPTimeout(t *testing.T) {
	slowtest.Timing(t)
	for _, tc := range []struct {
		name      string
		multi     bool
		interrupt bool
		codes     []int
		within    time.Duration
	}{
		{"crossbar", false, false, []int{0, exitTimeout}, 6 * time.Second},
		{"multicluster/timeout", true, false, []int{exitTimeout}, 6 * time.Second},
		{"multicluster/ctrl-c", true, true, []int{exitInterrupt}, 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := largeDivisibleLP(t, tc.multi)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			timeout := "5s"
			if tc.interrupt {
				timeout = "0"
				time.AfterFunc(2*time.Second, cancel)
			}
			var stdout, stderr bytes.Buffer
			start := time.Now()
			code := run(ctx, []string{"run", path, "--timeout", timeout}, &stdout, &stderr)
			took := time.Since(start)
			t.Logf("exit %d after %v", code, took)
			ok := false
			for _, c := range tc.codes {
				ok = ok || code == c
			}
			if !ok || took > tc.within {
				t.Errorf("exit %d after %v, stderr %q; want one of %v within %v", code, took, stderr.String(), tc.codes, tc.within)
			}
		})
	}
}

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/netsched/netsched/internal/cputime"
)

// bigCrossbar writes a scenario of a crossbar of n processors drawn by a
// generator, a quarter of them holding load, planned by policies.
func bigCrossbar(tb testing.TB, n int, policies string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "big.yaml")
	text := fmt.Sprintf("name: crossbar-big\nplatform:\n  crossbar:\n    beta: 0.01\n    alpha: 0.001\n    duplex: half\n"+
		"    processors: {count: %d, seed: 1, gamma: {uniform: [0.05, 0.2]}, load: {choice: [0, 0, 0, 100]}}\n"+
		"problem:\n  divisible: {rounds: auto}\npolicies: [%s]\n", n, policies)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestBigCrossbarRuns runs a generated crossbar end to end through the
// command, every schedule verified.
func TestBigCrossbarRuns(t *testing.T) {
	path := bigCrossbar(t, 2000, "no-redistribution, single-round, direct")
	if code, out, errs := netsched(t, "run", path); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

// BenchmarkRunBigCrossbar is `netsched run` on a generated crossbar of
// 10^6 processors with no-redistribution, end to end: load (drawing the
// platform), plan, replay with its trace, problem check and the table on
// stdout. Issue 15's goal: under 10 s and 2 GB (max RSS: /usr/bin/time -v
// on the command, see results/benchmarks.md).
func BenchmarkRunBigCrossbar(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		path := bigCrossbar(b, n, "no-redistribution")
		b.Run(fmt.Sprintf("processors=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				if code := run(context.Background(), []string{"run", path}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric((cputime.Process()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}

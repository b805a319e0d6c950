//go:build unix

package sweep

import (
	"bytes"
	"context"
	"errors"
	"github.com/netsched/netsched/sweep/axis"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/atomicfile"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// killPlan is a small sweep for the kill tests.
func killPlan(t *testing.T) *Plan {
	t.Helper()
	sc, err := scenarios.Load("delay-small")
	if err != nil {
		t.Fatal(err)
	}
	ax, err := axis.ParseSet("rho=0:49:1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(sc, []axis.Axis{ax}, 2, 1, sim.Timed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// files lists a directory's file names.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestKilledFinalWrite kills a sweep at each step of its final write (and
// leaves a temporary file of a write cut short), reruns it, and requires
// the complete results, byte for byte those of an uninterrupted run, and
// nothing else in the directory.
func TestKilledFinalWrite(t *testing.T) {
	p := killPlan(t)
	wantDir := t.TempDir()
	want := filepath.Join(wantDir, "r.csv")
	if _, err := Run(context.Background(), p, Options{Out: want}); err != nil {
		t.Fatal(err)
	}
	wantCSV, _ := os.ReadFile(want)
	wantMan, _ := os.ReadFile(ManifestPath(want))
	for _, step := range []string{"manifest", "csv"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "r.csv")
			_, err := Run(context.Background(), p, Options{Out: out, killedAt: func(s string) bool { return s == step }})
			if !errors.Is(err, errKilled) {
				t.Fatalf("not killed at %s: %v", step, err)
			}
			if !slices.Contains(files(t, dir), "r.csv.lock") {
				t.Fatalf("the killed sweep left no lock file: %v", files(t, dir))
			}
			stale := filepath.Join(dir, atomicfile.TempPrefix("r.csv")+"cut")
			if err := os.WriteFile(stale, []byte("half a CSV"), 0o666); err != nil {
				t.Fatal(err)
			}
			if _, err := Run(context.Background(), p, Options{Out: out}); err != nil {
				t.Fatalf("rerun: %v", err)
			}
			gotCSV, _ := os.ReadFile(out)
			gotMan, _ := os.ReadFile(ManifestPath(out))
			if !bytes.Equal(gotCSV, wantCSV) || !bytes.Equal(gotMan, wantMan) {
				t.Errorf("results after a kill at %s differ from an uninterrupted run", step)
			}
			if got := files(t, dir); !slices.Equal(got, []string{"r.csv", "r.csv.sweep.json"}) {
				t.Errorf("left in the directory: %v", got)
			}
		})
	}
}

// TestLockHeld runs a sweep on a file whose lock another holder has: it
// stops at once, naming the holder, and writes nothing.
func TestLockHeld(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	held, err := lockOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), killPlan(t), Options{Out: out})
	if _, ok := errors.AsType[*OutputError](err); !ok || !strings.Contains(err.Error(), "another sweep (pid ") {
		t.Fatalf("got %v, want an OutputError naming the holder", err)
	}
	if got := files(t, dir); !slices.Equal(got, []string{"r.csv.lock"}) {
		t.Errorf("written: %v", got)
	}
	if err := held.unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), killPlan(t), Options{Out: out}); err != nil {
		t.Fatalf("once the lock is free: %v", err)
	}
}

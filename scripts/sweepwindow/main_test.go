package main

import (
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/internal/slowtest"
)

// TestMeasure counts the runs of a short window: whole sweeps of 1,000
// runs at a plausible rate, with their CPU time where the system reports it.
// The window is wall-clock time, which a loaded machine may leave without
// a whole sweep: NETSCHED_TIMING=1 runs it.
func TestMeasure(t *testing.T) {
	slowtest.Timing(t)
	start := time.Now().Add(20 * time.Millisecond)
	rate, cpuPerRun, err := measure(start, start.Add(300*time.Millisecond), 1)
	if err != nil {
		t.Fatal(err)
	}
	if rate < 1000 || rate > 1e8 {
		t.Errorf("rate = %g runs/s, not a plausible rate for 1,000-run sweeps", rate)
	}
	if cputime.Process() >= 0 && !(cpuPerRun > 0 && cpuPerRun < 1e7) {
		t.Errorf("CPU time per run = %g ns, want a positive figure under 10 ms", cpuPerRun)
	}
}

// TestMeasureWindowTooShort is an error, not a rate from no runs.
func TestMeasureWindowTooShort(t *testing.T) {
	past := time.Now().Add(-time.Second)
	_, _, err := measure(past, past.Add(time.Nanosecond), 1)
	if err == nil || !strings.Contains(err.Error(), "shorter than one sweep") {
		t.Errorf("err = %v, want the window is shorter than one sweep", err)
	}
}

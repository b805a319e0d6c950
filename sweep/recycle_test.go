package sweep_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
)

// TestRecycledSchedulesEqualFresh plans every policy of every bundled
// scenario twice: fresh, and with Instance.Recycle holding the schedule
// the previous policy returned (of another policy, often of another
// scenario, as a sweep's worker hands it on). Both schedules must encode to
// the same JSON, byte for byte.
func TestRecycledSchedulesEqualFresh(t *testing.T) {
	ctx := context.Background()
	var spare *sim.Schedule
	recycled := 0
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, spec := range sc.Policies {
			entry, _ := policies.Lookup(spec.Name)
			fresh, errFresh := entry.Planner.Plan(ctx, sc.Instance(i, 1))
			in := sc.Instance(i, 1)
			in.Recycle = spare
			got, err := entry.Planner.Plan(ctx, in)
			if (err == nil) != (errFresh == nil) {
				t.Fatalf("%s, %s: fresh error %v, recycled error %v", name, spec.Name, errFresh, err)
			}
			if err != nil {
				continue
			}
			if got == spare && spare != nil {
				recycled++
			}
			a, errA := json.Marshal(fresh)
			b, errB := json.Marshal(got)
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				t.Fatalf("%s, %s: the schedule built in a recycled one differs from a fresh one (%v, %v)", name, spec.Name, errA, errB)
			}
			spare = got
		}
	}
	if recycled == 0 {
		t.Error("no policy built its schedule in the recycled one")
	}
}

// TestSweepRowsEqualOne checks that a sweep whose workers recycle
// schedules and reuse replay engines gives, row for row, what runs.One gives
// for the same point, policy and seed from scratch: the bundled scenarios
// of papers 000, 001 and 002 with their own sweep axes, on 2 workers.
func TestSweepRowsEqualOne(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"delay-small", "mmdl-beta-no-overlap", "mmdl-rounds", "multicluster-beta", "multicluster-relay"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sweep.NewPlan(sc, sc.Sweep, 1, 1, sim.Timed)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := sweep.Run(ctx, p, sweep.Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		jobs := p.Jobs()
		for k, r := range tab.Rows {
			j := jobs[k]
			point, err := p.Scenario(j.Point)
			if err != nil {
				t.Fatal(err)
			}
			want, err := runs.One(ctx, point, j.Policy, j.Seed, sim.Timed)
			if err != nil {
				t.Fatal(err)
			}
			if r.Claimed != want.Claimed || r.Simulated != want.Simulated || len(r.Violations) != len(want.Violations) ||
				!maps.Equal(r.Metrics, want.Metrics) || !slices.Equal(r.Warnings, want.Warnings) {
				t.Fatalf("%s at %v, %s: sweep row %+v, runs.One %+v", name, r.Point, r.Policy, r, want)
			}
		}
	}
}

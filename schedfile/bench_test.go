package schedfile_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schedfile"
)

// BenchmarkReadBundled reads the schedule a bundled scenario's policy
// makes, as an external policy's reply is read: clustering-gauss, whose
// 300-task graph issue 18 measured. It reads the file by the token walk
// Read used before (and falls back to) and by Read, which also copies
// the bytes, one after the other in the same run.
func BenchmarkReadBundled(b *testing.B) {
	const scenario, policy = "clustering-gauss", "dsc"
	sc, err := scenarios.Load(scenario)
	if err != nil {
		b.Fatal(err)
	}
	i := -1
	for k, spec := range sc.Policies {
		if spec.Name == policy {
			i = k
		}
	}
	if i < 0 {
		b.Fatalf("%s has no policy %s", scenario, policy)
	}
	entry, _ := policies.Lookup(policy)
	s, err := entry.Planner.Plan(context.Background(), sc.Instance(i, 1))
	if err != nil {
		b.Fatal(err)
	}
	data := writeSchedule(b, s)
	p := &sc.Platform
	b.Run(fmt.Sprintf("%s/%s/actions=%d/tokens", scenario, policy, len(s.Actions)), func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := schedfile.ParseScheduleTokens(data, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("%s/%s/actions=%d/scan", scenario, policy, len(s.Actions)), func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := schedfile.Read(bytes.NewReader(data), p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package schemas_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schedfile"
	"github.com/netsched/netsched/schemas"
	"github.com/netsched/netsched/sim"
)

// scheduleFile is the schedule file of a bundled scenario's policy, as
// netsched run --out writes it, with its scenario.
func scheduleFile(b *testing.B, scenario, policy string) ([]byte, *scenarios.Scenario) {
	b.Helper()
	sc, err := scenarios.Load(scenario)
	if err != nil {
		b.Fatal(err)
	}
	for i, spec := range sc.Policies {
		if spec.ID() != policy {
			continue
		}
		row, err := runs.One(context.Background(), sc, i, 1, sim.Timed)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := row.Schedule.WriteJSON(&buf); err != nil {
			b.Fatal(err)
		}
		return buf.Bytes(), sc
	}
	b.Fatalf("%s has no policy %s", scenario, policy)
	return nil, nil
}

// BenchmarkScheduleFile compares validating a schedule file against the
// schema (decoding included) with reading it as netsched verify does.
func BenchmarkScheduleFile(b *testing.B) {
	schema, err := schemas.Compile(schemas.ScheduleFile)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ scenario, policy string }{
		{"clustering-gauss", "dsc"},
		{"mmdl-rounds", "mmdl"},
	} {
		data, sc := scheduleFile(b, c.scenario, c.policy)
		b.Run(c.scenario+"/"+c.policy+"/validate", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if err := schema.Validate(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.scenario+"/"+c.policy+"/read", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := schedfile.Read(bytes.NewReader(data), &sc.Platform); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

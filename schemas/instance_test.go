package schemas_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/netsched/netsched/models"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/policies/external"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schemas"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
)

// instanceSchema compiles instance.schema.json, which refers to the
// scenario schema's platform and problem.
func instanceSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	s, err := schemas.Compile(schemas.InstanceFile)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// validate validates one instance as written.
func validate(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// TestInstancesOfBundledScenarios validates the instance of every policy
// of every bundled scenario at every point of its sweep, as
// external.NewInstance makes it, and the instance a child process really
// reads on a bundled scenario's own values.
func TestInstancesOfBundledScenarios(t *testing.T) {
	s := instanceSchema(t)
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := sweep.NewPlan(sc, sc.Sweep, 1, 1, sim.Timed)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for k := range plan.Points {
			pt, err := plan.Scenario(k)
			if err != nil {
				t.Fatalf("%s, point %d: %v", name, k, err)
			}
			for i, spec := range pt.Policies {
				data, err := external.NewInstance(pt.Instance(i, 3), spec.ID()).Marshal()
				if err != nil {
					t.Fatal(err)
				}
				if err := validate(s, data); err != nil {
					t.Errorf("%s, point %v, policy %s: %v", name, plan.Points[k], spec.ID(), err)
				}
			}
		}
		if data := readByProcess(t, sc); data != nil {
			if err := validate(s, data); err != nil {
				t.Errorf("%s, as read by a process: %v", name, err)
			}
		}
	}
}

// readByProcess runs an external policy on sc that saves its standard
// input and fails, and returns what it saved.
func readByProcess(t *testing.T, sc *scenarios.Scenario) []byte {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		return nil
	}
	file := filepath.Join(t.TempDir(), "instance.json")
	c := *sc
	c.Policies = []scenarios.PolicySpec{{Label: "capture", Options: map[string]any{"k": 2, "how": "greedy", "fast": true},
		Exec: &external.Spec{Command: []string{"/bin/sh", "-c", "cat > " + file + "; exit 1"}}}}
	if _, err := runs.One(context.Background(), &c, 0, 1, sim.Timed); err == nil || !strings.Contains(err.Error(), "exit status 1") {
		t.Fatalf("%s: the capturing policy gave %v", sc.Name, err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestInstanceEdgeCases validates instances the bundled scenarios do not
// show: a task graph without edges or task names, options of each kind.
func TestInstanceEdgeCases(t *testing.T) {
	s := instanceSchema(t)
	sc, err := scenarios.Parse("edge.yaml", []byte(`
platform: {delay: {rho: 1, processors: 2}}
problem: {dag: {tasks: [{weight: 1}, {weight: 0}]}}
policies: [sequential]
`))
	if err != nil {
		t.Fatal(err)
	}
	in := sc.Instance(0, 0)
	in.Options = map[string]any{"n": 3, "x": 0.5, "s": "word", "b": false}
	data, err := external.NewInstance(in, "mine").Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(s, data); err != nil {
		t.Errorf("%s: %v", data, err)
	}
	var x external.Instance
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	if x.Problem.DAG.Tasks[1].Name != "t1" || x.Problem.DAG.Edges == nil || len(x.Nodes) != 2 {
		t.Errorf("written as %s", data)
	}
	if sc.Problem.DAG.Tasks[1].Name != "" {
		t.Errorf("writing the instance named the scenario's own task")
	}
}

// TestInstanceSchemaRejects checks that the schema says no to instances
// that break the format.
func TestInstanceSchemaRejects(t *testing.T) {
	s := instanceSchema(t)
	in := instanceOf(t)
	good, err := in.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := validate(s, good); err != nil {
		t.Fatalf("the base instance %s: %v", good, err)
	}
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
	}{
		{"no nodes", func(m map[string]any) { delete(m, "nodes") }},
		{"unknown field", func(m map[string]any) { m["deadline"] = 3 }},
		{"other format", func(m map[string]any) { m["format"] = "netsched-instance/2" }},
		{"negative seed", func(m map[string]any) { m["seed"] = -1 }},
		{"bad label", func(m map[string]any) { m["policy"] = "a.b" }},
		{"list option", func(m map[string]any) { m["options"] = map[string]any{"k": []any{1}} }},
		{"graph by file", func(m map[string]any) { dag(m)["from"] = map[string]any{"fft": 4} }},
		{"task without name", func(m map[string]any) { delete(dag(m)["tasks"].([]any)[0].(map[string]any), "name") }},
		{"no edges", func(m map[string]any) { delete(dag(m), "edges") }},
		{"two platforms", func(m map[string]any) { m["platform"].(map[string]any)["tree"] = map[string]any{} }},
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		tc.edit(m)
		data, _ := json.Marshal(m)
		if err := validate(s, data); err == nil {
			t.Errorf("%s: %s validates", tc.name, data)
		}
	}
}

func dag(m map[string]any) map[string]any {
	return m["problem"].(map[string]any)["dag"].(map[string]any)
}

// instanceOf is the instance of bundled scenario delay-small's first
// policy.
func instanceOf(t *testing.T) external.Instance {
	t.Helper()
	sc, err := scenarios.Load("delay-small")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Platform.Kind() != models.KindDelay {
		t.Fatal("delay-small is not on the delay platform")
	}
	return external.NewInstance(sc.Instance(0, 1), "mine")
}

// TestInstanceSchemaMatchesGoType checks that the schema's properties, all
// required, are the JSON fields of external.Instance; its platform and
// problem are the scenario schema's, which TestScenarioSchemaMatchesGoTypes
// holds to the Go types, and every instance of the bundled scenarios
// validates (TestInstancesOfBundledScenarios).
func TestInstanceSchemaMatchesGoType(t *testing.T) {
	data, err := fs.ReadFile(schemas.Files(), schemas.InstanceFile)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Properties           map[string]any `json:"properties"`
		Required             []string       `json:"required"`
		AdditionalProperties bool           `json:"additionalProperties"`
	}
	root.AdditionalProperties = true
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	var fields []string
	for f := range reflect.TypeFor[external.Instance]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		fields = append(fields, name)
	}
	slices.Sort(fields)
	if props := slices.Sorted(maps.Keys(root.Properties)); !slices.Equal(props, fields) {
		t.Errorf("schema properties %v, want external.Instance's fields %v", props, fields)
	}
	if req := slices.Sorted(slices.Values(root.Required)); !slices.Equal(req, fields) {
		t.Errorf("schema requires %v, want every field %v", req, fields)
	}
	if root.AdditionalProperties {
		t.Error("the schema must forbid unknown properties")
	}
}

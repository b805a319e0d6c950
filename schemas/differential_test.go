package schemas_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schemas"
	"github.com/netsched/netsched/sim"
)

// forgiven reports whether every error the schema found is one the YAML
// decoder forgives: null where a value is expected (the field is left
// out), a number or true/false where text is expected (read as its text),
// and a number with a fraction where a whole one is expected (which the
// decoder truncates: "seeds: 10.5" runs 10 seeds). The schema asks for the
// canonical form in each case.
func forgiven(err error, doc any) bool {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	for _, leaf := range leaves {
		v, ok := valueAt(doc, leaf.InstanceLocation)
		if !ok {
			return false
		}
		if v == nil {
			continue
		}
		typ, isType := leaf.ErrorKind.(*kind.Type)
		if !isType {
			return false
		}
		switch x := v.(type) {
		case int, float64, bool:
			if slices.Contains(typ.Want, "string") {
				continue
			}
			if f, ok := x.(float64); ok && slices.Contains(typ.Want, "integer") && f != math.Trunc(f) {
				continue
			}
		}
		return false
	}
	return len(leaves) > 0
}

// valueAt is the value at a location (keys and indices) in a JSON value.
func valueAt(v any, loc []string) (any, bool) {
	for _, key := range loc {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// TestScenarioMutations is a differential test of the loader and the
// scenario schema: seeded random changes to the bundled scenarios (a
// field removed, a value of another type or sign, an unknown key, an
// element repeated or dropped), each written back as YAML. Whatever the
// loader accepts, the schema must accept. What the loader rejects and the
// schema accepts is counted only: the schema leaves cross-field rules to
// the loader. Mutants the loader accepts only because YAML forgives them
// (forgiven) are counted apart.
func TestScenarioMutations(t *testing.T) {
	s := compile(t, schemas.ScenarioFile)
	files, err := filepath.Glob("../scenarios/bundled/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled scenarios: %v", err)
	}
	perFile := slowtest.Pick(40, 150)
	if testing.Short() {
		perFile = 20
	}
	var accepted, rejectedBoth, schemaOnly, lenient int
	for fi, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for k := range perFile {
			r := rand.New(rand.NewPCG(uint64(fi), uint64(k)))
			v, err := schemas.YAMLValue(data)
			if err != nil {
				t.Fatal(err)
			}
			what := mutate(r, &v, "")
			out, err := yaml.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			_, loadErr := scenarios.Parse("mutant.yaml", out)
			schemaErr := validateYAML(s, out)
			switch {
			case loadErr == nil && schemaErr != nil && forgiven(schemaErr, v):
				lenient++
			case loadErr == nil && schemaErr != nil:
				t.Errorf("%s, %s: the loader accepts it, the schema rejects it: %v", filepath.Base(file), what, schemaErr)
			case loadErr == nil:
				accepted++
			case schemaErr != nil:
				rejectedBoth++
			default:
				schemaOnly++
			}
		}
	}
	t.Logf("%d mutants: %d accepted by both, %d rejected by both, %d rejected by the loader only, %d accepted by the loader only as YAML forgives them",
		accepted+rejectedBoth+schemaOnly+lenient, accepted, rejectedBoth, schemaOnly, lenient)
}

// mutate changes one place of the JSON value *v, chosen at random, and
// says what it did.
func mutate(r *rand.Rand, v *any, at string) string {
	switch x := (*v).(type) {
	case map[string]any:
		if len(x) > 0 && r.IntN(4) > 0 {
			keys := sortedKeys(x)
			k := keys[r.IntN(len(keys))]
			child := x[k]
			what := mutate(r, &child, at+"."+k)
			x[k] = child
			return what
		}
		switch r.IntN(2) {
		case 0:
			x["unknown_key"] = 1
			return at + ": unknown key added"
		default:
			if len(x) == 0 {
				return at + ": unchanged"
			}
			keys := sortedKeys(x)
			k := keys[r.IntN(len(keys))]
			delete(x, k)
			return at + "." + k + ": removed"
		}
	case []any:
		if len(x) > 0 && r.IntN(4) > 0 {
			i := r.IntN(len(x))
			what := mutate(r, &x[i], fmt.Sprintf("%s[%d]", at, i))
			return what
		}
		switch {
		case len(x) == 0:
			*v = []any{1}
			return at + ": element added"
		case r.IntN(2) == 0:
			*v = append(x, x[len(x)-1])
			return at + ": last element repeated"
		default:
			*v = x[:len(x)-1]
			return at + ": last element dropped"
		}
	}
	replacements := []any{"word", -1, 0, 0.5, 2, 1e300, true, nil, []any{1}, map[string]any{"a": 1}, "auto", "1:2:0.5"}
	if f, ok := (*v).(float64); ok {
		replacements = append(replacements, -f, f*2)
	}
	if n, ok := (*v).(int); ok {
		replacements = append(replacements, -n, n+1, float64(n)+0.5)
	}
	*v = replacements[r.IntN(len(replacements))]
	return fmt.Sprintf("%s: replaced by %v", at, *v)
}

// sortedKeys lists the keys of m in order, so that mutations follow the
// seed alone.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestScheduleMutations is the differential test of the schedule reader
// (with the replay's check of each action, in ordered mode, which needs
// no planned starts) and the schedule schema, on seeded random changes to
// the schedules of bundled scenarios' policies (their first 40 actions):
// whatever netsched verify accepts, the schema must accept.
func TestScheduleMutations(t *testing.T) {
	s := compile(t, schemas.ScheduleFile)
	perSchedule := 60
	if testing.Short() {
		perSchedule = 10
	}
	var accepted, rejectedBoth, schemaOnly int
	for _, name := range []string{"crossbar-hetero", "delay-small", "tree-small", "multicluster-two"} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, spec := range sc.Policies {
			row, err := runs.One(context.Background(), sc, i, 1, sim.Timed)
			if err != nil {
				t.Fatalf("%s %s: %v", name, spec.ID(), err)
			}
			short := *row.Schedule // its first actions are enough, and fast to replay
			short.Actions = short.Actions[:min(len(short.Actions), 40)]
			var buf bytes.Buffer
			if err := short.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			for k := range perSchedule {
				r := rand.New(rand.NewPCG(uint64(i), uint64(k)))
				var v any
				if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
					t.Fatal(err)
				}
				what := mutate(r, &v, "")
				out, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				netschedErr := readAndReplay(sc, string(out))
				schemaErr := validateJSON(s, out)
				switch {
				case netschedErr == nil && schemaErr != nil:
					t.Errorf("%s %s, %s: netsched accepts it, the schema rejects it: %v", name, spec.ID(), what, schemaErr)
				case netschedErr == nil:
					accepted++
				case schemaErr != nil:
					rejectedBoth++
				default:
					schemaOnly++
				}
			}
		}
	}
	t.Logf("%d mutants: %d accepted by both, %d rejected by both, %d rejected by netsched only",
		accepted+rejectedBoth+schemaOnly, accepted, rejectedBoth, schemaOnly)
}

package sweep

import (
	"reflect"
	"testing"

	"github.com/netsched/netsched/scenarios"
)

// TestResolveFields checks that a path whose field indices were resolved
// once from the types sets exactly what the same path found by key sets:
// through pointers, list indices, an inline struct (a tree edge's link
// parameters) and into a map (an overlap table); and that neither changes
// the scenario it was set on a shallow copy of.
func TestResolveFields(t *testing.T) {
	for _, tc := range []struct{ scenario, path string }{
		{"crossbar-hetero", "platform.crossbar.beta"},
		{"crossbar-hetero", "platform.crossbar.processors[1].gamma"},
		{"crossbar-hetero", "platform.crossbar.processors[0].overlap.send"},
		{"tree-small", "platform.tree.edges[4].bandwidth"},
		{"multicluster-two", "platform.multicluster.clusters[1].beta"},
		{"delay-small", "problem.dag.tasks[3].weight"},
	} {
		s, err := scenarios.Load(tc.scenario)
		if err != nil {
			t.Fatal(err)
		}
		orig, _ := scenarios.Load(tc.scenario)
		byKey, err := splitPath(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		resolved, _ := splitPath(tc.path)
		resolveFields(resolved)
		for i, st := range resolved {
			if i > 0 && !st.IsIndex && st.field == nil && i < len(resolved)-1 {
				t.Errorf("%s: step %q not resolved", tc.path, st.Key)
			}
		}
		a, b := *s, *s
		if err := setSteps(&a, byKey, 7); err != nil {
			t.Fatalf("%s by key: %v", tc.path, err)
		}
		if err := setSteps(&b, resolved, 7); err != nil {
			t.Fatalf("%s resolved: %v", tc.path, err)
		}
		if !reflect.DeepEqual(a.Platform, b.Platform) || !reflect.DeepEqual(a.Problem, b.Problem) {
			t.Errorf("%s: resolved and by-key paths set different fields", tc.path)
		}
		if reflect.DeepEqual(a.Platform, s.Platform) && reflect.DeepEqual(a.Problem, s.Problem) {
			t.Errorf("%s: setting 7 changed nothing", tc.path)
		}
		if !reflect.DeepEqual(s.Platform, orig.Platform) || !reflect.DeepEqual(s.Problem, orig.Problem) {
			t.Errorf("%s: setting a shallow copy changed the scenario", tc.path)
		}
	}
}

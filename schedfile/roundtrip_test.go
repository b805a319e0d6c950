package schedfile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all" // bundled scenarios name every family's policies
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schedfile"
	"github.com/netsched/netsched/sim"
)

// TestScheduleRoundTrip writes the schedule of every policy of every
// bundled scenario and reads it back, with nodes as indices (and, for each
// scenario's first policy, as the platform's names): each reads back to
// the same JSON, byte for byte.
func TestScheduleRoundTrip(t *testing.T) {
	ctx := context.Background()
	kinds := map[string]bool{}
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, spec := range sc.Policies {
			entry, _ := policies.Lookup(spec.Name)
			s, err := entry.Planner.Plan(ctx, sc.Instance(i, 1))
			if err != nil {
				continue // a policy that does not apply; its own tests say so
			}
			written := writeSchedule(t, s)
			checkReadsBack(t, name+"/"+spec.Name+" by index", written, written, nil)
			if i == 0 { // by name once per scenario: reading names costs what reading indices does
				checkReadsBack(t, name+"/"+spec.Name+" by name", byName(t, written, &sc.Platform), written, &sc.Platform)
			}
			if len(s.Actions) > 0 {
				kinds[sc.Platform.Kind()] = true
			}
		}
	}
	for _, k := range []string{models.KindCrossbar, models.KindMultiCluster, models.KindTree, models.KindDelay, models.KindWorkstations} {
		if !kinds[k] {
			t.Errorf("no bundled schedule on a %s platform", k)
		}
	}
}

// writeSchedule is s as WriteJSON writes it.
func writeSchedule(t testing.TB, s *sim.Schedule) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkReadsBack reads file with platform p and checks that it writes
// want.
func checkReadsBack(t *testing.T, what string, file, want []byte, p *models.Platform) {
	t.Helper()
	s, err := schedfile.Read(bytes.NewReader(file), p)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := writeSchedule(t, s); !bytes.Equal(got, want) {
		t.Fatalf("%s: read back as\n%s\nwant\n%s", what, got, want)
	}
}

// byName rewrites the node fields of a written schedule as the names p
// gives the nodes.
func byName(t *testing.T, written []byte, p *models.Platform) []byte {
	t.Helper()
	var file map[string]any
	if err := json.Unmarshal(written, &file); err != nil {
		t.Fatal(err)
	}
	actions, _ := file["actions"].([]any)
	for _, a := range actions {
		a := a.(map[string]any)
		for _, key := range []string{"node", "from", "to"} {
			if i, ok := a[key].(float64); ok {
				a[key] = p.NodeName(int(i))
			}
		}
	}
	named, err := json.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	return named
}

// TestReadNamesOnEveryPlatform checks that a node's given name and the
// default name of an unnamed node resolve on each kind of platform.
func TestReadNamesOnEveryPlatform(t *testing.T) {
	tests := []struct {
		name  string
		p     *models.Platform
		nodes map[string]int
	}{
		{"crossbar", &models.Platform{Crossbar: &models.Crossbar{Processors: []models.Processor{{Name: "a"}, {}}}},
			map[string]int{"a": 0, "P1": 1}},
		{"multicluster", &models.Platform{MultiCluster: &models.MultiCluster{Clusters: []models.Cluster{
			{Processors: []models.Processor{{Name: "c0"}}}, {Processors: []models.Processor{{}, {Name: "c2"}}}}}},
			map[string]int{"c0": 0, "P1": 1, "c2": 2}},
		{"tree", &models.Platform{Tree: &models.Tree{Nodes: []models.TreeNode{{Name: "root"}, {Name: "sw"}, {Name: "leaf4"}}}},
			map[string]int{"root": 0, "sw": 1, "leaf4": 2}},
		{"workstations", &models.Platform{Workstations: &models.Workstations{Processors: []models.Workstation{{}, {Name: "ws1"}}}},
			map[string]int{"P0": 0, "ws1": 1}},
		{"delay", &models.Platform{Delay: &models.Delay{}}, map[string]int{"P0": 0, "P12": 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, want := range tt.nodes {
				in := `{"actions": [{"kind": "compute", "node": "` + name + `"}]}`
				s, err := schedfile.Read(bytes.NewReader([]byte(in)), tt.p)
				if err != nil || s.Actions[0].Node != want {
					t.Errorf("node %q: got %+v, %v; want node %d", name, s, err, want)
				}
			}
		})
	}
}

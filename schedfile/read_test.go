package schedfile

import (
	"context"
	"errors"
	"github.com/netsched/netsched/internal/fixture"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// namedCrossbar is a crossbar of three processors: "root", an unnamed one
// (P1) and "leaf".
func namedCrossbar() *models.Platform {
	ps := fixture.Procs(3, 1)
	ps[0].Name, ps[2].Name = "root", "leaf"
	return fixture.Crossbar(models.HalfDuplex, 1, 0, ps...)
}

// oneAction is a schedule file whose only action, on line 4, is action.
func oneAction(action string) string {
	return "{\n  \"claimed_makespan\": 1,\n  \"actions\": [\n    " + action + "\n  ]\n}\n"
}

// TestReadScheduleRejects checks that each bad file is an error at the
// line of the fault, naming the field by its path when there is one.
func TestReadScheduleRejects(t *testing.T) {
	const compute = `{"kind": "compute", "node": 0, "amount": 1}`
	tests := []struct {
		name   string
		in     string
		noPlat bool   // read without a platform
		path   string // the FieldError's path; "" for none
		line   int
		msg    string // part of the message
	}{
		{"null", "null", false, "", 1, "got null"},
		{"empty", "", false, "", 1, "empty"},
		{"white space only", " \n\t\n", false, "", 3, "empty"},
		{"a list", "[]", false, "", 1, "got a list"},
		{"trailing garbage", "{\"actions\": []}\ngarbage\n", false, "", 2, "more data after"},
		{"two objects", "{\"actions\": []}\n{\"actions\": []}\n", false, "", 2, "more data after"},
		{"truncated", "{\n\"actions\": [\n" + compute, false, "", 3, "ends before"},
		{"syntax error", oneAction(`{"kind": "compute",}`), false, "", 4, "invalid character"},
		{"unknown field", oneAction(`{"kind": "compute", "nodes": 1}`), false, "actions[0].nodes", 4, "unknown field (known here: kind, node,"},
		{"unknown top-level field", "{\n\"claimed\": 1}", false, "claimed", 2, "known here: policy, claimed_makespan"},
		{"repeated field", oneAction(`{"kind": "compute", "node": 0, "node": 1}`), false, "actions[0].node", 4, "given twice"},
		{"repeated metric", `{"metrics": {"T": 1, "T": 2}}`, false, "metrics.T", 1, "given twice"},
		{"name of no node", oneAction(`{"kind": "compute", "node": "P99"}`), false, "actions[0].node", 4, `no node is named "P99" (the platform has 3 nodes: root, P1, leaf)`},
		{"default name of a named node", oneAction(`{"kind": "transfer", "from": "P0", "to": 1}`), false, "actions[0].from", 4, `no node is named "P0"`},
		{"name without a platform", oneAction(`{"kind": "compute", "node": "root"}`), true, "actions[0].node", 4, "need the scenario's platform"},
		{"fractional index", oneAction(`{"kind": "compute", "node": 1.5}`), false, "actions[0].node", 4, "an integer >= 0) or a node name, got 1.5"},
		{"negative index", oneAction(`{"kind": "transfer", "from": 0, "to": -1}`), false, "actions[0].to", 4, "got -1"},
		{"index too large for an int", oneAction(`{"kind": "compute", "node": 1e30}`), false, "actions[0].node", 4, "got 1e30"},
		{"node null", oneAction(`{"kind": "compute", "node": null}`), false, "actions[0].node", 4, "got null"},
		{"node a list", oneAction(`{"kind": "compute", "node": [0]}`), false, "actions[0].node", 4, "got a list"},
		{"amount a string", oneAction(`{"kind": "compute", "amount": "ten"}`), false, "actions[0].amount", 4, `must be a number, got "ten"`},
		{"amount too large", oneAction(`{"kind": "compute", "amount": 1e400}`), false, "actions[0].amount", 4, "finite number, got 1e400"},
		{"end too large", oneAction(`{"kind": "compute", "end": 1e400}`), false, "actions[0].end", 4, "got 1e400"},
		{"start a string", oneAction(`{"kind": "compute", "start": "0"}`), false, "actions[0].start", 4, "must be a number"},
		{"kind a number", oneAction(`{"kind": 3}`), false, "actions[0].kind", 4, "must be a string, got 3"},
		{"label an object", oneAction(`{"kind": "compute", "label": {}}`), false, "actions[0].label", 4, "got an object"},
		{"round fractional", oneAction(`{"kind": "compute", "round": 1.5}`), false, "actions[0].round", 4, "must be an integer"},
		{"after not a list", oneAction(`{"kind": "compute", "after": 0}`), false, "actions[0].after", 4, "must be a list of action indices"},
		{"after fractional", oneAction(`{"kind": "compute", "after": [0, 0.5]}`), false, "actions[0].after[1]", 4, "got 0.5"},
		{"actions an object", "{\n\"actions\": {}}", false, "actions", 2, "must be a list of actions, got an object"},
		{"action a number", oneAction(`1`), false, "actions[0]", 4, "want an action"},
		{"claimed a string", `{"claimed_makespan": "1"}`, false, "claimed_makespan", 1, "must be a number"},
		{"policy a number", `{"policy": 1}`, false, "policy", 1, "must be a string"},
		{"metrics a list", `{"metrics": []}`, false, "metrics", 1, "object of named numbers"},
		{"metric a string", `{"metrics": {"T": "x"}}`, false, "metrics.T", 1, `got "x"`},
		{"warnings a string", `{"warnings": "w"}`, false, "warnings", 1, "must be a list of strings"},
		{"warning a number", `{"warnings": ["w", 2]}`, false, "warnings[1]", 1, "must be a string, got 2"},
		{"compute with from", oneAction(`{"kind": "compute", "node": 0, "from": 1}`), false, "actions[0].from", 4, "has a node, not from and to"},
		{"transfer with node", oneAction(`{"kind": "transfer", "node": 0, "from": 1, "to": 2}`), false, "actions[0].node", 4, "has from and to, not a node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := namedCrossbar()
			if tt.noPlat {
				p = nil
			}
			s, err := Read(strings.NewReader(tt.in), p)
			checkScheduleError(t, s, err, tt.path, tt.line, tt.msg)
		})
	}
}

// checkScheduleError checks that err is a *Error at line whose
// message holds msg, of a *models.FieldError at path if path is not "".
func checkScheduleError(t *testing.T, s *sim.Schedule, err error, path string, line int, msg string) {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) || s != nil {
		t.Fatalf("got %+v, error %v; want a *Error", s, err)
	}
	if se.Line != line || !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q at line %d; want line %d and %q", err, se.Line, line, msg)
	}
	var fe *models.FieldError
	switch {
	case path == "" && errors.As(err, &fe):
		t.Errorf("error %q is of field %s, want none", err, fe.Path)
	case path != "" && (!errors.As(err, &fe) || fe.Path != path):
		t.Errorf("error %q; want one of field %s", err, path)
	}
	if strings.Contains(err.Error(), "json:") || strings.Contains(err.Error(), "Go struct") {
		t.Errorf("error %q repeats the decoder's message", err)
	}
}

// TestReadScheduleAccepts checks files that are valid, if unusual: names
// and indices of nodes, null and empty lists, old files without node 0.
func TestReadScheduleAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sim.Action // nil: no actions
	}{
		{"null actions", `{"claimed_makespan": 0, "actions": null}`, nil},
		{"empty actions", `{"claimed_makespan": 0, "actions": []}`, []sim.Action{}},
		{"no actions field", `{"policy": "p"}`, nil},
		{"names and indices", oneAction(`{"kind": "transfer", "from": "root", "to": "leaf", "amount": 2}`),
			[]sim.Action{{Kind: sim.Transfer, From: 0, To: 2, Amount: 2}}},
		{"default name of an unnamed node", oneAction(`{"kind": "compute", "node": "P1", "round": 2, "label": "t"}`),
			[]sim.Action{{Kind: sim.Compute, Node: 1, Round: 2, Label: "t"}}},
		{"node 0 left out, as old files do", oneAction(`{"kind": "compute", "amount": 1}`),
			[]sim.Action{{Kind: sim.Compute, Amount: 1}}},
		{"null optional fields", oneAction(`{"kind": "compute", "start": null, "end": null, "after": null, "label": null, "round": null}`),
			[]sim.Action{{Kind: sim.Compute}}},
		{"integer written as float", oneAction(`{"kind": "compute", "amount": 1e2, "start": 0.5}`),
			[]sim.Action{{Kind: sim.Compute, Amount: 100, Start: sim.Time(0.5)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(tt.in), namedCrossbar())
			if err != nil {
				t.Fatal(err)
			}
			if !equalActions(s.Actions, tt.want) || (s.Actions == nil) != (tt.want == nil) {
				t.Errorf("actions %+v, want %+v", s.Actions, tt.want)
			}
		})
	}
}

// equalActions compares actions by value, Start and End by what they
// point to.
func equalActions(a, b []sim.Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !sameTime(x.Start, y.Start) || !sameTime(x.End, y.End) || !slices.Equal(x.After, y.After) {
			return false
		}
		x.Start, x.End, x.After, y.Start, y.End, y.After = nil, nil, nil, nil, nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

func sameTime(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestReadScheduleFile checks that errors name the file, its line and
// column, and that a missing file is an error.
func TestReadScheduleFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(path, []byte(oneAction(`{"kind": "compute", "node": "nope"}`)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, namedCrossbar())
	if want := "schedule " + path + `:4:33: actions[0].node: no node is named "nope"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %s…", err, want)
	}
	if _, err := ReadFile(path+".missing", nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v", err)
	}
}

// TestReadLimited checks the size limit, whether the size is known
// beforehand or not, and that a read error is an error.
func TestReadLimited(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		size     int64
		tooLarge bool
	}{
		{"at the limit", "1234", 0, false},
		{"past the limit", "12345", 0, true},
		{"size known past the limit", "", 5, true},
		{"size understated", "12345", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := readLimited(strings.NewReader(tt.in), tt.size, 4)
			if tt.tooLarge != (err != nil) || (err == nil && string(data) != tt.in) {
				t.Errorf("got %q, %v", data, err)
			}
		})
	}
	if _, err := readLimited(iotest.ErrReader(errors.New("boom")), 0, 4); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("read error: got %v", err)
	}
}

// TestReadScheduleLeavesRangesToReplay checks that values JSON can carry
// but no schedule may have read, and the replay rejects them with an error
// naming the field.
func TestReadScheduleLeavesRangesToReplay(t *testing.T) {
	tests := []struct {
		name, action, path string
	}{
		{"negative start", `{"kind": "compute", "node": 0, "amount": 1, "start": -1}`, "actions[0].start"},
		{"negative end", `{"kind": "compute", "node": 0, "amount": 1, "start": 0, "end": -1}`, "actions[0].end"},
		{"negative amount", `{"kind": "compute", "node": 0, "amount": -2, "start": 0}`, "actions[0].amount"},
		{"negative offset", `{"kind": "transfer", "from": 0, "to": 1, "amount": 1, "offset": -2, "start": 0}`, "actions[0].offset"},
		{"node past the platform", `{"kind": "compute", "node": 3, "amount": 1, "start": 0}`, "actions[0].node"},
		{"after past the schedule", `{"kind": "compute", "node": 0, "amount": 1, "start": 0, "after": [4]}`, "actions[0].after[0]"},
		{"unknown kind", `{"kind": "send", "amount": 1, "start": 0}`, "actions[0].kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := namedCrossbar()
			s, err := Read(strings.NewReader(oneAction(tt.action)), p)
			if err != nil {
				t.Fatal(err)
			}
			_, err = replay.Replay(context.Background(), p, s, sim.Timed)
			var fe *models.FieldError
			if !errors.As(err, &fe) || fe.Path != tt.path {
				t.Errorf("replay error %v, want a field error at %s", err, tt.path)
			}
		})
	}
}

// TestNodeNameErrors checks the messages for a name that fits several
// nodes or none, on small and large platforms.
func TestNodeNameErrors(t *testing.T) {
	twins := fixture.Procs(3, 1)
	twins[0].Name, twins[2].Name = "twin", "twin"
	tests := []struct {
		name, node, msg string
		p               *models.Platform
	}{
		{"name of several nodes", "twin", `"twin" names nodes 0, 2; write the index of one`,
			fixture.Crossbar(models.HalfDuplex, 1, 0, twins...)},
		{"large platform", "x", `no node is named "x" (the platform has 20 nodes: P0, P1, P2, P3, P4, …, P19)`,
			fixture.Crossbar(models.HalfDuplex, 1, 0, fixture.Procs(20, 1)...)},
		{"unbounded delay platform", "x", `no node is named "x" (the platform's nodes are P0, P1, …)`,
			&models.Platform{Delay: &models.Delay{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(oneAction(`{"kind": "compute", "node": "`+tt.node+`"}`)), tt.p)
			checkScheduleError(t, s, err, "actions[0].node", 4, tt.msg)
		})
	}
}

package wfcommons

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/models"
)

func TestReadWfCommonsShared(t *testing.T) {
	dir := shareddata.WfCommonsDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no WfCommons instances in %s", dir)
	}
	// Counts and one edge checked against the JSON by hand: the first
	// task's first child, with the size of the files between them.
	known := map[string]struct {
		tasks, edges     int
		makespan         float64
		from, to         string
		data, wFrom, wTo float64
		machine          string
		cores            int
		speedMHz         float64
	}{
		"helloworld-forkjoin-10-chameleon.json": {10, 16, 437, "cpuhog_forkjoin_00000001", "cpuhog_forkjoin_00000002", 9090910, 100.187, 107.353, "ubuntu", 64, 1200},
		"montage-chameleon-dss-05d-001.json":    {58, 114, 870, "mProject_ID0000001", "mDiffFit_ID0000005", 106387200, 534.058, 3.46, "pegasus-5", 48, 1299},
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			w, err := ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			g := w.DAG
			if len(g.Tasks) == 0 || len(w.Tasks) != len(g.Tasks) || !w.HasMakespan || len(w.Machines) == 0 {
				t.Fatalf("%d tasks (%d records), makespan %v (%v), %d machines", len(g.Tasks), len(w.Tasks), w.Makespan, w.HasMakespan, len(w.Machines))
			}
			if err := g.Validate("dag"); err != nil {
				t.Fatal(err)
			}
			for i, rec := range w.Tasks {
				if rec.Machine == "" {
					t.Errorf("task %s: no machine", rec.ID)
				}
				if g.Tasks[i].Weight != rec.Runtime {
					t.Errorf("task %s: weight %v, runtime %v", rec.ID, g.Tasks[i].Weight, rec.Runtime)
				}
			}
			want, ok := known[filepath.Base(file)]
			if !ok {
				return
			}
			if len(g.Tasks) != want.tasks || len(g.Edges) != want.edges || w.Makespan != want.makespan {
				t.Errorf("%d tasks, %d edges, makespan %v; want %d, %d, %v", len(g.Tasks), len(g.Edges), w.Makespan, want.tasks, want.edges, want.makespan)
			}
			m := w.Machines[0]
			if m.Name != want.machine || m.Cores != want.cores || m.SpeedMHz != want.speedMHz {
				t.Errorf("machine %+v, want %s with %d cores at %v MHz", m, want.machine, want.cores, want.speedMHz)
			}
			for _, e := range g.Edges {
				if g.TaskName(e.From) != want.from || g.TaskName(e.To) != want.to {
					continue
				}
				if e.Data != want.data || g.Tasks[e.From].Weight != want.wFrom || g.Tasks[e.To].Weight != want.wTo {
					t.Errorf("%s -> %s: data %v, weights %v, %v; want %v, %v, %v", want.from, want.to, e.Data, g.Tasks[e.From].Weight, g.Tasks[e.To].Weight, want.data, want.wFrom, want.wTo)
				}
				return
			}
			t.Errorf("no edge %s -> %s", want.from, want.to)
		})
	}
}

// wfDoc15 is a three-task 1.5 instance: a writes f1 (100 bytes) and f2
// (20), b reads f1, c reads f1 and f2 and the input in (5); a → b, a → c,
// b → c with no file between b and c.
var wfDoc15 = readTestdata("tiny15.json")

// checkTinyDAG checks the task graph of the tiny instances (both schema
// versions): a → b, a → c with their files' sizes, b → c with no file.
func checkTinyDAG(t *testing.T, w *Workflow) {
	t.Helper()
	want := &models.DAG{
		Tasks: []models.Task{{Name: "a", Weight: 1.5}, {Name: "b", Weight: 4}, {Name: "c", Weight: 3}},
		Edges: []models.DAGEdge{{From: 0, To: 1, Data: 100}, {From: 0, To: 2, Data: 120}, {From: 1, To: 2}},
	}
	if !reflect.DeepEqual(w.DAG, want) {
		t.Errorf("DAG %+v, want %+v", w.DAG, want)
	}
}

func TestReadWfCommons15(t *testing.T) {
	w, err := Read(strings.NewReader(wfDoc15), "tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	checkTinyDAG(t, w)
	wantTasks := []Task{
		{ID: "a", Name: "split", Runtime: 1.5, Machine: "n1", ExecutedAt: "2024-01-02T03:04:05Z", HasStart: true},
		{ID: "b", Name: "work", Runtime: 4, Machine: "n2"},
		{ID: "c", Name: "join", Runtime: 3, Machine: "n1", ExecutedAt: "2024-01-02T03:04:11.5Z", Start: 6.5, HasStart: true},
	}
	if !reflect.DeepEqual(w.Tasks, wantTasks) {
		t.Errorf("tasks %+v, want %+v", w.Tasks, wantTasks)
	}
	wantMachines := []Machine{{Name: "n1", Cores: 8, SpeedMHz: 2400}, {Name: "n2"}}
	if !reflect.DeepEqual(w.Machines, wantMachines) {
		t.Errorf("machines %+v, want %+v", w.Machines, wantMachines)
	}
	if w.Name != "tiny" || w.SchemaVersion != "1.5" || w.Makespan != 9.5 || !w.HasMakespan {
		t.Errorf("name %q, version %q, makespan %v (%v)", w.Name, w.SchemaVersion, w.Makespan, w.HasMakespan)
	}
}

// wfDoc14 is wfDoc15 in version 1.4: tasks refer to each other by name,
// list their files, and c's dependency on b is listed by c alone.
const wfDoc14 = `{
  "name": "tiny", "schemaVersion": "1.4",
  "workflow": {
    "makespanInSeconds": 9.5, "executedAt": "2024-01-02T03:04:05Z",
    "machines": [{"nodeName": "n1", "cpu": {"count": 8, "speed": 2400}}],
    "tasks": [
      {"name": "a", "runtimeInSeconds": 1.5, "parents": [], "children": ["b", "c"], "machine": "n1",
       "files": [{"link": "input", "name": "in", "sizeInBytes": 5}, {"link": "output", "name": "f1", "sizeInBytes": 100}, {"link": "output", "name": "f2", "sizeInBytes": 20}]},
      {"name": "b", "runtimeInSeconds": 4, "parents": ["a"], "children": [],
       "files": [{"link": "input", "name": "f1", "sizeInBytes": 100}]},
      {"name": "c", "runtimeInSeconds": 3, "parents": ["a", "b"], "children": [],
       "files": [{"link": "input", "name": "f1", "sizeInBytes": 100}, {"link": "input", "name": "f2", "sizeInBytes": 20}]}
    ]
  }
}`

func TestReadWfCommons14(t *testing.T) {
	w, err := Read(strings.NewReader(wfDoc14), "tiny14.json")
	if err != nil {
		t.Fatal(err)
	}
	checkTinyDAG(t, w)
	if want := []Machine{{Name: "n1", Cores: 8, SpeedMHz: 2400}}; !reflect.DeepEqual(w.Machines, want) {
		t.Errorf("machines %+v, want %+v", w.Machines, want)
	}
	if w.Tasks[0].Machine != "n1" || w.Makespan != 9.5 {
		t.Errorf("task a on %q, makespan %v", w.Tasks[0].Machine, w.Makespan)
	}
}

func TestReadWfCommonsErrors(t *testing.T) {
	// Each case edits wfDoc15 (or replaces it) and names the path and
	// message the error must hold.
	tests := []struct {
		name      string
		old, new  string // replace old by new in wfDoc15; whole document if old is ""
		path, msg string
		line      int // expected line, 0 for any
	}{
		{"missing parent", `"parents": ["a"], "children": ["c"]`, `"parents": ["x"], "children": ["c"]`,
			"workflow.specification.tasks[1].parents[0]", `no task "x"`, 0},
		{"inconsistent parent", `"parents": ["a", "b"]`, `"parents": ["a"]`,
			"workflow.specification.tasks[1].children[0]", `lists "c" as a child, but workflow.specification.tasks[2].parents does not list it`, 0},
		{"one-sided parent", `"parents": [], "children": ["b", "c"]`, `"parents": ["c"], "children": ["b", "c"]`,
			"workflow.specification.tasks[0].parents[0]", `lists "c" as a parent, but workflow.specification.tasks[2].children does not list it`, 0},
		{"self loop", `"parents": ["a"], "children": ["c"]`, `"parents": ["a", "b"], "children": ["c", "b"]`,
			"workflow.specification.tasks[1].children[1]", `task "b" depends on itself`, 0},
		{"negative runtime", `"runtimeInSeconds": 4,`, `"runtimeInSeconds": -4,`,
			"workflow.execution.tasks[2].runtimeInSeconds", "must be a finite number >= 0, got -4", 0},
		{"missing runtime", `{"id": "b", "runtimeInSeconds": 4, "machines": ["n2"]}`, `{"id": "b", "machines": ["n2"]}`,
			"workflow.execution.tasks[2].runtimeInSeconds", "missing", 0},
		{"no execution entry", `,
        {"id": "b", "runtimeInSeconds": 4, "machines": ["n2"]}`, ``,
			"workflow.specification.tasks[1]", `task "b" has no runtimeInSeconds`, 0},
		{"duplicate id", `"name": "join", "id": "c"`, `"name": "join", "id": "a"`,
			"workflow.specification.tasks[2].id", `duplicate task id "a", also workflow.specification.tasks[0]`, 0},
		{"duplicate execution entry", `{"id": "b", "runtimeInSeconds": 4`, `{"id": "a", "runtimeInSeconds": 4`,
			"workflow.execution.tasks[2].id", `task "a" already has an execution entry, workflow.execution.tasks[1]`, 0},
		{"unknown file", `"inputFiles": ["f1"], "outputFiles": []`, `"inputFiles": ["f9"], "outputFiles": []`,
			"workflow.specification.tasks[1].inputFiles[0]", `no file "f9"`, 0},
		{"negative size", `"sizeInBytes": 20`, `"sizeInBytes": -20`,
			"workflow.specification.files[2].sizeInBytes", "must be a finite number >= 0", 0},
		{"unknown machine", `"machines": ["n2"]`, `"machines": ["n3"]`,
			"workflow.execution.tasks[2].machines[0]", `no machine "n3"`, 0},
		{"wrong type", `"parents": ["a"], "children": ["c"]`, `"parents": "a", "children": ["c"]`,
			"workflow.specification.tasks.parents", "want an array, found a JSON string", 7},
		{"unsupported version", `"schemaVersion": "1.5"`, `"schemaVersion": "1.2"`,
			"schemaVersion", `version "1.2" not supported`, 0},
		{"trailing garbage", "", wfDoc15 + "\n  }", "", "data after the JSON object", 23},
		{"syntax error", "", `{"name": "x",` + "\n" + `"workflow": ]}`, "", "invalid JSON", 2},
		{"not an object", "", `[{"name": "x"}]`, "", "the document must be a JSON object, not array", 1},
		{"empty", "", "  ", "", "empty document", 0},
		{"no tasks", "", `{"schemaVersion": "1.5", "workflow": {"specification": {"tasks": []}}}`,
			"workflow.specification.tasks", "must list at least one task", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := tt.new
			if tt.old != "" {
				if !strings.Contains(wfDoc15, tt.old) {
					t.Fatalf("the document has no %q", tt.old)
				}
				doc = strings.Replace(wfDoc15, tt.old, tt.new, 1)
			}
			_, err := Read(strings.NewReader(doc), "bad.json")
			var pe *models.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if pe.File != "bad.json" || !strings.HasPrefix(pe.Path, tt.path) || !strings.Contains(pe.Msg, tt.msg) || (tt.line != 0 && pe.Line != tt.line) {
				t.Errorf("got %q (path %q, line %d), want path %q, line %d, message with %q", err, pe.Path, pe.Line, tt.path, tt.line, tt.msg)
			}
		})
	}
}

func TestReadWfCommonsCyclePath(t *testing.T) {
	doc := strings.Replace(wfDoc15, `"parents": [], "children": ["b", "c"]`, `"parents": ["c"], "children": ["b", "c"]`, 1)
	doc = strings.Replace(doc, `"children": []`, `"children": ["a"]`, 1)
	_, err := Read(strings.NewReader(doc), "cycle.json")
	if err == nil || !strings.Contains(err.Error(), "cycle.json: workflow.specification.tasks[") || !strings.Contains(err.Error(), "is on a cycle") {
		t.Errorf("got %v, want a cycle named by its task's path", err)
	}
}

func TestReadWfCommonsFileTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(path)
	if err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Errorf("got %v, want a refusal of the size", err)
	}
}

// readTestdata is a file of testdata, read once for the tests.
func readTestdata(name string) string {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return string(data)
}

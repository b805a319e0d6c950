// Package wfcommons reads WfCommons workflow instances (WfFormat 1.4 to
// 1.6): their task graph (Read, ReadFile) and the platform of their
// recorded machines (MultiCluster).
package wfcommons

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
)

// MaxSize is the largest WfCommons instance Read and
// ReadFile accept, in bytes: the whole document is held in memory.
const MaxSize = 256 << 20

// Workflow is a workflow instance read from a WfCommons WfFormat document
// (github.com/wfcommons/WfFormat): its task graph and what the recorded
// execution says about the run.
type Workflow struct {
	Name          string // the instance's name
	SchemaVersion string // "1.4", "1.5" or "1.6"
	// DAG holds one task per workflow task, in the order of the document,
	// named by its id (by its name in version 1.4, where tasks refer to
	// each other by name), weighted by its runtime in seconds. An edge
	// runs from parent to child; its Data is the total size in bytes of
	// the files the parent writes and the child reads.
	DAG *models.DAG
	// Tasks gives, for each task of DAG (same index), what the document
	// records of it.
	Tasks []Task
	// Machines are the recorded machines, in the order of the document.
	Machines []Machine
	// Makespan is the recorded makespanInSeconds of the run, when
	// HasMakespan.
	Makespan    float64
	HasMakespan bool
}

// Task is what a WfCommons document records of one task.
type Task struct {
	ID      string  // the task's id (its name in version 1.4)
	Name    string  // the task's name, which need not be unique
	Runtime float64 // runtimeInSeconds, the task's weight in the DAG
	// Machine is the nodeName of the first machine the task ran on, or ""
	// when none is recorded.
	Machine string
	// ExecutedAt is the task's recorded start timestamp, as written, or "".
	ExecutedAt string
	// Start is the task's start in seconds after the workflow's
	// executedAt, when HasStart: both timestamps were recorded and parse.
	Start    float64
	HasStart bool
}

// Machine is a machine a WfCommons run used.
type Machine struct {
	Name     string  // nodeName
	Cores    int     // cpu.coreCount, 0 when not recorded
	SpeedMHz float64 // cpu.speedInMHz, 0 when not recorded
}

// BytesPerByte is the memory reading a WfCommons instance takes per byte
// of its file (measured: 7.5 B resident for a 12.7 MB instance of 11,600
// tasks, cmd/netsched TestEstimatesOnSafeSide), with a margin.
const BytesPerByte = 16

// ReadFile reads a WfCommons instance from a file, refusing one larger
// than MaxSize before reading it; errors name the file.
func ReadFile(path string) (*Workflow, error) {
	return ReadFileWithin(path, 0)
}

// ReadFileWithin is ReadFile within the memory budget b (none when b <=
// 0): a file whose reading would need more, at BytesPerByte, is refused
// before it is read.
func ReadFileWithin(path string, b budget.Bytes) (*Workflow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("wfcommons: %w", err)
	}
	if st.Size() > MaxSize {
		return nil, &models.ParseError{File: path, Msg: fmt.Sprintf("%d bytes, more than the %d a WfCommons instance may have", st.Size(), MaxSize)}
	}
	r, err := b.Open(path, BytesPerByte)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return Read(r, path)
}

// Read reads a WfCommons instance of WfFormat version 1.5 (or 1.6,
// which only adds optional fields) or 1.4 from r; file names it in errors.
//
// In versions 1.5 and 1.6 a task's weight is the runtimeInSeconds of its
// entry in workflow.execution.tasks or, when it has none, of its
// specification entry. In version 1.4, tasks are listed in workflow.tasks
// with their runtime, their files (with a link "input" or "output") and the
// machine they ran on, and refer to each other by name.
//
// Errors are a *ParseError naming the JSON path of the offending field,
// such as `workflow.specification.tasks[3].parents[0]: no task "x"`: a
// document that is not a JSON object or has data after it, a field of the
// wrong type, a duplicate or unknown task, file or machine id, parents and
// children that disagree, a cycle, a missing or negative runtime or size.
// Unknown fields are ignored, as the schema allows.
func Read(r io.Reader, file string) (*Workflow, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, &models.ParseError{File: file, Msg: err.Error()}
	}
	if len(data) > MaxSize {
		return nil, &models.ParseError{File: file, Msg: fmt.Sprintf("more than the %d bytes a WfCommons instance may have", MaxSize)}
	}
	var doc wfDoc
	if err := decodeJSON(data, file, &doc); err != nil {
		return nil, err
	}
	b := wfBuilder{file: file}
	switch doc.SchemaVersion {
	case "1.5", "1.6":
		err = b.from15(&doc)
	case "1.4":
		err = b.from14(&doc)
	case "":
		err = b.errf("schemaVersion", "missing")
	default:
		err = b.errf("schemaVersion", "version %q not supported (want 1.4, 1.5 or 1.6)", doc.SchemaVersion)
	}
	if err != nil {
		return nil, err
	}
	if err := b.build(); err != nil {
		return nil, err
	}
	b.out.Name, b.out.SchemaVersion = doc.Name, doc.SchemaVersion
	return &b.out, nil
}

// decodeJSON decodes the single JSON object in data into v, turning
// encoding/json's errors into *ParseError with a line and, for a value of
// the wrong type, the field's path.
func decodeJSON(data []byte, file string, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return &models.ParseError{File: file, Line: lineAt(data, syn.Offset), Msg: "invalid JSON: " + syn.Error()}
		case errors.As(err, &typ) && typ.Field == "":
			return &models.ParseError{File: file, Line: lineAt(data, typ.Offset), Msg: "the document must be a JSON object, not " + typ.Value}
		case errors.As(err, &typ):
			return &models.ParseError{File: file, Line: lineAt(data, typ.Offset), Path: typ.Field, Msg: fmt.Sprintf("want %s, found a JSON %s", jsonKind(typ.Type.String()), typ.Value)}
		case errors.Is(err, io.EOF):
			return &models.ParseError{File: file, Msg: "empty document, want a JSON object"}
		}
		return &models.ParseError{File: file, Msg: "invalid JSON: " + err.Error()}
	}
	rest := dec.InputOffset()
	if i := bytes.IndexFunc(data[rest:], func(r rune) bool { return !strings.ContainsRune(" \t\r\n", r) }); i >= 0 {
		return &models.ParseError{File: file, Line: lineAt(data, rest+int64(i)), Msg: "data after the JSON object"}
	}
	return nil
}

// jsonKind names the JSON kind a Go type of the decoding structs stands for.
func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case goType == "string":
		return "a string"
	case goType == "float64" || goType == "int":
		return "a number"
	}
	return "an object"
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// The decoding structs of WfFormat: 1.5 and 1.6 keep the structure under
// workflow.specification and the measurements under workflow.execution;
// 1.4 keeps both in workflow.tasks, each task with its files.
type (
	wfDoc struct {
		Name          string      `json:"name"`
		SchemaVersion string      `json:"schemaVersion"`
		Workflow      *wfWorkflow `json:"workflow"`
	}
	wfWorkflow struct {
		Specification *wfSpec `json:"specification"`
		Execution     *wfExec `json:"execution"`
		// Version 1.4.
		Tasks             []wf14Task  `json:"tasks"`
		Machines          []wfMachine `json:"machines"`
		MakespanInSeconds *float64    `json:"makespanInSeconds"`
		ExecutedAt        string      `json:"executedAt"`
	}
	wfSpec struct {
		Tasks []wfSpecTask `json:"tasks"`
		Files []wfFile     `json:"files"`
	}
	wfSpecTask struct {
		Name             string   `json:"name"`
		ID               string   `json:"id"`
		Parents          []string `json:"parents"`
		Children         []string `json:"children"`
		InputFiles       []string `json:"inputFiles"`
		OutputFiles      []string `json:"outputFiles"`
		RuntimeInSeconds *float64 `json:"runtimeInSeconds"`
	}
	wfFile struct {
		ID          string   `json:"id"`
		SizeInBytes *float64 `json:"sizeInBytes"`
	}
	wfExec struct {
		MakespanInSeconds *float64     `json:"makespanInSeconds"`
		ExecutedAt        string       `json:"executedAt"`
		Tasks             []wfExecTask `json:"tasks"`
		Machines          []wfMachine  `json:"machines"`
	}
	wfExecTask struct {
		ID               string   `json:"id"`
		RuntimeInSeconds *float64 `json:"runtimeInSeconds"`
		ExecutedAt       string   `json:"executedAt"`
		Machines         []string `json:"machines"`
	}
	wfMachine struct {
		NodeName string `json:"nodeName"`
		CPU      *struct {
			CoreCount  *float64 `json:"coreCount"`
			SpeedInMHz *float64 `json:"speedInMHz"`
			Count      *float64 `json:"count"` // version 1.4
			Speed      *float64 `json:"speed"` // version 1.4
		} `json:"cpu"`
	}
	wf14Task struct {
		Name             string   `json:"name"`
		ID               string   `json:"id"`
		Parents          []string `json:"parents"`
		Children         []string `json:"children"`
		RuntimeInSeconds *float64 `json:"runtimeInSeconds"`
		Machine          string   `json:"machine"`
		Files            []struct {
			Link        string   `json:"link"`
			Name        string   `json:"name"`
			Path        string   `json:"path"`
			SizeInBytes *float64 `json:"sizeInBytes"`
		} `json:"files"`
	}
)

// wfTask is a task of either version on its way to the DAG.
type wfTask struct {
	parents, children []string // task references
	inputs, outputs   []int    // indices into wfBuilder.sizes
	runtime           float64
	hasRuntime        bool
}

// wfBuilder turns a decoded document into a Workflow.
type wfBuilder struct {
	file  string
	tasks []wfTask
	sizes []float64 // file sizes in bytes
	// taskPath is the JSON path of the list of tasks holding parents and
	// children; oneSided says a dependency may be listed at either end
	// only (version 1.4), not at both.
	taskPath string
	oneSided bool
	// runtimePath is the JSON path of task i's runtime, for messages.
	runtimePath func(i int) string
	out         Workflow
}

// errf is a *ParseError at a JSON path.
func (b *wfBuilder) errf(path, format string, args ...any) error {
	return &models.ParseError{File: b.file, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// from15 gathers a version 1.5 or 1.6 document.
func (b *wfBuilder) from15(doc *wfDoc) error {
	const specPath = "workflow.specification"
	b.taskPath = specPath + ".tasks"
	w := doc.Workflow
	switch {
	case w == nil:
		return b.errf("workflow", "missing")
	case w.Specification == nil:
		return b.errf(specPath, "missing")
	case len(w.Specification.Tasks) == 0:
		return b.errf(b.taskPath, "must list at least one task")
	}
	spec := w.Specification
	fileIdx := make(map[string]int, len(spec.Files))
	for i, f := range spec.Files {
		path := fmt.Sprintf("%s.files[%d]", specPath, i)
		if err := b.addFile(fileIdx, path, f.ID, f.SizeInBytes); err != nil {
			return err
		}
	}
	ids, err := b.taskIDs(len(spec.Tasks), func(i int) string { return spec.Tasks[i].ID }, "id")
	if err != nil {
		return err
	}
	b.tasks = make([]wfTask, len(spec.Tasks))
	b.out.Tasks = make([]Task, len(spec.Tasks))
	for i, st := range spec.Tasks {
		t := &b.tasks[i]
		t.parents, t.children = st.Parents, st.Children
		for _, list := range []struct {
			name  string
			files []string
			dst   *[]int
		}{{"inputFiles", st.InputFiles, &t.inputs}, {"outputFiles", st.OutputFiles, &t.outputs}} {
			for k, id := range list.files {
				j, ok := fileIdx[id]
				if !ok {
					return b.errf(fmt.Sprintf("%s[%d].%s[%d]", b.taskPath, i, list.name, k), "no file %q in %s.files", id, specPath)
				}
				*list.dst = append(*list.dst, j)
			}
		}
		if st.RuntimeInSeconds != nil {
			t.runtime, t.hasRuntime = *st.RuntimeInSeconds, true
		}
		b.out.Tasks[i] = Task{ID: st.ID, Name: st.Name}
	}
	execTask := make([]int, len(spec.Tasks)) // index in execution.tasks + 1, 0 if none
	if e := w.Execution; e != nil {
		const execPath = "workflow.execution"
		if err := b.machines(execPath+".machines", e.Machines); err != nil {
			return err
		}
		if err := b.makespan(execPath+".makespanInSeconds", e.MakespanInSeconds); err != nil {
			return err
		}
		start0, startOK := parseTimestamp(e.ExecutedAt)
		known := b.machineSet()
		for j, et := range e.Tasks {
			path := fmt.Sprintf("%s.tasks[%d]", execPath, j)
			i, ok := ids[et.ID]
			switch {
			case et.ID == "":
				return b.errf(path+".id", "missing")
			case !ok:
				return b.errf(path+".id", "no task %q in %s", et.ID, b.taskPath)
			case execTask[i] != 0:
				return b.errf(path+".id", "task %q already has an execution entry, %s.tasks[%d]", et.ID, execPath, execTask[i]-1)
			case et.RuntimeInSeconds == nil:
				return b.errf(path+".runtimeInSeconds", "missing")
			}
			execTask[i] = j + 1
			b.tasks[i].runtime, b.tasks[i].hasRuntime = *et.RuntimeInSeconds, true
			rec := &b.out.Tasks[i]
			for k, m := range et.Machines {
				if !known[m] {
					return b.errf(fmt.Sprintf("%s.machines[%d]", path, k), "no machine %q in %s.machines", m, execPath)
				}
			}
			if len(et.Machines) > 0 {
				rec.Machine = et.Machines[0]
			}
			rec.ExecutedAt = et.ExecutedAt
			if t, ok := parseTimestamp(et.ExecutedAt); ok && startOK {
				rec.Start, rec.HasStart = t.Sub(start0).Seconds(), true
			}
		}
	}
	b.runtimePath = func(i int) string {
		if execTask[i] != 0 {
			return fmt.Sprintf("workflow.execution.tasks[%d].runtimeInSeconds", execTask[i]-1)
		}
		return fmt.Sprintf("%s[%d].runtimeInSeconds", b.taskPath, i)
	}
	return nil
}

// from14 gathers a version 1.4 document, whose tasks list their files and
// refer to each other by name.
func (b *wfBuilder) from14(doc *wfDoc) error {
	b.taskPath, b.oneSided = "workflow.tasks", true
	w := doc.Workflow
	switch {
	case w == nil:
		return b.errf("workflow", "missing")
	case len(w.Tasks) == 0:
		return b.errf(b.taskPath, "must list at least one task")
	}
	if _, err := b.taskIDs(len(w.Tasks), func(i int) string { return w.Tasks[i].Name }, "name"); err != nil {
		return err
	}
	if err := b.machines("workflow.machines", w.Machines); err != nil {
		return err
	}
	if err := b.makespan("workflow.makespanInSeconds", w.MakespanInSeconds); err != nil {
		return err
	}
	known := b.machineSet()
	fileIdx := make(map[string]int)
	b.tasks = make([]wfTask, len(w.Tasks))
	b.out.Tasks = make([]Task, len(w.Tasks))
	for i, wt := range w.Tasks {
		path := fmt.Sprintf("%s[%d]", b.taskPath, i)
		t := &b.tasks[i]
		t.parents, t.children = wt.Parents, wt.Children
		if wt.RuntimeInSeconds != nil {
			t.runtime, t.hasRuntime = *wt.RuntimeInSeconds, true
		}
		for k, f := range wt.Files {
			fpath := fmt.Sprintf("%s.files[%d]", path, k)
			id := f.Path + f.Name
			j, ok := fileIdx[id]
			if !ok {
				j = len(b.sizes)
				if err := b.addFile(fileIdx, fpath, id, f.SizeInBytes); err != nil {
					return err
				}
			}
			if strings.EqualFold(f.Link, "input") {
				t.inputs = append(t.inputs, j)
			} else {
				t.outputs = append(t.outputs, j)
			}
		}
		if wt.Machine != "" && !known[wt.Machine] {
			return b.errf(path+".machine", "no machine %q in workflow.machines", wt.Machine)
		}
		b.out.Tasks[i] = Task{ID: wt.Name, Name: wt.Name, Machine: wt.Machine}
	}
	b.runtimePath = func(i int) string { return fmt.Sprintf("%s[%d].runtimeInSeconds", b.taskPath, i) }
	return nil
}

// addFile records file id's size as the next file, len(b.sizes); path is
// the file's JSON path.
func (b *wfBuilder) addFile(fileIdx map[string]int, path, id string, size *float64) error {
	switch {
	case id == "":
		return b.errf(path+".id", "missing")
	case size == nil:
		return b.errf(path+".sizeInBytes", "missing")
	case !(*size >= 0) || math.IsInf(*size, 0):
		return b.errf(path+".sizeInBytes", "must be a finite number >= 0, got %v", *size)
	}
	if _, dup := fileIdx[id]; dup {
		return b.errf(path+".id", "duplicate file id %q", id)
	}
	fileIdx[id] = len(b.sizes)
	b.sizes = append(b.sizes, *size)
	return nil
}

// taskIDs maps each of the n task references id gives to its index,
// rejecting empty and duplicate ones; field names the reference.
func (b *wfBuilder) taskIDs(n int, id func(i int) string, field string) (map[string]int, error) {
	ids := make(map[string]int, n)
	for i := range n {
		s := id(i)
		if s == "" {
			return nil, b.errf(fmt.Sprintf("%s[%d].%s", b.taskPath, i, field), "missing")
		}
		if j, dup := ids[s]; dup {
			return nil, b.errf(fmt.Sprintf("%s[%d].%s", b.taskPath, i, field), "duplicate task %s %q, also %s[%d]", field, s, b.taskPath, j)
		}
		ids[s] = i
	}
	return ids, nil
}

// machines records the machines listed at path.
func (b *wfBuilder) machines(path string, ms []wfMachine) error {
	seen := make(map[string]bool, len(ms))
	for i, m := range ms {
		mpath := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case m.NodeName == "":
			return b.errf(mpath+".nodeName", "missing")
		case seen[m.NodeName]:
			return b.errf(mpath+".nodeName", "duplicate machine %q", m.NodeName)
		}
		seen[m.NodeName] = true
		out := Machine{Name: m.NodeName}
		if c := m.CPU; c != nil {
			cores, speed := cmp.Or(c.CoreCount, c.Count), cmp.Or(c.SpeedInMHz, c.Speed)
			if cores != nil {
				if *cores < 1 || *cores != math.Trunc(*cores) || *cores > math.MaxInt32 {
					return b.errf(mpath+".cpu.coreCount", "must be a whole number >= 1, got %v", *cores)
				}
				out.Cores = int(*cores)
			}
			if speed != nil {
				if !(*speed >= 0) || math.IsInf(*speed, 0) {
					return b.errf(mpath+".cpu.speedInMHz", "must be a finite number >= 0, got %v", *speed)
				}
				out.SpeedMHz = *speed
			}
		}
		b.out.Machines = append(b.out.Machines, out)
	}
	return nil
}

// machineSet is the set of the recorded machines' names.
func (b *wfBuilder) machineSet() map[string]bool {
	known := make(map[string]bool, len(b.out.Machines))
	for _, m := range b.out.Machines {
		known[m.Name] = true
	}
	return known
}

// makespan records the makespan at path, if given.
func (b *wfBuilder) makespan(path string, v *float64) error {
	if v == nil {
		return nil
	}
	if !(*v >= 0) || math.IsInf(*v, 0) {
		return b.errf(path, "must be a finite number >= 0, got %v", *v)
	}
	b.out.Makespan, b.out.HasMakespan = *v, true
	return nil
}

// build makes the DAG of the gathered tasks: weights, edges with their
// data, and the checks that need them all.
func (b *wfBuilder) build() error {
	n := len(b.tasks)
	g := &models.DAG{Tasks: make([]models.Task, n)}
	idx := make(map[string]int, n)
	for i, rec := range b.out.Tasks {
		idx[rec.ID] = i
	}
	for i, t := range b.tasks {
		switch {
		case !t.hasRuntime:
			return b.errf(fmt.Sprintf("%s[%d]", b.taskPath, i), "task %q has no runtimeInSeconds", b.out.Tasks[i].ID)
		case !(t.runtime >= 0) || math.IsInf(t.runtime, 0):
			return b.errf(b.runtimePath(i), "must be a finite number >= 0, got %v", t.runtime)
		}
		g.Tasks[i] = models.Task{Name: b.out.Tasks[i].ID, Weight: t.runtime}
		b.out.Tasks[i].Runtime = t.runtime
	}
	// Edges in the order of the children lists; the parents lists must
	// agree with them, except in version 1.4 where either end may list a
	// dependency alone.
	type edge struct{ from, to int }
	fromChildren := make(map[edge]bool)
	var order []edge
	resolve := func(i int, list []string, field string) ([]int, error) {
		out := make([]int, 0, len(list))
		for k, ref := range list {
			j, ok := idx[ref]
			path := fmt.Sprintf("%s[%d].%s[%d]", b.taskPath, i, field, k)
			switch {
			case !ok:
				return nil, b.errf(path, "no task %q", ref)
			case j == i:
				return nil, b.errf(path, "task %q depends on itself", ref)
			}
			out = append(out, j)
		}
		return out, nil
	}
	for i, t := range b.tasks {
		children, err := resolve(i, t.children, "children")
		if err != nil {
			return err
		}
		for _, c := range children {
			if e := (edge{i, c}); !fromChildren[e] {
				fromChildren[e] = true
				order = append(order, e)
			}
		}
	}
	fromParents := make(map[edge]bool)
	for i, t := range b.tasks {
		parents, err := resolve(i, t.parents, "parents")
		if err != nil {
			return err
		}
		for k, p := range parents {
			e := edge{p, i}
			fromParents[e] = true
			if fromChildren[e] {
				continue
			}
			if !b.oneSided {
				return b.errf(fmt.Sprintf("%s[%d].parents[%d]", b.taskPath, i, k), "task %q lists %q as a parent, but %s[%d].children does not list it", b.out.Tasks[i].ID, b.out.Tasks[p].ID, b.taskPath, p)
			}
			fromChildren[e] = true
			order = append(order, e)
		}
	}
	if !b.oneSided {
		for _, e := range order {
			if !fromParents[e] {
				k := indexOf(b.tasks[e.from].children, b.out.Tasks[e.to].ID)
				return b.errf(fmt.Sprintf("%s[%d].children[%d]", b.taskPath, e.from, k), "task %q lists %q as a child, but %s[%d].parents does not list it", b.out.Tasks[e.from].ID, b.out.Tasks[e.to].ID, b.taskPath, e.to)
			}
		}
	}
	written := make(map[int]bool)
	g.Edges = make([]models.DAGEdge, len(order))
	for k, e := range order {
		clear(written)
		for _, f := range b.tasks[e.from].outputs {
			written[f] = true
		}
		var data float64
		for _, f := range b.tasks[e.to].inputs {
			if written[f] {
				data += b.sizes[f]
				delete(written, f) // count a file listed twice once
			}
		}
		g.Edges[k] = models.DAGEdge{From: e.from, To: e.to, Data: data}
	}
	if _, err := g.TopoOrder(); err != nil {
		v := onCycle(g)
		return b.errf(fmt.Sprintf("%s[%d]", b.taskPath, v), "task %q is on a cycle", g.Tasks[v].Name)
	}
	b.out.DAG = g
	return nil
}

// indexOf is the index of s in list, or -1.
func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// onCycle returns a task on a cycle of g, which has one: the tasks left
// when sources are peeled off each keep a predecessor among them, so
// walking back from one n times ends on a cycle.
func onCycle(g *models.DAG) int {
	n := len(g.Tasks)
	indeg := make([]int, n)
	for _, e := range g.Edges {
		indeg[e.To]++
	}
	succs, preds := g.Succs(), g.Preds()
	queue := make([]int, 0, n)
	for v, d := range indeg {
		if d == 0 {
			queue = append(queue, v)
		}
	}
	for i := 0; i < len(queue); i++ {
		for _, w := range succs[queue[i]] {
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	v := 0
	for v < n && indeg[v] == 0 {
		v++
	}
	for range n {
		for _, p := range preds[v] {
			if indeg[p] > 0 {
				v = p
				break
			}
		}
	}
	return v
}

// parseTimestamp parses the timestamps WfCommons instances hold: ISO 8601
// in its extended and basic forms, and the month-day-year form of some
// Makeflow and WfCommons-generated instances.
func parseTimestamp(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "20060102T150405Z0700", "2006-01-02T15:04:05.999999999", "01-02-06T15:04:05Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

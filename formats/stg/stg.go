// Package stg reads task graphs from files of Kasahara's Standard Task
// Graph Set (Tobita and Kasahara, J. Scheduling 2002).
package stg

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/netsched/netsched/models"
)

// Options controls how an STG file becomes a DAG.
type Options struct {
	// KeepDummies keeps the dummy entry node T0 and exit node T(n+1) as
	// tasks (with the weight the file gives them, 0 in the published set).
	// Paper 002 keeps them (its sizes 302, 752, … count them); without
	// them the DAG has the n real tasks only.
	KeepDummies bool
}

// Graph is a task graph read from a file of Kasahara's Standard Task Graph Set
// (Tobita and Kasahara, J. Scheduling 2002; the format of
// www.kasahara.cs.waseda.ac.jp/schedule/format_e.html).
type Graph struct {
	DAG *models.DAG
	// Tasks is the number n of real tasks, from the first line.
	Tasks int
	// CPLength is the critical path length from the "# CP Length" comment,
	// when HasCPLength.
	CPLength    float64
	HasCPLength bool
	// Comments holds the information part, the lines starting with '#'.
	Comments []string
}

// ReadFile reads an STG file; errors name the file and line.
func ReadFile(path string, opt Options) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opt)
}

// Read parses an STG task graph from r; file names the input in errors.
//
// The task graph part is: a line with the number n of tasks, then n+2 lines
// "id weight npred pred…" for T0 (the dummy entry) to T(n+1) (the dummy
// exit), in order. The information part is the lines starting with '#'.
// Errors (a *ParseError) name the line: a malformed number, a task out of
// order, a predecessor count that does not match the list, a predecessor
// that is not a task, a task line count that does not match n, a cycle.
func Read(r io.Reader, file string, opt Options) (*Graph, error) {
	p := stgParser{file: file, out: &Graph{DAG: &models.DAG{}}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for line := 1; sc.Scan(); line++ {
		if err := p.line(line, sc.Text()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &models.ParseError{File: file, Msg: err.Error()}
	}
	if err := p.finish(opt); err != nil {
		return nil, err
	}
	return p.out, nil
}

// stgParser holds the state of Read between lines.
type stgParser struct {
	file   string
	out    *Graph
	header bool    // the task count line has been read
	lines  []int   // source line of each task
	preds  [][]int // predecessors of each task, as listed
}

func (p *stgParser) errf(line int, format string, args ...any) error {
	return &models.ParseError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (p *stgParser) line(line int, text string) error {
	trimmed := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(trimmed, "#"):
		p.comment(line, trimmed)
		return nil
	case trimmed == "":
		return nil
	}
	fields := strings.Fields(trimmed)
	if !p.header {
		n, err := strconv.Atoi(fields[0])
		if err != nil || n < 0 || len(fields) != 1 {
			return p.errf(line, "first line must be the number of tasks, got %q", trimmed)
		}
		p.out.Tasks, p.header = n, true
		return nil
	}
	return p.task(line, fields)
}

func (p *stgParser) comment(line int, text string) {
	p.out.Comments = append(p.out.Comments, text)
	body := strings.TrimSpace(strings.TrimPrefix(text, "#"))
	key, val, ok := strings.Cut(body, ":")
	if !ok || strings.TrimSpace(key) != "CP Length" {
		return
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
		p.out.CPLength, p.out.HasCPLength = v, true
	}
}

func (p *stgParser) task(line int, fields []string) error {
	want := len(p.lines)
	if want >= p.out.Tasks+2 {
		return p.errf(line, "more task lines than the %d tasks (+2 dummies) the first line announces", p.out.Tasks)
	}
	nums := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return p.errf(line, "field %d: want a whole number >= 0, got %q", i+1, f)
		}
		nums[i] = v
	}
	if len(nums) < 3 {
		return p.errf(line, "a task line needs id, processing time and predecessor count, got %d fields", len(nums))
	}
	if nums[0] != want {
		return p.errf(line, "task %d out of order: expected task %d", nums[0], want)
	}
	if got := len(nums) - 3; got != nums[2] {
		return p.errf(line, "task %d announces %d predecessors but lists %d", want, nums[2], got)
	}
	for _, q := range nums[3:] {
		if q > p.out.Tasks+1 {
			return p.errf(line, "task %d: predecessor %d is not a task (tasks are 0..%d)", want, q, p.out.Tasks+1)
		}
		if q == want {
			return p.errf(line, "task %d is its own predecessor (a cycle)", want)
		}
	}
	p.out.DAG.Tasks = append(p.out.DAG.Tasks, models.Task{Name: fmt.Sprintf("T%d", want), Weight: float64(nums[1])})
	p.lines = append(p.lines, line)
	p.preds = append(p.preds, nums[3:])
	return nil
}

func (p *stgParser) finish(opt Options) error {
	if !p.header {
		return &models.ParseError{File: p.file, Msg: "no task count: the file has no task graph part"}
	}
	if got, want := len(p.lines), p.out.Tasks+2; got != want {
		return &models.ParseError{File: p.file, Line: p.lastLine(), Msg: fmt.Sprintf(
			"the first line announces %d tasks (+2 dummies = %d lines) but the file has %d task lines", p.out.Tasks, want, got)}
	}
	g := p.out.DAG
	for v, ps := range p.preds {
		for _, u := range ps {
			g.Edges = append(g.Edges, models.DAGEdge{From: u, To: v})
		}
	}
	if _, err := g.TopoOrder(); err != nil {
		return p.cycleError()
	}
	if !opt.KeepDummies {
		p.out.DAG = dropTasks(g, 0, p.out.Tasks+1)
	}
	return nil
}

// cycleError names the line of a task on a cycle: one that still has an
// unprocessed predecessor once Kahn's algorithm is stuck.
func (p *stgParser) cycleError() error {
	g := p.out.DAG
	indeg := make([]int, len(g.Tasks))
	for _, e := range g.Edges {
		indeg[e.To]++
	}
	succs := g.Succs()
	queue := []int{}
	for v, d := range indeg {
		if d == 0 {
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range succs[v] {
			if indeg[w]--; indeg[w] == 0 {
				queue = append(queue, w)
			}
		}
	}
	for v, d := range indeg {
		if d > 0 {
			return p.errf(p.lines[v], "task %d is on a cycle of predecessors", v)
		}
	}
	return p.errf(p.lastLine(), "the task graph has a cycle")
}

func (p *stgParser) lastLine() int {
	if len(p.lines) == 0 {
		return 0
	}
	return p.lines[len(p.lines)-1]
}

// dropTasks returns a copy of g without the given tasks and their edges,
// the other tasks renumbered in order.
func dropTasks(g *models.DAG, drop ...int) *models.DAG {
	gone := make(map[int]bool, len(drop))
	for _, v := range drop {
		gone[v] = true
	}
	index := make([]int, len(g.Tasks))
	out := &models.DAG{}
	for v, t := range g.Tasks {
		index[v] = -1
		if !gone[v] {
			index[v] = len(out.Tasks)
			out.Tasks = append(out.Tasks, t)
		}
	}
	for _, e := range g.Edges {
		if index[e.From] >= 0 && index[e.To] >= 0 {
			out.Edges = append(out.Edges, models.DAGEdge{From: index[e.From], To: index[e.To], Data: e.Data})
		}
	}
	return out
}

package models

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/netsched/netsched/internal/budget"
)

// DAGSource says where a task graph comes from when its tasks are not
// listed in the scenario: a file of the Standard Task Graph Set, in DOT or
// a WfCommons workflow instance (a path relative to the scenario file), or
// one of the generated families of paper 002's experiments. Exactly one of
// STG, DOT, WfCommons, FFT and Gauss is set.
type DAGSource struct {
	STG string `yaml:"stg,omitempty" json:"stg,omitempty"`
	DOT string `yaml:"dot,omitempty" json:"dot,omitempty"`
	// WfCommons is a WfFormat instance (see ReadWfCommons): tasks weighted
	// by their recorded runtimes in seconds, edges by the bytes of the
	// files between them.
	WfCommons string `yaml:"wfcommons,omitempty" json:"wfcommons,omitempty"`
	FFT       int    `yaml:"fft,omitempty" json:"fft,omitempty"`     // number of points N, a power of two
	Gauss     int    `yaml:"gauss,omitempty" json:"gauss,omitempty"` // matrix size m
	// KeepDummies keeps an STG file's dummy entry and exit nodes as tasks
	// (paper 002 counts them: 302 tasks for the 300-task set).
	KeepDummies bool `yaml:"keep_dummies,omitempty" json:"keep_dummies,omitempty"`
	// UnitWeights sets every task's weight to 1, as paper 002 does.
	UnitWeights bool `yaml:"unit_weights,omitempty" json:"unit_weights,omitempty"`
}

// Memory a run takes for its task graph, measured end to end (load, plan,
// replay, check: a DOT file of 10^5 tasks, 4.7 MiB, took 300 MB), used to
// refuse a graph too large before it is read or built.
const (
	dagBytesPerTask  = 3 << 10 // with its two edges on average
	fileBytesPerByte = 64      // DOT and STG text
)

// Load builds the graph within the memory budget b; dir is the directory
// relative paths start from. Errors are *FieldError below path. The
// warnings say what a file held that the graph does not use (a DOT file's
// Graphviz attributes), each naming the field and the file. A file is
// read until ctx is done: the error then wraps ctx.Err().
func (s *DAGSource) Load(ctx context.Context, path, dir string, b budget.Bytes) (g *DAG, warnings []FieldWarning, err error) {
	return s.loadAt(ctx, rootPath(path), dir, b)
}

// loadAt is Load below a path kept in pieces.
func (s *DAGSource) loadAt(ctx context.Context, path fieldPath, dir string, b budget.Bytes) (*DAG, []FieldWarning, error) {
	set := 0
	for _, on := range []bool{s.STG != "", s.DOT != "", s.WfCommons != "", s.FFT != 0, s.Gauss != 0} {
		if on {
			set++
		}
	}
	if set != 1 {
		return nil, nil, fieldErr(path, "must set exactly one of stg, dot, wfcommons, fft, gauss")
	}
	g, field, warning, err := s.load(ctx, dir, b)
	if err != nil {
		if ctx.Err() != nil {
			at := path.field(field)
			return nil, nil, fmt.Errorf("%s: %w", at.String(), ctx.Err())
		}
		return nil, nil, fieldErr(path.field(field), "%v", err)
	}
	if s.UnitWeights {
		g = g.UnitWeights()
	}
	var warnings []FieldWarning
	if warning != "" {
		at := path.field(field)
		warnings = append(warnings, FieldWarning{Path: at.String(), Msg: warning})
	}
	return g, warnings, nil
}

// load builds the graph and says which field of the source it came from,
// for errors, with the reader's warning ("" when none). Files are read
// through withContext.
func (s *DAGSource) load(ctx context.Context, dir string, b budget.Bytes) (g *DAG, field, warning string, err error) {
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	switch {
	case s.STG != "":
		r, err := b.Open(rel(s.STG), fileBytesPerByte)
		if err != nil {
			return nil, "stg", "", err
		}
		defer r.Close()
		stg, err := ReadSTG(withContext(ctx, r), rel(s.STG), STGOptions{KeepDummies: s.KeepDummies})
		if err != nil {
			return nil, "stg", "", err
		}
		return stg.DAG, "", "", nil
	case s.DOT != "":
		r, err := b.Open(rel(s.DOT), fileBytesPerByte)
		if err != nil {
			return nil, "dot", "", err
		}
		defer r.Close()
		g, warning, err = ReadDOTWithin(withContext(ctx, r), rel(s.DOT), b)
		return g, "dot", warning, err
	case s.WfCommons != "":
		w, err := ReadWfCommonsFileWithin(rel(s.WfCommons), b)
		if err != nil {
			return nil, "wfcommons", "", err
		}
		return w.DAG, "", "", nil
	case s.FFT != 0:
		if err := checkTasks(b, fftTasks(s.FFT)); err != nil {
			return nil, "fft", "", err
		}
		g, err = FFT(s.FFT)
		return g, "fft", "", err
	}
	if err := checkTasks(b, gaussTasks(s.Gauss)); err != nil {
		return nil, "gauss", "", err
	}
	g, err = GaussianElimination(s.Gauss)
	return g, "gauss", "", err
}

// checkTasks refuses a generated graph of n tasks above the budget.
func checkTasks(b budget.Bytes, n float64) error {
	return b.Check(fmt.Sprintf("%.4g tasks need", n), n*dagBytesPerTask)
}

// fftTasks is the size of FFT(n): 2n − 1 recursive calls and n·log2 n
// butterflies.
func fftTasks(n int) float64 {
	return 2*float64(n) - 1 + float64(n)*math.Log2(float64(max(n, 1)))
}

// gaussTasks is the size of GaussianElimination(m): (m² + m − 2)/2.
func gaussTasks(m int) float64 {
	fm := float64(m)
	return (fm*fm + fm - 2) / 2
}

// Resolve loads a DAG given by From into its Tasks and Edges, within the
// memory budget b; a DAG with both listed tasks and a source is an error.
// dir is where relative paths start. The warnings are DAGSource.Load's;
// when ctx is done before the graph is read, the error wraps ctx.Err().
func (g *DAG) Resolve(ctx context.Context, path, dir string, b budget.Bytes) (warnings []FieldWarning, err error) {
	if g.From == nil {
		return nil, nil
	}
	root := rootPath(path)
	from := root.field("from")
	if len(g.Tasks) > 0 || len(g.Edges) > 0 {
		return nil, fieldErr(from, "give either tasks and edges or from, not both")
	}
	loaded, warnings, err := g.From.loadAt(ctx, from, dir, b)
	if err != nil {
		return nil, err
	}
	if len(loaded.Tasks) == 0 {
		return nil, fieldErr(from, "the graph has no tasks")
	}
	g.Tasks, g.Edges = loaded.Tasks, loaded.Edges
	return warnings, nil
}

// String names the source, for messages.
func (s *DAGSource) String() string {
	switch {
	case s.STG != "":
		return "stg " + s.STG
	case s.DOT != "":
		return "dot " + s.DOT
	case s.WfCommons != "":
		return "wfcommons " + s.WfCommons
	case s.FFT != 0:
		return fmt.Sprintf("fft(%d)", s.FFT)
	}
	return fmt.Sprintf("gauss(%d)", s.Gauss)
}

// withContext is r read until ctx is done, when its reads fail with
// ctx.Err(); it seeks when r does.
func withContext(ctx context.Context, r io.Reader) io.Reader {
	c := ctxReader{ctx, r}
	if s, ok := r.(io.Seeker); ok {
		return ctxReadSeeker{c, s}
	}
	return c
}

// ctxReader is withContext of a reader.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// ctxReadSeeker is withContext of a reader that seeks.
type ctxReadSeeker struct {
	ctxReader
	s io.Seeker
}

func (c ctxReadSeeker) Seek(offset int64, whence int) (int64, error) {
	return c.s.Seek(offset, whence)
}

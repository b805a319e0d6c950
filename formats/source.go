// Package formats reads the files a scenario names for its task graph
// (STG, DOT, WfCommons, or a generated family) and its platform (a
// WfCommons instance's machines), each format in its own package: dot,
// stg, wfcommons. Package models holds the data they build and its
// validation.
package formats

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/netsched/netsched/formats/dot"
	"github.com/netsched/netsched/formats/stg"
	"github.com/netsched/netsched/formats/wfcommons"
	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
)

// Memory a run takes for its task graph, measured end to end (load, plan,
// replay, check: a DOT file of 10^5 tasks, 4.7 MiB, took 300 MB), used to
// refuse a graph too large before it is read or built.
const (
	dagBytesPerTask  = 3 << 10 // with its two edges on average
	fileBytesPerByte = 64      // DOT and STG text
)

// LoadDAG builds the graph s gives within the memory budget b; dir is the
// directory relative paths start from. Errors are *models.FieldError
// below path. The warnings say what a file held that the graph does not
// use (a DOT file's Graphviz attributes), each naming the field and the
// file. A file is read until ctx is done: the error then wraps ctx.Err().
func LoadDAG(ctx context.Context, s *models.DAGSource, path, dir string, b budget.Bytes) (g *models.DAG, warnings []models.FieldWarning, err error) {
	if err := s.Validate(path); err != nil {
		return nil, nil, err
	}
	g, field, warning, err := load(ctx, s, dir, b)
	at := path
	if field != "" {
		at += "." + field
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("%s: %w", at, ctx.Err())
		}
		return nil, nil, &models.FieldError{Path: at, Msg: err.Error(), Err: err}
	}
	if s.UnitWeights {
		g = g.UnitWeights()
	}
	if warning != "" {
		warnings = append(warnings, models.FieldWarning{Path: at, Msg: warning})
	}
	return g, warnings, nil
}

// load builds the graph and says which field of the source it came from,
// for errors, with the reader's warning ("" when none). Files are read
// through withContext.
func load(ctx context.Context, s *models.DAGSource, dir string, b budget.Bytes) (g *models.DAG, field, warning string, err error) {
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
		graph, err := stg.Read(withContext(ctx, r), rel(s.STG), stg.Options{KeepDummies: s.KeepDummies})
		if err != nil {
			return nil, "stg", "", err
		}
		return graph.DAG, "", "", nil
	case s.DOT != "":
		r, err := b.Open(rel(s.DOT), fileBytesPerByte)
		if err != nil {
			return nil, "dot", "", err
		}
		defer r.Close()
		g, warning, err = dot.ReadWithin(withContext(ctx, r), rel(s.DOT), b)
		return g, "dot", warning, err
	case s.WfCommons != "":
		w, err := wfcommons.ReadFileWithin(rel(s.WfCommons), b)
		if err != nil {
			return nil, "wfcommons", "", err
		}
		return w.DAG, "", "", nil
	case s.FFT != 0:
		if err := checkTasks(b, fftTasks(s.FFT)); err != nil {
			return nil, "fft", "", err
		}
		g, err = models.FFT(s.FFT)
		return g, "fft", "", err
	}
	if err := checkTasks(b, gaussTasks(s.Gauss)); err != nil {
		return nil, "gauss", "", err
	}
	g, err = models.GaussianElimination(s.Gauss)
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

// ResolveDAG loads a DAG given by g.From into its Tasks and Edges, within
// the memory budget b; a DAG with both listed tasks and a source is an
// error. dir is where relative paths start. The warnings are LoadDAG's;
// when ctx is done before the graph is read, the error wraps ctx.Err().
func ResolveDAG(ctx context.Context, g *models.DAG, path, dir string, b budget.Bytes) (warnings []models.FieldWarning, err error) {
	if g.From == nil {
		return nil, nil
	}
	from := path + ".from"
	if len(g.Tasks) > 0 || len(g.Edges) > 0 {
		return nil, &models.FieldError{Path: from, Msg: "give either tasks and edges or from, not both"}
	}
	loaded, warnings, err := LoadDAG(ctx, g.From, from, dir, b)
	if err != nil {
		return nil, err
	}
	if len(loaded.Tasks) == 0 {
		return nil, &models.FieldError{Path: from, Msg: "the graph has no tasks"}
	}
	g.Tasks, g.Edges = loaded.Tasks, loaded.Edges
	return warnings, nil
}

// ResolvePlatform builds a platform given by p.From into its
// MultiCluster; dir is where a relative path starts. The file is read
// whole, up to wfcommons.MaxSize and within the memory budget b, as for
// a task graph from WfCommons; the platform it makes is checked against
// the budget with the rest of the scenario. From is then cleared, so that the platform is a
// multi-cluster like any other. Errors are *models.FieldError below
// "platform.from".
func ResolvePlatform(p *models.Platform, dir string, b budget.Bytes) error {
	if p.From == nil {
		return nil
	}
	memory, err := p.ValidateSource()
	if err != nil {
		return err
	}
	s := p.From
	file := s.WfCommons
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	fail := func(err error) error {
		return &models.FieldError{Path: "platform.from.wfcommons", Msg: err.Error(), Err: err}
	}
	w, err := wfcommons.ReadFileWithin(file, b)
	if err != nil {
		return fail(err)
	}
	m, err := wfcommons.MultiCluster(w, s.Bandwidth, memory, s.Alpha)
	if err != nil {
		return fail(err)
	}
	p.MultiCluster, p.From = m, nil
	return nil
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

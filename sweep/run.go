package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sync/errgroup"

	"github.com/netsched/netsched/internal/atomicfile"
	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/runs"
	"github.com/netsched/netsched/scenarios"
)

// Options say how Run executes a plan.
type Options struct {
	Jobs     int    // parallel workers; < 1 means 1
	Shard    Shard  // the slice to run; the zero value runs everything
	Out      string // results CSV; "" keeps results in memory, with no journal
	Progress func(done, total int)
	// KeepRuns keeps each row's Schedule and Result (for schedule files
	// and Gantt charts). Without it rows have neither, so a sweep holds only
	// its rows, however long its schedules; replays record no trace, and
	// each worker hands its last schedule to the next policy it runs to
	// build in (policies.Instance.Recycle).
	KeepRuns bool

	// killedAt, in tests, stops the final write of a sweep after the step
	// it names as a kill would: it returns true to leave everything as it
	// is at that instant.
	killedAt func(step string) bool
}

// errKilled is what Run returns when a test's killedAt stopped it.
var errKilled = errors.New("killed by the test")

// Manifest describes a finished results file: which sweep and which shard
// it holds. It is written beside the CSV as OUT.sweep.json, and read by a
// rerun (to see that nothing is left) and by Merge.
type Manifest struct {
	Fingerprint string   `json:"fingerprint"`
	Scenario    string   `json:"scenario"`
	Axes        []string `json:"axes"`
	Shard       string   `json:"shard"`
	JobsTotal   int      `json:"jobs_total"`
	Rows        int      `json:"rows"`
}

// ManifestPath is where the manifest of a results CSV is kept.
func ManifestPath(out string) string { return out + ".sweep.json" }

// Run executes the plan's jobs of one shard on opt.Jobs goroutines and
// returns their rows in job order. With opt.Out set, finished rows go to
// the journal as they complete, a rerun resumes from it, and the final CSV
// and its manifest are written atomically at the end. A policy that fails
// at a point gives a row with its error; the sweep goes on.
func Run(ctx context.Context, p *Plan, opt Options) (*Table, error) {
	if opt.Shard.N == 0 {
		opt.Shard = Shard{0, 1}
	}
	jobs := p.Jobs()
	idx := opt.Shard.Indices(len(jobs))
	if opt.Out == "" {
		rows, err := runJobs(ctx, p, jobs, idx, nil, nil, opt)
		if err != nil {
			return nil, err
		}
		return p.table(rows), nil
	}
	fp, err := p.Fingerprint()
	if err != nil {
		return nil, err
	}
	man := Manifest{Fingerprint: fp, Scenario: p.Base.Name, Axes: p.AxisNames(),
		Shard: opt.Shard.String(), JobsTotal: len(jobs), Rows: len(idx)}
	if err := checkOutPath(opt.Out); err != nil {
		return nil, err
	}
	lock, err := lockOutput(opt.Out)
	if err != nil {
		return nil, err
	}
	t, err := runLocked(ctx, p, jobs, idx, opt, man)
	if errors.Is(err, errKilled) {
		lock.f.Close() // as a kill would: the lock file stays, its flock goes
		return nil, err
	}
	return t, errors.Join(err, lock.unlock())
}

// runLocked is Run for a sweep that writes opt.Out, once it holds the
// output's lock: it clears what a killed run of it left (temporary files
// of the final write, a journal already folded into the results), resumes
// from the journal, and writes the manifest, then the CSV, then removes
// the journal. A kill at any instant leaves a state the next run finishes
// from: the journal alone, the journal and the manifest, or the complete
// results (and maybe the journal, which it then removes).
func runLocked(ctx context.Context, p *Plan, jobs []Job, idx []int, opt Options, man Manifest) (*Table, error) {
	if err := removeTemps(opt.Out); err != nil {
		return nil, err
	}
	if t, err := finished(opt.Out, man); err != nil || t != nil {
		if t != nil {
			err = removeIfExists(JournalPath(opt.Out))
		}
		return t, err
	}
	jr, done, err := openJournal(JournalPath(opt.Out), man.Fingerprint)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		err = &OutputError{fmt.Errorf("cannot write %s: %w", opt.Out, err)}
	}
	if err != nil {
		return nil, err
	}
	rows, err := runJobs(ctx, p, jobs, idx, done, jr, opt)
	if cerr := jr.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	t := p.table(rows)
	if err := writeResults(opt.Out, t, man, opt.killedAt); err != nil {
		return nil, err
	}
	return t, os.Remove(JournalPath(opt.Out))
}

// checkOutPath rejects a results path where no file can be written.
func checkOutPath(out string) error {
	switch _, err := os.Stat(out); {
	case err == nil, errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Dir(out)); err != nil {
			return &OutputError{fmt.Errorf("cannot write %s: %w", out, err)}
		}
		return nil
	case errors.Is(err, syscall.ENOTDIR):
		return &OutputError{fmt.Errorf("cannot write %s: %s is not a directory", out, dirThroughFile(out))}
	default:
		return &OutputError{fmt.Errorf("cannot write %s: %w", out, err)}
	}
}

// removeTemps removes the temporary files a killed final write of out
// left beside it (package atomicfile's names).
func removeTemps(out string) error {
	dir, base := filepath.Split(out)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		for _, b := range []string{base, filepath.Base(ManifestPath(out))} {
			if strings.HasPrefix(name, atomicfile.TempPrefix(b)) {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// removeIfExists removes a file, and is content when there is none.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// finished returns the table of a results file this same sweep already
// completed, nil if there is none, or an error if the file belongs to
// another sweep (which it leaves untouched).
func finished(out string, want Manifest) (*Table, error) {
	if _, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	got, err := ReadManifest(out)
	if err != nil {
		return nil, &OutputError{fmt.Errorf("%s exists but has no readable %s, so it was not written by this sweep; remove it or choose another --out",
			out, ManifestPath(out))}
	}
	if got.Fingerprint != want.Fingerprint || got.Shard != want.Shard {
		return nil, &OutputError{fmt.Errorf("%s holds another sweep (scenario %s, shard %s); remove it or choose another --out",
			out, got.Scenario, got.Shard)}
	}
	return ReadCSVFile(out)
}

// ReadManifest reads the manifest beside a results CSV.
func ReadManifest(out string) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(ManifestPath(out))
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", ManifestPath(out), err)
	}
	return m, nil
}

// ReadCSVFile reads a results CSV from a file.
func ReadCSVFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCSV(path, f)
}

// writeResults writes the manifest, then the CSV: a results CSV is never
// without its manifest, and a manifest without its CSV only says what the
// journal beside it is finishing. killedAt, if not nil, may stop it after
// either step.
func writeResults(out string, t *Table, man Manifest, killedAt func(string) bool) error {
	err := atomicfile.Write(ManifestPath(out), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(man)
	})
	if err != nil {
		return err
	}
	if killedAt != nil && killedAt("manifest") {
		return errKilled
	}
	if err := atomicfile.Write(out, t.WriteCSV); err != nil {
		return err
	}
	if killedAt != nil && killedAt("csv") {
		return errKilled
	}
	return nil
}

// runJobs runs the jobs of idx not yet done and returns every row of idx,
// in order. With a journal, each new row is appended as it finishes, and
// rows are passed through the journal's encoding so that a resumed sweep
// and an uninterrupted one give identical results.
func runJobs(ctx context.Context, p *Plan, jobs []Job, idx []int, done map[int]*Row, jr *journal, opt Options) ([]*Row, error) {
	b := &batch{p: p, jobs: jobs, idx: idx, rows: make([]*Row, len(idx))}
	var pending []int // positions in idx still to run
	for pos, k := range idx {
		if r, ok := done[k]; ok {
			b.rows[pos] = p.label(jobs[k], r)
		} else {
			pending = append(pending, pos)
		}
	}
	b.rec = &recorder{jr: jr, progress: opt.Progress,
		finished: len(idx) - len(pending), total: len(idx)}
	b.rec.report()
	workers := min(max(opt.Jobs, 1), len(pending))
	b.queue = newJobQueue(pending, workers)
	g, gctx := errgroup.WithContext(ctx)
	for range workers {
		g.Go(func() error {
			w := newWorker(p, opt.KeepRuns)
			defer w.rn.Close() // the worker's external policies' processes
			return b.work(gctx, w)
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return b.rows, nil
}

// batch is the jobs of one runJobs call and what its workers share.
type batch struct {
	p     *Plan
	jobs  []Job
	idx   []int  // the jobs to return, by position
	rows  []*Row // by position in idx: each worker fills those it runs
	rec   *recorder
	queue *jobQueue
}

// work is one worker: it takes jobs from the queue until none is left, on
// its own runner (one replay engine, reused) and journal encoder.
func (b *batch) work(ctx context.Context, w *worker) error {
	enc := newJournalEncoder()
	for blk := b.queue.take(); len(blk) > 0; blk = b.queue.take() {
		for _, pos := range blk {
			if err := ctx.Err(); err != nil {
				return err
			}
			k := b.idx[pos]
			r, err := w.runJob(ctx, b.jobs[k])
			if err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err // a cancelled run is not a result
			}
			r, err = b.rec.record(k, r, enc)
			if err != nil {
				return err
			}
			b.rows[pos] = b.p.label(b.jobs[k], r)
		}
	}
	return ctx.Err()
}

// jobQueue hands out positions to run, in order, a block at a time: with
// blocks of a few jobs, workers seldom write the same counter or the same
// cache line of rows, and 64 blocks per worker still balance the load.
type jobQueue struct {
	pending []int
	block   int
	next    atomic.Int64 // index into pending of the next block
}

func newJobQueue(pending []int, workers int) *jobQueue {
	return &jobQueue{pending: pending, block: max(1, len(pending)/(64*max(workers, 1)))}
}

// take returns the next block, empty when every job has been taken.
func (q *jobQueue) take() []int {
	end := int(q.next.Add(int64(q.block)))
	n := len(q.pending)
	return q.pending[min(end-q.block, n):min(end, n)]
}

// recorder keeps what the workers of runJobs share: the journal and the
// progress count. Its lock is taken only for those, so workers of an
// in-memory sweep without a progress bar never wait for one another.
type recorder struct {
	jr       *journal
	progress func(done, total int)

	mu              sync.Mutex
	finished, total int
}

// record appends the row of job k to the journal, encoded by the
// worker's enc, takes it back as the journal holds it (so that a resumed
// sweep holds the same values: the CSV of a record gives back its cells)
// and counts it.
func (rc *recorder) record(k int, r *Row, enc *journalEncoder) (*Row, error) {
	var line []byte
	if rc.jr != nil {
		kept, fields := r, journalFields(k, r)
		line = enc.encode(fields)
		var err error
		if _, r, err = rowFromFields(fields); err != nil { // a metric name with ';' or '='
			return nil, fmt.Errorf("%s: the journal cannot hold this row: %w", kept.Policy, err)
		}
		r.Schedule, r.Result = kept.Schedule, kept.Result
	}
	if rc.jr == nil && rc.progress == nil {
		return r, nil
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.jr != nil {
		if err := rc.jr.add(line); err != nil {
			return nil, err
		}
	}
	rc.finished++
	rc.report()
	return r, nil
}

// report passes the progress on, if anyone listens; the caller holds the
// lock or is alone.
func (rc *recorder) report() {
	if rc.progress != nil {
		rc.progress(rc.finished, rc.total)
	}
}

// worker is what one goroutine of a sweep runs jobs with: its runner
// (one replay engine, reused) and the last sweep point it made, which the
// next jobs (its other policies and seeds) usually share: a point is
// read-only.
type worker struct {
	p         *Plan
	rn        *runs.Runner
	lastPoint int
	lastSc    *scenarios.Scenario
}

func newWorker(p *Plan, keep bool) *worker {
	return &worker{p: p, rn: runs.NewRunner(p.Base.Policies, p.Mode, keep), lastPoint: -1}
}

// point returns the scenario at point i, made once for consecutive jobs
// at the same point.
func (w *worker) point(i int) (*scenarios.Scenario, error) {
	if w.lastSc != nil && w.lastPoint == i {
		return w.lastSc, nil
	}
	sc, err := w.p.Scenario(i)
	if err != nil {
		return nil, err
	}
	w.lastPoint, w.lastSc = i, sc
	return sc, nil
}

// runJob runs one job; failures become rows with their error, but for
// a run that would pass the memory budget (budget.IsExceeded), which
// stops the sweep: its error is returned.
func (w *worker) runJob(ctx context.Context, j Job) (*Row, error) {
	p := w.p
	sc, err := w.point(j.Point)
	if err == nil {
		var r *Row
		if r, err = w.rn.Run(ctx, sc, j.Policy, j.Seed); err == nil {
			if !p.Timing {
				r.PlanSeconds = 0
			}
			return r, nil
		}
	}
	if budget.IsExceeded(err) {
		return nil, err
	}
	return runs.Failed(p.Base.Name, p.Base.Policies[j.Policy].ID(), j.Seed, p.Mode, err), nil
}

// label fills the columns a journal record leaves to the plan.
func (p *Plan) label(j Job, r *Row) *Row {
	r.Scenario = p.Base.Name
	r.Point = p.Points[j.Point]
	r.Policy = p.Base.Policies[j.Policy].ID()
	r.Seed = j.Seed
	r.Mode = p.Mode.String()
	return r
}

func (p *Plan) table(rows []*Row) *Table {
	return &Table{Axes: p.AxisNames(), Timing: p.Timing, Rows: rows}
}

// dirThroughFile is the first directory of path's that is a file.
func dirThroughFile(path string) string {
	dir := filepath.Dir(path)
	for parent := filepath.Dir(dir); parent != dir; dir, parent = parent, filepath.Dir(parent) {
		if st, err := os.Stat(parent); err == nil && st.IsDir() {
			break
		}
	}
	return dir
}

// OutputError is an error about the results file a sweep was asked to
// write rather than about its runs: a file or journal of another sweep,
// or a path where no file can be written. It is the caller's to fix.
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return e.Err.Error() }

// Unwrap returns the error it wraps.
func (e *OutputError) Unwrap() error { return e.Err }

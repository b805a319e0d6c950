package external

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/schedfile"
	"github.com/netsched/netsched/sim"
)

// outputLimit is the most a process may print for one schedule, and the
// error of printing more: maxStdoutLen, or less when the budget ctx
// carries (budget.FromContext) cannot hold a schedule that large, at
// schedfile.BytesPerByte bytes of memory per byte printed. Passing the
// budget's limit is a *budget.ExceededError, which stops the command;
// passing maxStdoutLen, an error of this policy's run.
func outputLimit(ctx context.Context) (int, error) {
	limit := maxStdoutLen
	if b, ok := budget.FromContext(ctx); ok && b > 0 && int64(b)/schedfile.BytesPerByte < int64(limit) {
		limit = int(int64(b) / schedfile.BytesPerByte)
		return limit, &budget.ExceededError{
			What: fmt.Sprintf("printed more than %s on its standard output, whose schedule would need (at %d bytes of memory per byte, within its run's share of the budget)",
				budget.Format(float64(limit)), schedfile.BytesPerByte),
			Need: float64(limit+1) * schedfile.BytesPerByte, Budget: b}
	}
	return limit, fmt.Errorf("printed more than %d MiB on its standard output", maxStdoutLen>>20)
}

// Error is a failure of an external policy's process: it could not start,
// exited with a non-zero status, ran past its timeout, was cancelled, or
// printed something that is not a schedule. Stderr holds the last lines of
// its standard error.
type Error struct {
	Command []string
	Err     error
	Stderr  []string
}

// Error gives the command, what went wrong and the end of its standard
// error, on one line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v", strings.Join(e.Command, " "), e.Err)
	if len(e.Stderr) > 0 {
		fmt.Fprintf(&b, "; stderr: %s", strings.Join(e.Stderr, " | "))
	} else {
		b.WriteString("; stderr empty")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrTimeout is what an *Error wraps when the process ran past its
// timeout.
var ErrTimeout = errors.New("timed out")

// Policy runs an external policy. It is a policies.Planner, but not safe
// for concurrent use: a sweep keeps one per worker. Close stops a
// persistent process.
type Policy struct {
	spec  Spec
	label string
	proc  *process // the persistent process, nil until started or after a failure
}

// New returns the policy labelled label that spec runs.
func New(spec Spec, label string) *Policy { return &Policy{spec: spec, label: label} }

// Plan writes the instance to the process and reads its schedule, which it
// returns unchecked: a node given by name is resolved on in.Platform, the
// rest is the replay's to check.
func (p *Policy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	data, err := NewInstance(in, p.label).Marshal()
	if err != nil {
		return nil, err
	}
	if p.spec.Persistent {
		return p.ask(ctx, data, in.Platform)
	}
	return p.once(ctx, data, in.Platform)
}

// Close stops the persistent process, if one runs: its standard input is
// closed, and it is killed if it has not exited a second later.
func (p *Policy) Close() error {
	if p.proc == nil {
		return nil
	}
	pr := p.proc
	p.proc = nil
	pr.in.Close()
	select {
	case <-pr.done:
	case <-time.After(time.Second):
		killGroup(pr.cmd)
		<-pr.done
	}
	return nil
}

// command prepares the process, in its own process group.
func (p *Policy) command() *exec.Cmd {
	cmd := exec.Command(p.spec.Command[0], p.spec.Command[1:]...)
	cmd.Dir = p.spec.Dir
	ownGroup(cmd)
	// A child the process leaves behind may hold its output open: stop
	// waiting for it a second after the process itself has exited.
	cmd.WaitDelay = time.Second
	return cmd
}

func (p *Policy) fail(err error, stderr *tail) *Error {
	e := &Error{Command: p.spec.Command, Err: err}
	if stderr != nil {
		e.Stderr = stderr.lines()
	}
	return e
}

// once runs one process for one instance.
func (p *Policy) once(ctx context.Context, data []byte, plat *models.Platform) (*sim.Schedule, error) {
	cmd := p.command()
	cmd.Stdin = bytes.NewReader(append(data, '\n'))
	out := &output{}
	out.limit, out.over = outputLimit(ctx)
	stderr := &tail{}
	cmd.Stdout, cmd.Stderr = out, stderr
	if err := cmd.Start(); err != nil {
		return nil, p.fail(fmt.Errorf("cannot start: %w", err), nil)
	}
	w := arm(ctx, p.spec.timeout(), cmd)
	err := cmd.Wait()
	if why := w.disarm(); why != nil {
		return nil, p.fail(why, stderr)
	}
	if out.passed { // the process may have ended on the broken pipe
		return nil, p.fail(out.over, stderr)
	}
	if err != nil {
		return nil, p.fail(exitError(err), stderr)
	}
	return p.read(out.Bytes(), plat, stderr)
}

// read decodes the schedule a process printed.
func (p *Policy) read(out []byte, plat *models.Platform, stderr *tail) (*sim.Schedule, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, p.fail(errors.New("printed no schedule on its standard output"), stderr)
	}
	s, err := schedfile.ReadBytes(out, plat)
	if err != nil {
		return nil, p.fail(fmt.Errorf("printed no valid schedule on its standard output: %w", err), stderr)
	}
	return s, nil
}

// exitError says how a process ended, for an error.
func exitError(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("exited with %v", ee.ProcessState)
	}
	return err
}

// watch kills a process when its time is up or its context is done.
type watch struct {
	mu       sync.Mutex
	why      error // why the process was killed, nil if it was not
	disarmed bool
	stops    []func() bool
}

// arm starts watching cmd, started, for one planning.
func arm(ctx context.Context, timeout time.Duration, cmd *exec.Cmd) *watch {
	w := &watch{}
	fire := func(why error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.disarmed && w.why == nil {
			w.why = why
			killGroup(cmd)
		}
	}
	t := time.AfterFunc(timeout, func() {
		fire(fmt.Errorf("%w: no schedule within %v; killed", ErrTimeout, timeout))
	})
	stop := context.AfterFunc(ctx, func() { fire(fmt.Errorf("cancelled (%w); killed", context.Cause(ctx))) })
	w.stops = []func() bool{t.Stop, stop}
	return w
}

// disarm stops watching and says why the process was killed, if it was.
func (w *watch) disarm() error {
	for _, stop := range w.stops {
		stop()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.disarmed = true
	return w.why
}

// process is a persistent policy's running process.
type process struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	done   chan struct{} // closed once the process has exited
	err    error         // how it exited, once done is closed
}

// start starts the persistent process.
func (p *Policy) start() (*process, error) {
	cmd := p.command()
	pr := &process{cmd: cmd, stderr: &tail{}, done: make(chan struct{})}
	cmd.Stderr = pr.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, p.fail(err, nil)
	}
	// The process's output is read from a pipe of our own, which Wait
	// does not close: a schedule printed just before exiting is still read.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, p.fail(err, nil)
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, p.fail(fmt.Errorf("cannot start: %w", err), nil)
	}
	w.Close()
	pr.in, pr.out = in, bufio.NewReaderSize(r, 64<<10)
	go func() {
		pr.err = cmd.Wait()
		r.Close()
		close(pr.done)
	}()
	return pr, nil
}

// ask sends one instance to the persistent process, starting it first if
// none runs, and reads its schedule. After a failure the process is
// killed, and the next call starts a new one.
func (p *Policy) ask(ctx context.Context, data []byte, plat *models.Platform) (*sim.Schedule, error) {
	if p.proc == nil {
		pr, err := p.start()
		if err != nil {
			return nil, err
		}
		p.proc = pr
	}
	pr := p.proc
	w := arm(ctx, p.spec.timeout(), pr.cmd)
	written := make(chan error, 1)
	go func() {
		_, err := pr.in.Write(append(data, '\n'))
		written <- err
	}()
	limit, over := outputLimit(ctx)
	line, err := readLine(pr.out, limit, over)
	if err == nil {
		err = <-written // a reply before the whole instance was read is an error too
	}
	why := w.disarm()
	if why == nil && err == nil {
		s, err := p.read(line, plat, pr.stderr)
		if err != nil {
			p.stop()
		}
		return s, err
	}
	p.stop()
	switch {
	case why != nil:
		err = why
	case err == io.EOF || errors.Is(err, os.ErrClosed) || isPipe(err):
		err = fmt.Errorf("ended with no schedule printed (%s)", exitState(pr))
	case errors.Is(err, io.EOF):
		err = fmt.Errorf("%w (%s)", err, exitState(pr))
	}
	return nil, p.fail(err, pr.stderr)
}

// stop kills the persistent process and waits for it to end.
func (p *Policy) stop() {
	pr := p.proc
	p.proc = nil
	killGroup(pr.cmd)
	pr.in.Close()
	<-pr.done
}

// exitState says how a process that has ended exited.
func exitState(pr *process) string {
	<-pr.done
	if pr.cmd.ProcessState != nil {
		return "exited with " + pr.cmd.ProcessState.String()
	}
	return fmt.Sprint(pr.err)
}

// isPipe says whether err is a write to a process that no longer reads.
func isPipe(err error) bool {
	return err != nil && strings.Contains(err.Error(), "broken pipe")
}

// readLine reads one line of at most limit bytes, without its newline;
// a longer one is the error over.
func readLine(r *bufio.Reader, limit int, over error) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, over
		}
		line = append(line, frag...)
		switch {
		case err == nil:
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, fmt.Errorf("printed %q, then no end of line: %w", preview(line), io.EOF)
		default:
			return nil, err
		}
	}
}

// preview cuts output for an error message.
func preview(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

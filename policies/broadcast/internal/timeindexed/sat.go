package timeindexed

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// CaDiCaL returns the path of the cadical command (Debian's cadical), the
// SAT solver Solve runs.
func CaDiCaL() (string, error) {
	path, err := exec.LookPath("cadical")
	if err != nil {
		return "", fmt.Errorf("the SAT solver CaDiCaL is not installed (Debian package cadical): %w", err)
	}
	return path, nil
}

// Answer is what the SAT solver said of a formula.
type Answer struct {
	Status  string // "SATISFIABLE", "UNSATISFIABLE" or "UNKNOWN"
	Elapsed time.Duration
	values  []bool // per variable, when satisfiable
}

// Satisfiable reports whether the formula has a model: the answer holds a
// schedule of the model (see CNF.Schedule).
func (a *Answer) Satisfiable() bool { return a.Status == "SATISFIABLE" }

// Unsatisfiable reports whether the formula has none: no feasible
// schedule ends within the horizon.
func (a *Answer) Unsatisfiable() bool { return a.Status == "UNSATISFIABLE" }

// Decide builds the model's formula and solves it (CNF, then CNF.Solve).
func (m *Model) Decide(ctx context.Context, solver string) (*CNF, *Answer, error) {
	f, err := m.CNF()
	if err != nil {
		return nil, nil, err
	}
	a, err := f.Solve(ctx, solver)
	return f, a, err
}

// Solve runs the SAT solver (the path of cadical, or of a solver that
// reads DIMACS on its standard input and answers in the SAT competition's
// format) on the formula, fed through a pipe, with the option -q and args
// (such as cadical's conflict limit, "-c", "20000": a solver that stops at
// its limit answers UNKNOWN). The solver is killed when ctx ends, and the
// answer is then UNKNOWN with ctx's error.
func (f *CNF) Solve(ctx context.Context, solver string, args ...string) (*Answer, error) {
	a := &Answer{Status: "UNKNOWN"}
	if err := ctx.Err(); err != nil {
		return a, err
	}
	cmd := exec.CommandContext(ctx, solver, append([]string{"-q"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("sat solver: %w", err)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sat solver: %w", err)
	}
	werr := f.Write(in)
	if cerr := in.Close(); werr == nil {
		werr = cerr
	}
	err = cmd.Wait()
	a.Elapsed = time.Since(begin)
	if ctx.Err() != nil {
		return a, ctx.Err()
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) || werr != nil {
		return nil, fmt.Errorf("sat solver: %w\n%s", errors.Join(err, werr), tail(errOut.String()))
	}
	if rerr := a.read(&out, int(f.vars)); rerr != nil {
		return nil, fmt.Errorf("sat solver: %w\n%s", rerr, tail(errOut.String()))
	}
	for v, flip := range f.flip {
		if flip && a.values != nil { // read back through Prefer's renaming
			a.values[v] = !a.values[v]
		}
	}
	if err != nil && a.Status == "UNKNOWN" { // it failed without an answer (cadical answers with exit status 10 or 20)
		return nil, fmt.Errorf("sat solver: %w, and no answer\n%s", err, tail(errOut.String()))
	}
	return a, nil
}

// read parses the solver's "s" and "v" lines.
func (a *Answer) read(r io.Reader, vars int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "s "):
			a.Status = strings.TrimSpace(line[2:])
		case strings.HasPrefix(line, "v "):
			if a.values == nil {
				a.values = make([]bool, vars+1)
			}
			for _, tok := range strings.Fields(line[2:]) {
				n, err := strconv.Atoi(tok)
				if err != nil {
					return fmt.Errorf("value %q", tok)
				}
				if n > 0 && n <= vars {
					a.values[n] = true
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	switch {
	case a.Status == "SATISFIABLE" && a.values == nil:
		return errors.New("satisfiable, but no values")
	case a.Status != "SATISFIABLE" && a.Status != "UNSATISFIABLE" && a.Status != "UNKNOWN":
		return fmt.Errorf("status %q", a.Status)
	}
	return nil
}

package timeindexed

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/netsched/netsched/sim"
)

// Solution is what CBC returned for a model.
type Solution struct {
	Status    string  // CBC's status: "Optimal", "Stopped on time", "Infeasible", ...
	Optimal   bool    // solved to optimality
	Feasible  bool    // holds a solution (an integer one for the MILP)
	Objective float64 // the solution's makespan in time units (C·δ), NaN without one
	Bound     float64 // the best lower bound CBC proved, in time units (= Objective when Optimal), NaN if none reported
	Elapsed   time.Duration
	StartUsed bool   // CBC accepted the start schedule of SolveFrom as a solution
	Log       string // CBC's output

	starts map[int]int // per receiver (node): the pair delivering to it, then its start slot
	slot   map[int]int
}

// CBC returns the path of the cbc command (Debian's coinor-cbc).
func CBC() (string, error) {
	path, err := exec.LookPath("cbc")
	if err != nil {
		return "", fmt.Errorf("the CBC solver is not installed (Debian package coinor-cbc): %w", err)
	}
	return path, nil
}

// Solve writes the model (its LP relaxation if relax) into a temporary
// folder, runs cbc on it with a wall-clock time limit, and reads the
// solution. The solver is killed when ctx ends or when it overruns the
// limit by much (twice the limit and 30 s).
func (m *Model) Solve(ctx context.Context, cbc string, limit time.Duration, relax bool) (*Solution, error) {
	return m.solve(ctx, cbc, limit, relax, nil)
}

// SolveFrom is Solve of the MILP with a known schedule as CBC's first
// solution (its mipstart): the search then starts with that makespan as
// its incumbent. Every transfer of start must be a transfer of the model:
// a start on the grid, an arrival within the horizon.
func (m *Model) SolveFrom(ctx context.Context, cbc string, limit time.Duration, start *sim.Schedule) (*Solution, error) {
	x, err := m.startOf(start)
	if err != nil {
		return nil, err
	}
	return m.solve(ctx, cbc, limit, false, x)
}

// slot is a time on the grid as a slot; ok is false when x is off the
// grid.
func (m *Model) slot(x float64) (t int, ok bool) {
	s := x * float64(m.k)
	t = int(math.Round(s))
	return t, math.Abs(s-float64(t)) <= gridTol*math.Max(1, s)
}

// startOf maps a schedule's transfers onto the model's binaries: pair
// index → start slot.
func (m *Model) startOf(s *sim.Schedule) (map[int]int, error) {
	index := map[[2]int]int{}
	for i, p := range m.pairs {
		index[[2]int{p.u, p.v}] = i
	}
	x := map[int]int{}
	for i, a := range s.Actions {
		if a.Kind != sim.Transfer || a.Start == nil || a.Amount != m.size {
			return nil, fmt.Errorf("start schedule: action %d is not a timed transfer of the whole message", i)
		}
		pi, ok := index[[2]int{a.From, a.To}]
		t, onGrid := m.slot(*a.Start)
		if !ok || !onGrid || t < m.pairs[pi].lo || t > m.pairs[pi].hi {
			return nil, fmt.Errorf("start schedule: action %d (%s, start %g) is not a transfer of the model: off the grid of step 1/%d or outside the horizon %g",
				i, a.Label, *a.Start, m.k, m.Horizon())
		}
		if _, dup := x[pi]; dup {
			return nil, fmt.Errorf("start schedule: action %d repeats transfer %s", i, a.Label)
		}
		x[pi] = t
	}
	return x, nil
}

// writeStart writes a mipstart file: every binary with its value.
func (m *Model) writeStart(path string, x map[int]int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	c := m.latest() // C: the last arrival, an integer variable too
	for i, t := range x {
		c = max(c, t+m.pairs[i].arrive)
	}
	fmt.Fprintf(w, "Feasible - objective value %d\n0 C %d\n", c, c)
	n := 1
	for i := range m.pairs {
		p := &m.pairs[i]
		for t := p.lo; t <= p.hi; t++ {
			v := 0
			if st, ok := x[i]; ok && st == t {
				v = 1
			}
			fmt.Fprintf(w, "%d %s %d\n", n, m.xName(p, t), v)
			n++
		}
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (m *Model) solve(ctx context.Context, cbc string, limit time.Duration, relax bool, start map[int]int) (*Solution, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("cbc: time limit must be positive, got %v", limit)
	}
	dir, err := os.MkdirTemp("", "timeindexed-")
	if err != nil {
		return nil, fmt.Errorf("cbc: %w", err)
	}
	defer os.RemoveAll(dir)
	lp, sol := filepath.Join(dir, "model.lp"), filepath.Join(dir, "solution.txt")
	f, err := os.Create(lp)
	if err != nil {
		return nil, fmt.Errorf("cbc: %w", err)
	}
	err = m.WriteLP(f, relax)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("cbc: %s: %w", lp, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 2*limit+30*time.Second)
	defer cancel()
	secs := strconv.FormatFloat(limit.Seconds(), 'f', 3, 64)
	args := []string{lp, "timeMode", "elapsed", "sec", secs}
	if start != nil {
		path := filepath.Join(dir, "start.txt")
		if err := m.writeStart(path, start); err != nil {
			return nil, fmt.Errorf("cbc: mipstart: %w", err)
		}
		args = append(args, "mipStart", path)
	}
	cmd := exec.CommandContext(ctx, cbc, append(args, "solve", "solution", sol)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	begin := time.Now()
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("cbc stopped after %v: %w", time.Since(begin).Round(time.Millisecond), ctx.Err())
		}
		return nil, fmt.Errorf("cbc: %w\n%s", err, tail(out.String()))
	}
	s, err := m.readSolution(sol, relax)
	switch {
	case errors.Is(err, os.ErrNotExist) && stoppedOnTime.MatchString(out.String()):
		// CBC 2.10.8 can stop on its time limit in the root node and
		// write no solution file, even after printing an objective: no
		// solution, only the bound it printed.
		s = &Solution{Status: "Stopped on time (no solution written)", Objective: math.NaN()}
	case err != nil:
		return nil, fmt.Errorf("cbc: %w\n%s", err, tail(out.String()))
	}
	s.Elapsed, s.Log = time.Since(begin), out.String()
	s.StartUsed = strings.Contains(s.Log, "MIPStart provided solution with cost")
	s.Bound = math.NaN()
	if s.Optimal {
		s.Bound = s.Objective
	} else if mm := lowerBound.FindStringSubmatch(out.String()); mm != nil {
		if b, err := strconv.ParseFloat(mm[1], 64); err == nil {
			s.Bound = b / float64(m.k)
		}
	}
	return s, nil
}

// lowerBound is the line of CBC's report giving the best bound when it
// stops before proving optimality.
var lowerBound = regexp.MustCompile(`(?m)^Lower bound:\s+(\S+)`)

// stoppedOnTime is the line of CBC's report when it reached its time limit.
var stoppedOnTime = regexp.MustCompile(`(?m)^Result - Stopped on time limit`)

// tail is the end of a solver's output, for an error message.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-15):], "\n")
}

// readSolution parses a CBC solution file: a status line "STATUS -
// objective value V", then one line "index name value reduced-cost" per
// variable.
func (m *Model) readSolution(path string, relax bool) (*Solution, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("no solution file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	if !sc.Scan() {
		return nil, fmt.Errorf("%s: empty solution file", path)
	}
	head := sc.Text()
	status, value, ok := strings.Cut(head, " - objective value ")
	if !ok {
		return nil, fmt.Errorf("%s:1: status line %q has no objective value", path, head)
	}
	s := &Solution{Status: strings.TrimSpace(status), Objective: math.NaN(), starts: map[int]int{}, slot: map[int]int{}}
	s.Optimal = s.Status == "Optimal"
	s.Feasible = s.Optimal || strings.HasPrefix(s.Status, "Stopped on") && !strings.Contains(s.Status, "no integer solution")
	obj, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil {
		return nil, fmt.Errorf("%s:1: objective value: %w", path, err)
	}
	if s.Feasible {
		s.Objective = obj / float64(m.k)
	}
	if relax || !s.Feasible {
		return s, nil
	}
	index := map[string]int{} // "u_v" → pair
	for i, p := range m.pairs {
		index[fmt.Sprintf("%d_%d", p.u, p.v)] = i
	}
	for line := 2; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s:%d: want index, name and value, got %q", path, line, sc.Text())
		}
		name, rest, ok := strings.Cut(fields[1], "_")
		if name != "x" || !ok {
			continue
		}
		v, err := strconv.ParseFloat(fields[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: value of %s: %w", path, line, fields[1], err)
		}
		if v < 0.5 {
			continue
		}
		cut := strings.LastIndexByte(rest, '_')
		pi, known := index[rest[:max(cut, 0)]]
		t, err := strconv.Atoi(rest[cut+1:])
		if !known || err != nil {
			return nil, fmt.Errorf("%s:%d: unknown variable %s", path, line, fields[1])
		}
		recv := m.pairs[pi].v
		if _, dup := s.starts[recv]; dup {
			return nil, fmt.Errorf("%s:%d: a second transfer delivers to node %d", path, line, recv)
		}
		s.starts[recv], s.slot[recv] = pi, t
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Schedule turns a solution's starts into a sim.Schedule: the transfers
// in order of start, each following (After) the transfer that delivered
// to its sender, each started at its slot times the step; the claim is the
// last arrival. It fails unless the solution has an integer schedule that
// delivers to every non-root participant.
func (m *Model) Schedule(s *Solution, policy string) (*sim.Schedule, error) {
	if !s.Feasible || s.starts == nil {
		return nil, fmt.Errorf("the solution (%s) holds no schedule", s.Status)
	}
	var recv []int
	for _, v := range m.parts {
		if m.root[v] {
			continue
		}
		if _, ok := s.starts[v]; !ok {
			return nil, fmt.Errorf("the solution delivers nothing to participant %q", m.tree.Nodes[v].Name)
		}
		recv = append(recv, v)
	}
	slices.SortStableFunc(recv, func(a, b int) int { return s.slot[a] - s.slot[b] })
	sched := &sim.Schedule{Policy: policy, Actions: make([]sim.Action, 0, len(recv))}
	delivered := map[int]int{} // node → index of the action delivering to it
	for _, v := range recv {
		p := &m.pairs[s.starts[v]]
		a := sim.Action{
			Kind: sim.Transfer, From: p.u, To: p.v, Amount: m.size,
			Start: sim.Time(float64(s.slot[v]) / float64(m.k)),
			Label: m.tree.Nodes[p.u].Name + "→" + m.tree.Nodes[p.v].Name,
		}
		if !m.root[p.u] {
			j, ok := delivered[p.u]
			if !ok {
				return nil, errors.New("the solution has a transfer from " + m.tree.Nodes[p.u].Name + " before it receives")
			}
			a.After = []int{j}
		}
		delivered[v] = sched.Add(a)
		sched.Claimed = math.Max(sched.Claimed, *a.Start+p.route.Duration(m.size))
	}
	return sched, nil
}

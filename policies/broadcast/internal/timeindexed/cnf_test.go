package timeindexed

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/tooltest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

// requireCaDiCaL returns the cadical command (see tooltest.Path).
func requireCaDiCaL(t *testing.T) string { t.Helper(); return tooltest.Path(t, CaDiCaL) }

// decide is Model.Decide in a test.
func decide(t *testing.T, cadical string, m *Model) (*CNF, *Answer) {
	t.Helper()
	f, a, err := m.Decide(context.Background(), cadical)
	if err != nil {
		t.Fatal(err)
	}
	return f, a
}

// TestCNFStarClosedForm decides stars whose optimum has a closed form
// (TestStarClosedForm): a schedule by the optimum, which replays and
// ends by it, and none a step before.
func TestCNFStarClosedForm(t *testing.T) {
	cadical := requireCaDiCaL(t)
	for _, tc := range []struct {
		n    int
		link models.LinkParams
		want float64
	}{{2, models.LinkParams{Bandwidth: 1}, 1}, {3, models.LinkParams{Bandwidth: 2}, 1}, {5, models.LinkParams{Bandwidth: 4}, 0.75},
		{8, models.LinkParams{Bandwidth: 1}, 3}, {5, models.LinkParams{Bandwidth: 4, Latency: 0.25}, 1.5}} {
		in := instance(star(t, tc.n, tc.link), 1)
		m, err := New(in, tc.want)
		if err != nil {
			t.Fatal(err)
		}
		f, a := decide(t, cadical, m)
		if !a.Satisfiable() {
			t.Fatalf("star %d %+v by %g: %s", tc.n, tc.link, tc.want, a.Status)
		}
		s, err := f.Schedule(a, "sat")
		if err != nil {
			t.Fatal(err)
		}
		if s.Claimed > tc.want+1e-9 {
			t.Errorf("star %d: schedule ends at %g, after the horizon %g", tc.n, s.Claimed, tc.want)
		}
		checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
		below, err := New(in, tc.want-m.Step()/2)
		if errors.Is(err, ErrHorizon) {
			continue // a participant cannot be reached by then
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, a := decide(t, cadical, below); !a.Unsatisfiable() {
			t.Errorf("star %d %+v by %g: %s, want unsatisfiable", tc.n, tc.link, below.Horizon(), a.Status)
		}
	}
}

// starCNF is the formula of a star of n participants, every link of
// bandwidth b, a message of 1 and a horizon of 2.
func starCNF(t *testing.T, n int, b float64) *CNF {
	t.Helper()
	m, err := New(instance(star(t, n, models.LinkParams{Bandwidth: b}), 1), 2)
	if err != nil {
		t.Fatal(err)
	}
	f, err := m.CNF()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCNFWrite writes the formula of a star of 3 in DIMACS: the header
// counts the variables and clauses, and every clause ends in 0.
func TestCNFWrite(t *testing.T) {
	f := starCNF(t, 3, 1)
	var b strings.Builder
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	vars, clauses := f.Size()
	if want := "p cnf " + strconv.Itoa(vars) + " " + strconv.Itoa(clauses); lines[0] != want {
		t.Errorf("header %q, want %q", lines[0], want)
	}
	if len(lines) != clauses+1 {
		t.Errorf("%d clause lines, want %d", len(lines)-1, clauses)
	}
	for _, l := range lines[1:] {
		if !strings.HasSuffix(l, " 0") && l != "0" {
			t.Fatalf("clause %q does not end in 0", l)
		}
	}
}

// TestSolveKilled stops the solver by its context: the answer is
// UNKNOWN, with the context's error.
func TestSolveKilled(t *testing.T) {
	cadical := requireCaDiCaL(t)
	f := starCNF(t, 5, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := f.Solve(ctx, cadical)
	if err == nil || a == nil || a.Status != "UNKNOWN" {
		t.Errorf("a cancelled solve: answer %v, error %v", a, err)
	}
}

// TestSolveFails: a solver that fails without an answer, after reading its
// input or before, is an error that shows what it wrote on stderr.
func TestSolveFails(t *testing.T) {
	f := starCNF(t, 3, 1)
	dir := t.TempDir()
	for name, script := range map[string]string{
		"after reading": "cat >/dev/null; echo 'c error: out of memory' >&2; exit 1\n",
		"at once":       "echo 'c error: bad option' >&2; exit 1\n",
	} {
		solver := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(solver, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
		a, err := f.Solve(context.Background(), solver)
		if err == nil || !strings.Contains(err.Error(), "c error:") {
			t.Errorf("%s: answer %v, error %v; want an error with the solver's message", name, a, err)
		}
	}
}

// TestCounterExhaustive checks the grouped counter against its meaning on
// every assignment of its terms: the clauses can be met (by some
// registers) exactly when Σ_g max {w : (l, w) ∈ g, l true} ≤ k.
func TestCounterExhaustive(t *testing.T) {
	for _, tc := range []struct {
		w [][]int // per group, its terms' weights
		k int
	}{
		{[][]int{{1}, {1}, {1}}, 1},
		{[][]int{{1}, {2}, {1, 2}}, 2},
		{[][]int{{1, 2}, {2, 4}, {1}}, 4},
		{[][]int{{4}, {1, 2, 4}, {2}}, 3},
		{[][]int{{2}, {1, 3}}, 3},
	} {
		f := &CNF{}
		var groups [][]term
		var lits []term
		for _, g := range tc.w {
			groups = append(groups, nil)
			for _, w := range g {
				x := term{f.newVar(), w}
				groups[len(groups)-1] = append(groups[len(groups)-1], x)
				lits = append(lits, x)
			}
		}
		f.counter(groups, tc.k)
		for set := range 1 << len(lits) {
			sum := 0
			for _, g := range groups {
				most := 0
				for _, x := range g {
					if set&(1<<(x.lit-1)) != 0 {
						most = max(most, x.w)
					}
				}
				sum += most
			}
			if got, want := f.satisfiableWith(set, len(lits)), sum <= tc.k; got != want {
				t.Errorf("groups %v, k %d, terms %b: satisfiable %v, want %v (weight %d)", tc.w, tc.k, set, got, want, sum)
			}
		}
	}
}

// satisfiableWith reports whether some values of the variables after the
// first n meet every clause, the first n set by the bits of set.
func (f *CNF) satisfiableWith(set, n int) bool {
	free := int(f.vars) - n
	for rest := range 1 << free {
		value := func(l int32) bool {
			v := l
			if v < 0 {
				v = -v
			}
			var on bool
			if int(v) <= n {
				on = set&(1<<(v-1)) != 0
			} else {
				on = rest&(1<<(int(v)-n-1)) != 0
			}
			return on == (l > 0)
		}
		if f.meets(value) {
			return true
		}
	}
	return false
}

// meets reports whether every clause has a true literal under value.
func (f *CNF) meets(value func(int32) bool) bool {
	met := false
	for _, l := range f.clauses {
		if l == 0 {
			if !met {
				return false
			}
			met = false
			continue
		}
		met = met || value(l)
	}
	return true
}

// TestPrefer decides random trees with relays again, preferring a schedule
// the solver found: the formula keeps its models (the answer read back
// meets every clause as built, and its schedule replays within the
// horizon), and a step below the optimum it stays unsatisfiable.
func TestPrefer(t *testing.T) {
	cadical := requireCaDiCaL(t)
	for seed := range uint64(4) {
		tr, err := trees.RandomTree(seed, trees.DefaultRandomTreeConfig(7, 2))
		if err != nil {
			t.Fatal(err)
		}
		in := instance(tr, 1)
		m, err := New(in, 20)
		if err != nil {
			t.Fatal(err)
		}
		f, a := decide(t, cadical, m)
		s, err := f.Schedule(a, "sat")
		if err != nil {
			t.Fatal(err)
		}
		for _, horizon := range []float64{s.Claimed, s.Claimed - m.Step()} {
			m, err := New(in, horizon)
			if errors.Is(err, ErrHorizon) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			f, err := m.CNF()
			if err != nil {
				t.Fatal(err)
			}
			f.Prefer(s)
			if !slices.Contains(f.flip, true) {
				t.Fatalf("seed %d by %g: preferring a schedule negates no variable", seed, horizon)
			}
			a, err := f.Solve(context.Background(), cadical)
			switch {
			case err != nil:
				t.Fatal(err)
			case horizon < s.Claimed && a.Satisfiable():
				// a faster schedule: the first was not optimal, which is allowed
			case horizon < s.Claimed:
				continue
			case !a.Satisfiable():
				t.Fatalf("seed %d by %g, preferring a schedule of %g: %s", seed, horizon, s.Claimed, a.Status)
			}
			if !f.meets(func(l int32) bool { return a.values[abs(l)] == (l > 0) }) {
				t.Errorf("seed %d by %g: the answer read back misses a clause", seed, horizon)
			}
			got, err := f.Schedule(a, "sat")
			if err != nil {
				t.Fatal(err)
			}
			if got.Claimed > horizon+1e-9 {
				t.Errorf("seed %d: schedule ends at %g, after the horizon %g", seed, got.Claimed, horizon)
			}
			checktest.Verify(t, in.Platform, in.Problem, got, sim.Timed)
		}
	}
}

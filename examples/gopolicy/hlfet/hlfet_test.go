package hlfet_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"example.com/gopolicy/hlfet"
	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all" // the bundled scenarios that the conformance suite loads name netsched's own policies
	"github.com/netsched/netsched/sim"
)

// randomDAG is a seeded random task graph of n tasks: each edge i→j
// (i < j) with probability p, weights in [0, 5).
func randomDAG(seed uint64, n int, p float64) *models.DAG {
	r := rand.New(rand.NewPCG(seed, 18))
	g := &models.DAG{Tasks: make([]models.Task, n)}
	for i := range g.Tasks {
		g.Tasks[i].Weight = math.Round(r.Float64()*50) / 10
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if r.Float64() < p {
				g.Edges = append(g.Edges, models.DAGEdge{From: i, To: j})
			}
		}
	}
	return g
}

// criticalPath is the heaviest path's weight: the makespan with no delay
// and a processor for every task.
func criticalPath(g *models.DAG) float64 {
	preds, finish, longest := g.Preds(), make([]float64, len(g.Tasks)), 0.0
	for v := range g.Tasks { // tasks are numbered in a topological order
		start := 0.0
		for _, u := range preds[v] {
			start = max(start, finish[u])
		}
		finish[v] = start + g.Tasks[v].Weight
		longest = max(longest, finish[v])
	}
	return longest
}

// TestPlan checks hlfet through the registry on seeded random graphs:
// every schedule verifies (timed replay and the problem checks), and its
// claim is the closed form where there is one: the sum of the weights on
// one processor, the critical path with no delay and a processor per task.
// Otherwise it is at least the critical path.
func TestPlan(t *testing.T) {
	entry, ok := policies.Lookup(hlfet.Name)
	if !ok {
		t.Fatal("hlfet is not registered")
	}
	for seed := range uint64(40) {
		n := 2 + int(seed%12)
		g := randomDAG(seed, n, 0.3)
		sum := 0.0
		for _, task := range g.Tasks {
			sum += task.Weight
		}
		for _, c := range []struct {
			rho        float64
			processors int // of the platform; 0: unbounded, the option applies
			options    policies.Options
			want       float64 // NaN: no closed form
		}{
			{rho: 2, processors: 1, want: sum},
			{rho: 0, processors: 0, options: policies.Options{"processors": 1}, want: sum},
			{rho: 0, processors: n, want: criticalPath(g)},
			{rho: 0, processors: 0, options: policies.Options{"processors": n}, want: criticalPath(g)},
			{rho: 1.5, processors: 3, want: math.NaN()},
			{rho: 4, processors: 0, want: math.NaN()},
		} {
			pl := &models.Platform{Delay: &models.Delay{Rho: c.rho, Processors: c.processors}}
			pr := &models.Problem{DAG: g}
			s, err := entry.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Options: c.options, Seed: seed})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			res, err := check.Replay(context.Background(), pl, pr, s, sim.Timed)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if !res.OK() {
				t.Errorf("seed %d, rho %g, %d processors: not verified: claim %g, simulated %g, %v",
					seed, c.rho, c.processors, res.Claimed, res.Makespan, res.Violations)
			}
			switch {
			case !math.IsNaN(c.want) && math.Abs(s.Claimed-c.want) > 1e-9*max(1, c.want):
				t.Errorf("seed %d, rho %g, %d processors %v: claim %g, want %g", seed, c.rho, c.processors, c.options, s.Claimed, c.want)
			case s.Claimed < criticalPath(g)-1e-9:
				t.Errorf("seed %d: claim %g is below the critical path %g", seed, s.Claimed, criticalPath(g))
			}
		}
	}
}

// TestPlanByHand checks the schedule of the fork-join graph of
// forkjoin.yaml with ρ = 3 on 4 processors against a trace by hand:
// levels src 10, c 9, a 7, b 7, bc 6, ab 5, mid 4, d 3, e 2, sink 1, so
// src, c, a on P0 [0,1] [1,4] [4,6]; b on P1 [4,5]; bc on P1 [7,9] (data
// of c at 7); ab on P0 [8,9] (data of b at 8); mid on P0 [12,13]; d, e,
// sink on P0 [13,15] [15,16] [16,17].
func TestPlanByHand(t *testing.T) {
	names := []string{"src", "a", "b", "c", "ab", "bc", "mid", "d", "e", "sink"}
	weights := []float64{1, 2, 1, 3, 1, 2, 1, 2, 1, 1}
	g := &models.DAG{}
	for i, name := range names {
		g.Tasks = append(g.Tasks, models.Task{Name: name, Weight: weights[i]})
	}
	for _, e := range [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 4}, {2, 4}, {2, 5}, {3, 5}, {4, 6}, {5, 6}, {6, 7}, {6, 8}, {7, 9}, {8, 9}} {
		g.Edges = append(g.Edges, models.DAGEdge{From: e[0], To: e[1]})
	}
	in := policies.Instance{Platform: &models.Platform{Delay: &models.Delay{Rho: 3}}, Problem: &models.Problem{DAG: g}}
	s, err := hlfet.Plan(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		node  int
		start float64
	}{
		"src": {0, 0}, "c": {0, 1}, "a": {0, 4}, "b": {1, 4}, "bc": {1, 7},
		"ab": {0, 8}, "mid": {0, 12}, "d": {0, 13}, "e": {0, 15}, "sink": {0, 16},
	}
	for _, a := range s.Actions {
		w := want[a.Label]
		if a.Node != w.node || *a.Start != w.start {
			t.Errorf("%s on P%d at %g, want P%d at %g", a.Label, a.Node, *a.Start, w.node, w.start)
		}
	}
	if s.Claimed != 17 || len(s.Actions) != len(names) {
		t.Errorf("claim %g with %d actions, want 17 with %d", s.Claimed, len(s.Actions), len(names))
	}
}

// TestPlanRejects checks that a direct call with an instance of the wrong
// kind is an error, not a panic.
func TestPlanRejects(t *testing.T) {
	for _, in := range []policies.Instance{
		{},
		{Platform: &models.Platform{Delay: &models.Delay{Rho: 1}}},
		{Platform: &models.Platform{Delay: &models.Delay{Rho: -1}}, Problem: &models.Problem{DAG: &models.DAG{Tasks: []models.Task{{Weight: 1}}}}},
		{Platform: &models.Platform{Delay: &models.Delay{Rho: 1}}, Problem: &models.Problem{DAG: &models.DAG{
			Tasks: []models.Task{{Weight: 1}, {Weight: 1}}, Edges: []models.DAGEdge{{From: 0, To: 1}, {From: 1, To: 0}}}}},
	} {
		if _, err := hlfet.Plan(context.Background(), in); err == nil {
			t.Errorf("Plan(%+v): no error", in)
		}
	}
}

// TestConformance runs netsched's conformance suite on hlfet, as on every
// policy of netsched itself: seeded random task graphs on the platforms it
// declares, each schedule verified in timed replay and solving its problem
// in ordered replay.
func TestConformance(t *testing.T) {
	entry, ok := policies.Lookup(hlfet.Name)
	if !ok {
		t.Fatal("hlfet is not registered")
	}
	suite := new(checktest.Suite)
	suite.Declared(t, entry)
	suite.Run(t, entry)
}

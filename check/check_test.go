package check_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
)

// planned is a bundled scenario and the schedule one of its policies
// plans for it.
func planned(t *testing.T, scenario, policy string) (*scenarios.Scenario, *sim.Schedule) {
	t.Helper()
	sc, err := scenarios.Load(scenario)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(sc.Policies, func(p scenarios.PolicySpec) bool { return p.Name == policy })
	if i < 0 {
		t.Fatalf("%s has no policy %s", scenario, policy)
	}
	e, _ := policies.Lookup(policy)
	s, err := e.Planner.Plan(context.Background(), sc.Instance(i, 1))
	if err != nil {
		t.Fatal(err)
	}
	return sc, s
}

// labelled is the index of the action labelled label.
func labelled(s *sim.Schedule, label string) int {
	return slices.IndexFunc(s.Actions, func(a sim.Action) bool { return a.Label == label })
}

// without removes action j, and every After entry naming it, from s.
func without(s *sim.Schedule, j int) {
	s.Actions = slices.Delete(s.Actions, j, j+1)
	for k := range s.Actions {
		a := &s.Actions[k]
		a.After = slices.DeleteFunc(slices.Clone(a.After), func(p int) bool { return p == j })
		for i, p := range a.After {
			if p > j {
				a.After[i] = p - 1
			}
		}
	}
}

// TestChecksCatch takes valid schedules of bundled scenarios, breaks each
// in one way a replay of the platform alone does not see, and requires the
// problem check to report it, naming the task or node as the scenario
// names it, while the replay alone still verifies the schedule.
func TestChecksCatch(t *testing.T) {
	for _, tc := range []struct {
		name, scenario, policy string
		mode                   sim.Mode
		change                 func(t *testing.T, s *sim.Schedule)
		kind                   sim.ViolationKind
		names                  string
	}{
		{"a task left out", "delay-small", "sequential", sim.Timed,
			func(t *testing.T, s *sim.Schedule) { without(s, labelled(s, "sink")) }, check.TaskMissing, "sink"},
		{"a task computing 1 of its 3 units", "delay-small", "sequential", sim.Timed,
			func(t *testing.T, s *sim.Schedule) { s.Actions[labelled(s, "c")].Amount = 1 }, check.TaskAmount, "c"},
		{"a task computed twice", "delay-small", "sequential", sim.Timed,
			func(t *testing.T, s *sim.Schedule) {
				a := s.Actions[labelled(s, "sink")]
				a.Start = sim.Time(*a.Start + 1)
				s.Actions = append(s.Actions, a)
				s.Claimed++
			}, check.TaskRepeated, "sink"},
		{"a computation of no task", "delay-small", "sequential", sim.Timed,
			func(t *testing.T, s *sim.Schedule) { s.Actions[labelled(s, "e")].Label = "f" }, check.UnknownTask, "f"},
		{"an edge dropped from the After lists", "delay-small", "unclustered", sim.Ordered,
			func(t *testing.T, s *sim.Schedule) { s.Actions[labelled(s, "a")].After = nil }, check.EdgeLate, "src→a"},
		{"900 of 1,200 units computed", "crossbar-hetero", "no-redistribution", sim.Timed,
			func(t *testing.T, s *sim.Schedule) { s.Actions[0].Amount = 300 }, check.LoadNotConserved, "fast0"},
		{"a processor with no load sending and computing 10 units", "crossbar-hetero", "no-redistribution", sim.Timed,
			func(t *testing.T, s *sim.Schedule) {
				k := s.Add(sim.Action{Kind: sim.Transfer, From: 1, To: 3, Amount: 10, Start: sim.Time(0)})
				s.Add(sim.Action{Kind: sim.Compute, Node: 3, Amount: 10, Start: sim.Time(0.101), After: []int{k}})
			}, check.NotHeld, "fast1"},
		{"an empty schedule", "crossbar-hetero", "no-redistribution", sim.Timed,
			func(t *testing.T, s *sim.Schedule) { s.Actions, s.Claimed = nil, 0 }, check.LoadNotConserved, "fast0"},
		{"results that never go back", "mmdl-beta-results", "mmdl", sim.Timed,
			func(t *testing.T, s *sim.Schedule) { without(s, labelled(s, check.ResultsLabel)) }, check.ResultsMissing, "→"},
		{"the last transfer of a broadcast dropped", "tree-small", "flat-sequential", sim.Timed,
			func(t *testing.T, s *sim.Schedule) {
				last := s.Actions[len(s.Actions)-1]
				s.Actions = s.Actions[:len(s.Actions)-1]
				s.Claimed = *last.Start
			}, check.NotReceived, "h5"},
		{"a node forwarding the message before it has it", "tree-small", "binary-tree", sim.Timed,
			func(t *testing.T, s *sim.Schedule) {
				j := slices.IndexFunc(s.Actions, func(a sim.Action) bool { return a.From != 0 })
				s.Actions[j].Start, s.Actions[j].After = sim.Time(0), nil
			}, check.NotHeld, "h1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, s := planned(t, tc.scenario, tc.policy)
			tc.change(t, s)
			if res, err := replay.Replay(context.Background(), &sc.Platform, s, tc.mode); err != nil || len(res.Violations) > 0 {
				t.Fatalf("the change is not one the replay alone misses: %v %v", err, res.Violations)
			}
			res, err := check.Replay(context.Background(), &sc.Platform, &sc.Problem, s, tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(res.Violations, func(v sim.Violation) bool { return v.Kind == tc.kind })
			if i < 0 || res.OK() {
				t.Fatalf("no %s violation: %v", tc.kind, res.Violations)
			}
			if v := res.Violations[i]; !strings.Contains(v.Resource, tc.names) {
				t.Errorf("%v does not name %q", v, tc.names)
			}
		})
	}
}

// TestCheckerRenamedGraph reuses one Checker across graphs that share
// their task list, renamed in place in between: its index of task names
// follows.
func TestCheckerRenamedGraph(t *testing.T) {
	pl := &models.Platform{Delay: &models.Delay{Rho: 1}}
	g := &models.DAG{Tasks: []models.Task{{Name: "x", Weight: 1}, {Name: "y", Weight: 2}}}
	pr := &models.Problem{DAG: g}
	s := &sim.Schedule{Actions: []sim.Action{
		{Kind: sim.Compute, Amount: 1, Label: "x"}, {Kind: sim.Compute, Node: 1, Amount: 2, Label: "y"},
	}}
	var c check.Checker
	ends := []float64{1, 2}
	if vs, err := c.Check(pl, pr, s, []float64{0, 0}, ends); err != nil || len(vs) > 0 {
		t.Fatalf("first check: %v %v", err, vs)
	}
	g.Tasks[0].Name, g.Tasks[1].Name = "y", "x" // now x weighs 2
	vs, err := c.Check(pl, pr, s, []float64{0, 0}, ends)
	if err != nil || len(vs) != 2 || vs[0].Kind != check.TaskAmount {
		t.Fatalf("renamed: %v %v, want two task-amount violations", err, vs)
	}
	g.Tasks[1].Name = "y"
	if _, err := c.Check(pl, pr, s, []float64{0, 0}, ends); err == nil || !strings.Contains(err.Error(), "both named") {
		t.Fatalf("two tasks named y: %v", err)
	}
}

// TestRoundsKeepTheirLoad flags load received in one round and computed
// in another, and a round past the problem's last.
func TestRoundsKeepTheirLoad(t *testing.T) {
	pl := &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.FullDuplex,
		Processors: []models.Processor{{Gamma: 1, Load: 4}, {Gamma: 1}}}}
	pr := &models.Problem{Divisible: &models.Divisible{Rounds: 2}}
	s := &sim.Schedule{Actions: []sim.Action{
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 2, Round: 1},
		{Kind: sim.Compute, Node: 0, Amount: 2, Round: 1},
		{Kind: sim.Compute, Node: 1, Amount: 2, Round: 2},
	}}
	starts, ends := []float64{0, 2, 2}, []float64{2, 4, 4}
	vs, err := check.Check(pl, pr, s, starts, ends)
	if err != nil || len(vs) != 1 || vs[0].Kind != check.LoadNotConserved || vs[0].Resource != "P1" {
		t.Fatalf("load kept for another round: %v %v", err, vs)
	}
	s.Actions[2].Round = 1
	if vs, err := check.Check(pl, pr, s, starts, ends); err != nil || len(vs) > 0 {
		t.Fatalf("fixed: %v %v", err, vs)
	}
	s.Actions[0].Round, s.Actions[1].Round, s.Actions[2].Round = 3, 3, 3
	if vs, _ := check.Check(pl, pr, s, starts, ends); len(vs) != 3 || vs[0].Kind != check.BadRound {
		t.Fatalf("round 3 of 2: %v", vs)
	}
}

// TestBroadcastPieces checks a message sent in two halves: a node may
// forward a half it holds before it has the other, not one it lacks.
func TestBroadcastPieces(t *testing.T) {
	tree := &models.Tree{Nodes: []models.TreeNode{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Edges: []models.TreeEdge{{A: "a", B: "b", LinkParams: models.LinkParams{Bandwidth: 1}},
			{A: "b", B: "c", LinkParams: models.LinkParams{Bandwidth: 1}}}}
	pl := &models.Platform{Tree: tree}
	pr := &models.Problem{Broadcast: &models.Broadcast{Roots: []string{"a"}, Size: 2}}
	s := &sim.Schedule{Actions: []sim.Action{
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 1},            // a→b [0,1)
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 1, Offset: 1}, // a→b [1,2)
		{Kind: sim.Transfer, From: 1, To: 2, Amount: 1},            // b→c [0,1), once b has it
		{Kind: sim.Transfer, From: 1, To: 2, Amount: 1, Offset: 1}, // b→c [1,2)
	}}
	starts, ends := []float64{0, 1, 1, 1.5}, []float64{1, 2, 2, 2.5}
	vs, err := check.Check(pl, pr, s, starts, ends)
	if err != nil || len(vs) != 1 || vs[0].Kind != check.NotHeld || vs[0].Action != 3 {
		t.Fatalf("second half forwarded before it arrives: %v %v", err, vs)
	}
	starts[3], ends[3] = 2, 3
	if vs, err := check.Check(pl, pr, s, starts, ends); err != nil || len(vs) > 0 {
		t.Fatalf("in order: %v %v", err, vs)
	}
	s.Actions[3].Offset = 1.5
	vs, _ = check.Check(pl, pr, s, starts, ends)
	if len(vs) != 2 || vs[0].Kind != check.BadPart || vs[1].Kind != check.NotReceived || vs[1].Resource != "c" {
		t.Fatalf("a part past the end: %v", vs)
	}
}

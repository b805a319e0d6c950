package check_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// dataGraph is a diamond whose edges carry data: a→b 4, a→c 2, b→d 0
// (a precedence only), c→d 3.
func dataGraph() *models.DAG {
	return &models.DAG{
		Tasks: []models.Task{{Name: "a", Weight: 2}, {Name: "b", Weight: 3}, {Name: "c", Weight: 1}, {Name: "d", Weight: 1}},
		Edges: []models.DAGEdge{{From: 0, To: 1, Data: 4}, {From: 0, To: 2, Data: 2}, {From: 1, To: 3}, {From: 2, To: 3, Data: 3}},
	}
}

// dataPlatforms are three processors of speed 1 that compute while they
// communicate, where a transfer of a units takes a/2: a full-duplex
// crossbar, and two clusters (P0 | P1, P2) whose inter-cluster transfers
// take as long.
func dataPlatforms() map[string]*models.Platform {
	overlap := func(kinds ...string) []models.Processor {
		ps := make([]models.Processor, 3)
		for i := range ps {
			ps[i] = models.Processor{Gamma: 1, Overlap: map[string]float64{}}
			for _, k := range kinds {
				ps[i].Overlap[k] = 1
			}
		}
		return ps
	}
	cross := overlap("send", "recv")
	mc := overlap("intra", "inter")
	return map[string]*models.Platform{
		"crossbar": {Crossbar: &models.Crossbar{Beta: 0.5, Duplex: models.FullDuplex, Processors: cross}},
		"multicluster": {MultiCluster: &models.MultiCluster{Beta: 0.5, Clusters: []models.Cluster{
			{Name: "left", Beta: 0.25, Processors: []models.Processor{mc[0]}},
			{Name: "right", Beta: 0.25, Processors: []models.Processor{mc[1], mc[2]}},
		}}},
	}
}

// dataSchedule runs a and b on node x, c on node y: a's data goes to y
// during [2, 3), c's comes back during [4, 5.5), d runs on x.
func dataSchedule(x, y int) *sim.Schedule {
	s := &sim.Schedule{Policy: "hand", Claimed: 6.5}
	s.Add(sim.Action{Kind: sim.Compute, Node: x, Amount: 2, Label: "a", Start: sim.Time(0), End: sim.Time(2)})
	s.Add(sim.Action{Kind: sim.Compute, Node: x, Amount: 3, Label: "b", Start: sim.Time(2), End: sim.Time(5), After: []int{0}})
	s.Add(sim.Action{Kind: sim.Transfer, From: x, To: y, Amount: 2, Label: "a→c", Start: sim.Time(2), End: sim.Time(3), After: []int{0}})
	s.Add(sim.Action{Kind: sim.Compute, Node: y, Amount: 1, Label: "c", Start: sim.Time(3), End: sim.Time(4), After: []int{2}})
	s.Add(sim.Action{Kind: sim.Transfer, From: y, To: x, Amount: 3, Label: "c→d", Start: sim.Time(4), End: sim.Time(5.5), After: []int{3}})
	s.Add(sim.Action{Kind: sim.Compute, Node: x, Amount: 1, Label: "d", Start: sim.Time(5.5), End: sim.Time(6.5), After: []int{1, 4}})
	return s
}

// TestDAGDataOnNetworks replays a task graph whose edges carry data on a
// crossbar and a multi-cluster: the schedule that carries every edge's
// data is verified in timed and ordered replay, and each way of not
// carrying it, which the replay alone accepts, is a violation of the
// problem naming the edge.
func TestDAGDataOnNetworks(t *testing.T) {
	mutants := []struct {
		name   string
		change func(s *sim.Schedule)
		kind   sim.ViolationKind
		names  string
	}{
		{"a's data never sent", func(s *sim.Schedule) {
			s.Actions[2].Label, s.Actions[2].Amount = "a→b", 4 // to c's processor, for b, which runs on a's
			s.Actions[2].End = sim.Time(4)
			s.Actions[3].Start, s.Actions[3].End = sim.Time(4), sim.Time(5)
			s.Actions[4].Start, s.Actions[4].End = sim.Time(5), sim.Time(6.5)
			s.Actions[5].Start, s.Actions[5].End, s.Claimed = sim.Time(6.5), sim.Time(7.5), 7.5
		}, check.DataMissing, "a→c"},
		{"half of a's data sent", func(s *sim.Schedule) {
			s.Actions[2].Amount, s.Actions[2].End = 1, sim.Time(2.5)
		}, check.DataMissing, "a→c"},
		{"a's data sent to the wrong processor", func(s *sim.Schedule) { s.Actions[2].To = 2 }, check.DataMissing, "a→c"},
		{"a's data sent from where a did not run", func(s *sim.Schedule) { s.Actions[2].From = 2 }, check.NotHeld, "a→c"},
		{"a's data sent before a ends", func(s *sim.Schedule) {
			s.Actions[2].Start, s.Actions[2].End, s.Actions[2].After = sim.Time(1), sim.Time(2), nil
		}, check.NotHeld, "a→c"},
		{"data of no edge", func(s *sim.Schedule) { s.Actions[2].Label = "a→d" }, check.UnknownData, "a→d"},
		{"data arriving after its task starts", func(s *sim.Schedule) {
			s.Actions[4].Start, s.Actions[4].End = sim.Time(4.5), sim.Time(6)
			s.Actions[5].After = []int{1}
		}, check.DataMissing, "c→d"},
	}
	for name, pl := range dataPlatforms() {
		pr := &models.Problem{DAG: dataGraph()}
		if err := pl.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := pr.Validate(pl); err != nil {
			t.Fatal(err)
		}
		t.Run(name+"/valid", func(t *testing.T) {
			for _, mode := range []sim.Mode{sim.Timed, sim.Ordered} {
				res, err := check.Replay(context.Background(), pl, pr, dataSchedule(0, 1), mode)
				if err != nil || !res.OK() || res.Makespan != 6.5 {
					t.Fatalf("%s: %v %+v", mode, err, res)
				}
			}
		})
		t.Run(name+"/one processor", func(t *testing.T) {
			s := &sim.Schedule{Policy: "hand", Claimed: 7}
			for i, w := range []float64{2, 3, 1, 1} {
				s.Add(sim.Action{Kind: sim.Compute, Amount: w, Label: pr.DAG.TaskName(i)})
			}
			res, err := check.Replay(context.Background(), pl, pr, s, sim.Ordered)
			if err != nil || !res.OK() {
				t.Fatalf("%v %v", err, res.Violations)
			}
		})
		for _, mu := range mutants {
			t.Run(name+"/"+mu.name, func(t *testing.T) {
				s := dataSchedule(0, 1)
				mu.change(s)
				res, err := replay.Replay(context.Background(), pl, s, sim.Timed)
				if err != nil || len(res.Violations) > 0 {
					t.Fatalf("the replay alone rejects the mutant: %v %v", err, res.Violations)
				}
				res, err = check.Replay(context.Background(), pl, pr, s, sim.Timed)
				if err != nil {
					t.Fatal(err)
				}
				i := slices.IndexFunc(res.Violations, func(v sim.Violation) bool { return v.Kind == mu.kind })
				if i < 0 || res.OK() {
					t.Fatalf("no %s violation: %v", mu.kind, res.Violations)
				}
				if v := res.Violations[i]; v.Resource != mu.names || !strings.Contains(v.Detail, "a") {
					t.Errorf("%v does not name %q", v, mu.names)
				}
			})
		}
	}
}

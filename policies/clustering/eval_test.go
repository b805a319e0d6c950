package clustering

import (
	"testing"

	"github.com/netsched/netsched/models"
)

func chain(n int) *models.DAG {
	g := &models.DAG{}
	for i := range n {
		g.Tasks = append(g.Tasks, models.Task{Weight: 1})
		if i > 0 {
			g.Edges = append(g.Edges, models.DAGEdge{From: i - 1, To: i})
		}
	}
	return g
}

// TestEvalPrimeClosedForms checks eval′ on graphs whose greedy schedule is
// known by hand.
func TestEvalPrimeClosedForms(t *testing.T) {
	fork := &models.DAG{Tasks: []models.Task{{Weight: 1}, {Weight: 1}, {Weight: 1}, {Weight: 1}},
		Edges: []models.DAGEdge{{From: 0, To: 1}, {From: 0, To: 2}, {From: 0, To: 3}}}
	tests := []struct {
		name         string
		g            *models.DAG
		c            Clustering
		rho          float64
		timeS, makes float64
	}{
		{"chain sequential", chain(5), Clustering{0, 0, 0, 0, 0}, 3, 4, 5},                      // n−1, §5.2.2
		{"chain split", chain(4), Clustering{0, 0, 1, 1}, 3, 1 + 1 + 3 + 1, 7},                  // x3 waits ρ
		{"chain alternating", chain(3), Clustering{0, 1, 0}, 1.5, 5, 6},                         // two delays
		{"fork spread", fork, Clustering{0, 1, 2, 3}, 2, 3, 4},                                  // all after 1+ρ
		{"fork half", fork, Clustering{0, 0, 1, 1}, 2, 4, 5},                                    // t1 at 1; t2 at 3, t3 at 4
		{"theorem 2 chains", Theorem2DAG(3), Clustering{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, 3, 4, 5}, // time(S*) = ρ+1
		{"independent", &models.DAG{Tasks: []models.Task{{Weight: 2}, {Weight: 3}}}, Clustering{0, 1}, 9, 0, 3},
	}
	for _, tt := range tests {
		pl, err := EvalPrime(tt.g, tt.c, tt.rho)
		if err != nil {
			t.Fatal(err)
		}
		if pl.TimeS != tt.timeS || pl.Makespan != tt.makes {
			t.Errorf("%s: time(S) %v makespan %v, want %v %v (starts %v)", tt.name, pl.TimeS, pl.Makespan, tt.timeS, tt.makes, pl.Start)
		}
		if err := CheckSchedule(tt.g, pl.Clustering, pl.Start, tt.rho); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := EvalPrime(chain(3), Clustering{0}, 1); err == nil {
		t.Error("a clustering of the wrong length passed")
	}
}

func TestScheduleActions(t *testing.T) {
	g := Theorem2DAG(1)
	pl, err := EvalPrime(g, Clustering{0, 0, 0, 1, 1, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := pl.Schedule(g, "test")
	if len(s.Actions) != len(g.Tasks) || s.Claimed != pl.Makespan || s.Metrics["time_S"] != pl.TimeS || s.Metrics["clusters"] != 2 {
		t.Fatalf("schedule %+v", s)
	}
	preds := g.Preds()
	for i, a := range s.Actions {
		v := pl.Order[i]
		if a.Node != pl.Clustering[v] || a.Amount != 1 || *a.Start != pl.Start[v] || *a.End != pl.Start[v]+1 ||
			a.Label != g.TaskName(v) || len(a.After) != len(preds[v]) {
			t.Errorf("action %d: %+v", i, a)
		}
		for j, k := range a.After {
			if k >= i || pl.Order[k] != preds[v][j] {
				t.Errorf("action %d follows action %d (task %s), want task %s before it", i, k, g.TaskName(pl.Order[k]), g.TaskName(preds[v][j]))
			}
		}
	}
}

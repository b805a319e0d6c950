package clustering

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/formats/stg"
	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

var policyNames = []string{"cross", "convex", "cass2", "dsc"}

// plan runs a registered policy on g at delay rho.
func plan(t testing.TB, name string, g *models.DAG, rho float64, opts policies.Options, seed uint64) (*sim.Schedule, *models.Platform) {
	t.Helper()
	e, ok := policies.Lookup(name)
	if !ok {
		t.Fatalf("policy %s not registered", name)
	}
	pl := &models.Platform{Delay: &models.Delay{Rho: rho}}
	s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: &models.Problem{DAG: g}, Options: opts, Seed: seed})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s, pl
}

// clusteringOf reads the clustering and start times back from a schedule.
func clusteringOf(g *models.DAG, s *sim.Schedule) (Clustering, []float64) {
	index := map[string]int{}
	for i := range g.Tasks {
		index[g.TaskName(i)] = i
	}
	c, start := make(Clustering, len(g.Tasks)), make([]float64, len(g.Tasks))
	for _, a := range s.Actions {
		c[index[a.Label]], start[index[a.Label]] = a.Node, *a.Start
	}
	return c, start
}

func TestRegistered(t *testing.T) {
	for _, name := range policyNames {
		e, ok := policies.Lookup(name)
		want := []string{models.KindDelay, models.KindCrossbar, models.KindMultiCluster}
		if !ok || e.Family != models.FamilyDAG || !slices.Equal(e.Platforms, want) || e.Doc == "" {
			t.Errorf("%s: %+v", name, e)
		}
	}
}

// TestPolicySchedulesReplay verifies every policy's schedule on the delay
// platform, timed and ordered: no violation of the platform or the
// problem, and the simulated makespan is the claim (ordered replay, which
// Verify lets end early, too: every task already starts as early as it
// can). It also checks Definition 1 with CheckSchedule and that
// time_S is the latest start.
func TestPolicySchedulesReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	fft, _ := models.FFT(16)
	ge, _ := models.GaussianElimination(8)
	graphs := map[string]*models.DAG{"fft16": fft, "ge8": ge, "thm2": Theorem2DAG(3), "thm4": Theorem4DAG(2), "chain": chain(6)}
	for i := range 6 {
		graphs[fmt.Sprintf("random%d", i)] = randomDAG(rng, 12+4*i, 0.25)
	}
	weighted := randomDAG(rng, 20, 0.2)
	for i := range weighted.Tasks {
		weighted.Tasks[i].Weight = float64(1 + rng.IntN(5))
	}
	graphs["weighted"] = weighted
	for _, stg := range loadSTGSet(t, "rand50")[:10] {
		graphs[fmt.Sprintf("stg50-%d", len(graphs))] = stg
	}
	raw, err := stg.ReadFile(filepath.Join(shareddata.STGDir(t), "rand100", "rand0007.stg"), stg.Options{KeepDummies: true})
	if err != nil {
		t.Fatal(err)
	}
	graphs["stg-weights-dummies"] = raw.DAG                                                                        // processing times 1–10, dummy tasks of weight 0
	graphs["zero-weights"] = &models.DAG{Tasks: []models.Task{{Weight: 0}, {Weight: 0}, {Weight: 1}, {Weight: 1}}, // level order is not topological here
		Edges: []models.DAGEdge{{From: 1, To: 0}, {From: 0, To: 2}, {From: 1, To: 3}}}
	for name, g := range graphs {
		pr := &models.Problem{DAG: g}
		for _, rho := range []float64{0, 1, 1.5, 5, 14} {
			t.Run(fmt.Sprintf("%s/rho=%v", name, rho), func(t *testing.T) {
				for _, pol := range policyNames {
					s, pl := plan(t, pol, g, rho, nil, 7)
					c, start := clusteringOf(g, s)
					if err := CheckSchedule(g, c, start, rho); err != nil {
						t.Errorf("%s: %v", pol, err)
					}
					if ts := maxOf(start); ts != s.Metrics["time_S"] {
						t.Errorf("%s: time_S %v, latest start %v", pol, s.Metrics["time_S"], ts)
					}
					checktest.Verify(t, pl, pr, s, sim.Timed)
					if res := checktest.Verify(t, pl, pr, s, sim.Ordered); res.Gap() < -sim.Tolerance*max(1, res.Claimed) {
						t.Errorf("%s (ordered): makespan %v below the claim %v", pol, res.Makespan, res.Claimed)
					}
				}
			})
		}
	}
}

// TestSTGClassDefinitions checks on every bundled STG graph that Cross-A's
// clustering is cross (Definition 3) and Convex-A's convex (Definition 2),
// one run per graph and delay (each run's clustering is what the best of
// several is chosen from). The 300-task set runs with NETSCHED_SLOW=1.
func TestSTGClassDefinitions(t *testing.T) {
	sets := slowtest.Pick([]string{"rand50", "rand100"}, []string{"rand50", "rand100", "rand300"})
	ctx := context.Background()
	for _, set := range sets {
		graphs := loadSTGSet(t, set)
		for i, g := range graphs {
			p, err := prepare(g)
			if err != nil {
				t.Fatal(err)
			}
			for j, rho := range []float64{1.5, 5, 14} {
				prm := Params{K: DefaultK, Runs: 1, Seed: uint64(100*i + j)}
				cross, err := recursiveAlgorithm("cross").run(ctx, p, rho, prm)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.checkCross(cross.Best.Clustering); err != nil {
					t.Errorf("%s/%d ρ=%v: Cross-A: %v", set, i, rho, err)
				}
				convex, err := recursiveAlgorithm("convex").run(ctx, p, rho, prm)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.checkConvex(convex.Best.Clustering); err != nil {
					t.Errorf("%s/%d ρ=%v: Convex-A: %v", set, i, rho, err)
				}
			}
		}
		t.Logf("%s: %d graphs × 3 delays checked", set, len(graphs))
	}
}

func TestOptions(t *testing.T) {
	g := chain(3)
	delay := &models.Platform{Delay: &models.Delay{Rho: 2}}
	tests := []struct {
		policy string
		pl     *models.Platform
		prob   *models.Problem
		opts   policies.Options
		msg    string
	}{
		{"cross", delay, &models.Problem{DAG: g}, policies.Options{"K": 3}, `unknown option "K"`},
		{"cross", delay, &models.Problem{DAG: g}, policies.Options{"k": 0}, "option k: want a whole number >= 1, got 0"},
		{"convex", delay, &models.Problem{DAG: g}, policies.Options{"runs": 1.5}, "option runs"},
		{"cross", delay, &models.Problem{DAG: g}, policies.Options{"select": "best"}, `option select: want one of cp, random, largest, got "best"`},
		{"cass2", delay, &models.Problem{DAG: g}, policies.Options{"k": 3}, `unknown option "k"`},
		{"dsc", &models.Platform{Crossbar: &models.Crossbar{}}, &models.Problem{DAG: g}, nil, "platform.crossbar.beta"},
		{"cross", delay, &models.Problem{}, nil, "problem: must set exactly one"},
		{"dsc", delay, &models.Problem{DAG: &models.DAG{Tasks: []models.Task{{Weight: 1}}, Edges: []models.DAGEdge{{From: 0, To: 0}}}}, nil, "acyclic"},
		{"cross", &models.Platform{Delay: &models.Delay{Rho: -1}}, &models.Problem{DAG: g}, nil, "platform.delay.rho: must be"},
	}
	for _, tt := range tests {
		e, _ := policies.Lookup(tt.policy)
		_, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: tt.pl, Problem: tt.prob, Options: tt.opts})
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s %v: got %v, want %q", tt.policy, tt.opts, err, tt.msg)
		}
	}
	s, _ := plan(t, "cross", Theorem2DAG(2), 2, policies.Options{"k": 2, "runs": 3, "select": "random"}, 1)
	if s.Metrics["k"] != 2 || s.Metrics["runs"] != 3 || s.Metrics["time_S_mean"] < s.Metrics["time_S"] {
		t.Errorf("metrics %v", s.Metrics)
	}
}

func TestDeterminism(t *testing.T) {
	g := loadSTGSet(t, "rand100")[3]
	for _, pol := range policyNames {
		a, _ := plan(t, pol, g, 3, nil, 42)
		b, _ := plan(t, pol, g, 3, nil, 42)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with one seed differ", pol)
		}
	}
	r1, _ := CrossA(context.Background(), g, 3, Params{K: 10, Runs: 5, Seed: 1})
	r2, _ := CrossA(context.Background(), g, 3, Params{K: 10, Runs: 5, Seed: 2})
	if reflect.DeepEqual(r1.RunTimeS, r2.RunTimeS) {
		t.Errorf("seeds 1 and 2 gave the same runs %v", r1.RunTimeS)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, _ := models.FFT(64)
	if _, err := CrossA(ctx, g, 3, Params{K: 10, Runs: 10}); err == nil {
		t.Error("CrossA ignored a cancelled context")
	}
	if _, err := Exact(ctx, randomDAG(rand.New(rand.NewPCG(1, 2)), 14, 0.1), 3, ExactOptions{}); err == nil {
		t.Error("Exact ignored a cancelled context")
	}
}

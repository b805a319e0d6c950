package baseline_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/baseline"
	"github.com/netsched/netsched/sim"
)

// plan runs a registered policy.
func plan(t *testing.T, name string, in policies.Instance) *sim.Schedule {
	t.Helper()
	e, ok := policies.Lookup(name)
	if !ok {
		t.Fatalf("policy %s is not registered", name)
	}
	s, err := e.Planner.Plan(context.Background(), in)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if s.Policy != name {
		t.Errorf("schedule names policy %q, want %q", s.Policy, name)
	}
	for i, a := range s.Actions {
		if a.Start == nil {
			t.Errorf("%s: action %d has no planned start", name, i)
		}
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// globalProcessors lists the processors of a crossbar or multi-cluster in
// global order.
func globalProcessors(p *models.Platform) []models.Processor {
	if p.Crossbar != nil {
		return p.Crossbar.Processors
	}
	var ps []models.Processor
	for _, c := range p.MultiCluster.Clusters {
		ps = append(ps, c.Processors...)
	}
	return ps
}

// computed sums the compute amounts of a schedule per node.
func computed(s *sim.Schedule) map[int]float64 {
	out := map[int]float64{}
	for _, a := range s.Actions {
		if a.Kind == sim.Compute {
			out[a.Node] += a.Amount
		}
	}
	return out
}

// TestRegistered checks the entries: family, platforms and a one-line doc.
func TestRegistered(t *testing.T) {
	for _, tc := range []struct {
		name, family string
		platforms    []string
	}{
		{"no-redistribution", models.FamilyDivisible, []string{models.KindCrossbar, models.KindMultiCluster}},
		{"direct", models.FamilyDivisible, []string{models.KindCrossbar, models.KindMultiCluster}},
		{"sequential", models.FamilyDAG, []string{models.KindDelay}},
		{"unclustered", models.FamilyDAG, []string{models.KindDelay}},
		{"flat-sequential", models.FamilyBroadcast, []string{models.KindTree}},
	} {
		e, ok := policies.Lookup(tc.name)
		if !ok || e.Family != tc.family || strings.Join(e.Platforms, ",") != strings.Join(tc.platforms, ",") ||
			e.Doc == "" || strings.Contains(e.Doc, "\n") {
			t.Errorf("%s: entry %+v", tc.name, e)
		}
	}
}

// TestNoRedistributionClaim: the claim is max x_i γ_i and every processor
// computes exactly its own load.
func TestNoRedistributionClaim(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyDivisible, 40) {
		s := plan(t, "no-redistribution", tc.in)
		want := 0.0
		got := computed(s)
		for i, p := range globalProcessors(tc.in.Platform) {
			want = max(want, p.Load*p.Gamma)
			if !near(got[i], p.Load) {
				t.Errorf("%s: processor %d computes %v, holds %v", tc.name, i, got[i], p.Load)
			}
		}
		if !near(s.Claimed, want) {
			t.Errorf("%s: claim %v, want max x_i γ_i = %v", tc.name, s.Claimed, want)
		}
	}
}

// TestDirectShares: direct conserves the load and leaves every processor
// computing W·(1/γ_i)/Σ(1/γ), and moves load only from surplus to deficit.
func TestDirectShares(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyDivisible, 40) {
		s := plan(t, "direct", tc.in)
		ps := globalProcessors(tc.in.Platform)
		var total, speeds float64
		for _, p := range ps {
			total += p.Load
			speeds += 1 / p.Gamma
		}
		got := computed(s)
		for i, p := range ps {
			share := total / p.Gamma / speeds
			if math.Abs(got[i]-share) > 1e-9*total {
				t.Errorf("%s: processor %d computes %v, its share is %v", tc.name, i, got[i], share)
			}
		}
		for i, a := range s.Actions {
			if a.Kind == sim.Transfer && a.Label == "load" && (ps[a.From].Load*ps[a.From].Gamma <= total/speeds || ps[a.To].Load*ps[a.To].Gamma >= total/speeds) {
				t.Errorf("%s: action %d moves load from %d to %d, not surplus to deficit", tc.name, i, a.From, a.To)
			}
		}
		bound := 0.0 // nobody can finish its share before computing it
		for i, p := range ps {
			bound = max(bound, got[i]*p.Gamma)
		}
		if s.Claimed < bound*(1-1e-12) {
			t.Errorf("%s: claim %v below the compute bound %v", tc.name, s.Claimed, bound)
		}
	}
}

// TestDirectHand checks direct against makespans worked out by hand.
func TestDirectHand(t *testing.T) {
	procs := func(loads ...float64) []models.Processor {
		ps := make([]models.Processor, len(loads))
		for i, x := range loads {
			ps[i] = models.Processor{Gamma: 1, Load: x}
		}
		return ps
	}
	div := &models.Problem{Divisible: &models.Divisible{}}
	for _, tc := range []struct {
		name string
		pl   models.Platform
		pr   *models.Problem
		want float64
	}{
		// 12 units on P0, shares 4: sends of 0.4 s at [0, 0.4] and [0.4, 0.8]; P0 computes 4 from 0.8.
		{"crossbar 3", models.Platform{Crossbar: &models.Crossbar{Beta: 0.1, Duplex: models.HalfDuplex, Processors: procs(12, 0, 0)}}, div, 4.8},
		// the same with α = 0.1 per message: sends end at 0.5 and 1.0.
		{"crossbar α", models.Platform{Crossbar: &models.Crossbar{Beta: 0.1, Alpha: 0.1, Duplex: models.FullDuplex, Processors: procs(12, 0, 0)}}, div, 5},
		// nothing to move
		{"balanced", models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.FullDuplex, Processors: procs(3, 3)}}, div, 3},
		{"no load", models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.FullDuplex, Processors: procs(0, 0)}}, div, 0},
		// results: P1 computes 5 over [0.5, 5.5], then sends 5·0.2 = 1 unit back in 0.1 s.
		{"results", models.Platform{Crossbar: &models.Crossbar{Beta: 0.1, Duplex: models.HalfDuplex, Processors: procs(10, 0)}},
			&models.Problem{Divisible: &models.Divisible{CollectResults: true, ResultSize: 0.2}}, 5.6},
		// P0 sends 10/3 to P1 in its cluster (β_A = 0.1, 1/3 s), then 10/3 to P2 in B (β = 0.5, 5/3 s): P0 and P2 end at 2 + 10/3.
		{"multicluster", models.Platform{MultiCluster: &models.MultiCluster{Beta: 0.5, Clusters: []models.Cluster{
			{Beta: 0.1, Processors: procs(10, 0)}, {Beta: 0.1, Processors: procs(0)}}}}, div, 2 + 10.0/3},
		// two senders of A, two receivers of B: the uplinks serialize the transfers, [0, 2.5] and [2.5, 5].
		{"uplinks", models.Platform{MultiCluster: &models.MultiCluster{Beta: 0.5, Clusters: []models.Cluster{
			{Beta: 0.1, Processors: procs(10, 10)}, {Beta: 0.1, Processors: procs(0, 0)}}}}, div, 10},
	} {
		s := plan(t, "direct", policies.Instance{Platform: &tc.pl, Problem: tc.pr})
		if !near(s.Claimed, tc.want) {
			t.Errorf("%s: claim %v, want %v", tc.name, s.Claimed, tc.want)
		}
	}
}

// TestSequentialClaim: one processor, topological order, Σ weights.
func TestSequentialClaim(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyDAG, 40) {
		s := plan(t, "sequential", tc.in)
		g := tc.in.Problem.DAG
		sum, pos := 0.0, map[string]int{}
		for i, a := range s.Actions {
			if a.Node != 0 || a.Kind != sim.Compute {
				t.Fatalf("%s: action %d is %s on %d, want compute on 0", tc.name, i, a.Kind, a.Node)
			}
			sum += a.Amount
			pos[a.Label] = i
		}
		for _, e := range g.Edges {
			if pos[g.TaskName(e.From)] >= pos[g.TaskName(e.To)] {
				t.Errorf("%s: task %d runs after its successor %d", tc.name, e.From, e.To)
			}
		}
		if len(s.Actions) != len(g.Tasks) || !near(s.Claimed, sum) {
			t.Errorf("%s: %d actions for %d tasks, claim %v, Σ weights %v", tc.name, len(s.Actions), len(g.Tasks), s.Claimed, sum)
		}
	}
}

// TestUnclusteredClaim: the claim is the longest path with ρ on every
// edge, computed here backwards from the sinks by memoized recursion.
func TestUnclusteredClaim(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyDAG, 40) {
		s := plan(t, "unclustered", tc.in)
		g, rho := tc.in.Problem.DAG, tc.in.Platform.Delay.Rho
		succs := g.Succs()
		memo := map[int]float64{}
		var tail func(v int) float64 // longest path starting with v
		tail = func(v int) float64 {
			if x, ok := memo[v]; ok {
				return x
			}
			best := 0.0
			for _, w := range succs[v] {
				best = max(best, rho+tail(w))
			}
			memo[v] = g.Tasks[v].Weight + best
			return memo[v]
		}
		want, nodes := 0.0, map[int]bool{}
		for v := range g.Tasks {
			want = max(want, tail(v))
		}
		for _, a := range s.Actions {
			nodes[a.Node] = true
		}
		if !near(s.Claimed, want) || len(nodes) != len(g.Tasks) {
			t.Errorf("%s: claim %v, longest path %v; %d processors for %d tasks", tc.name, s.Claimed, want, len(nodes), len(g.Tasks))
		}
	}
}

// TestDAGHand: delay-small worked out by hand (see bundled/delay-small.yaml).
func TestDAGHand(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyDAG, 0) {
		if tc.name != "bundled/delay-small" {
			continue
		}
		// Σ weights = 15; with ρ = 3: src 0–1, a 4–6, b 4–5, c 4–7, ab 9–10,
		// bc 10–12, mid 15–16, d 19–21, e 19–20, sink 24–25.
		for policy, want := range map[string]float64{"sequential": 15, "unclustered": 25} {
			if s := plan(t, policy, tc.in); !near(s.Claimed, want) {
				t.Errorf("%s: claim %v, want %v", policy, s.Claimed, want)
			}
		}
		s := plan(t, "unclustered", tc.in)
		if got := s.Metrics["latest_start"]; got != 24 {
			t.Errorf("unclustered: latest start %v, want 24", got)
		}
	}
}

// TestFlatSequentialClaim: the claim is Σ (Σd + D/min b) over the paths
// from the first root to every participant that is not a root, each path
// found here by a depth-first walk from the root.
func TestFlatSequentialClaim(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyBroadcast, 40) {
		s := plan(t, "flat-sequential", tc.in)
		tr, b := tc.in.Platform.Tree, tc.in.Problem.Broadcast
		lat, bw := map[string]float64{}, map[string]float64{}
		var dfs func(u, parent string, l, w float64)
		dfs = func(u, parent string, l, w float64) {
			lat[u], bw[u] = l, w
			for _, e := range tr.Edges {
				p, v := e.LinkParams, e.B
				if e.B == u {
					v = e.A
					if e.Reverse != nil {
						p = *e.Reverse
					}
				} else if e.A != u {
					continue
				}
				if v != parent {
					dfs(v, u, l+p.Latency, min(w, p.Bandwidth))
				}
			}
		}
		dfs(b.Roots[0], "", 0, math.Inf(1))
		want, n := 0.0, 0
		for _, node := range tr.Nodes {
			if !node.Relay && !contains(b.Roots, node.Name) {
				want += lat[node.Name] + b.Size/bw[node.Name]
				n++
			}
		}
		if !near(s.Claimed, want) || len(s.Actions) != n {
			t.Errorf("%s: claim %v with %d transfers, want %v with %d", tc.name, s.Claimed, len(s.Actions), want, n)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestFlatSequentialHand: tree-small worked out by hand: h1, h2 at
// 100 µs + 1/125 s each, h3–h5 at 200 µs + 1/12.5 s each.
func TestFlatSequentialHand(t *testing.T) {
	for _, tc := range instancesFor(t, models.FamilyBroadcast, 0) {
		if tc.name == "bundled/tree-small" {
			want := 2*(100e-6+1.0/125) + 3*(200e-6+1/12.5)
			if s := plan(t, "flat-sequential", tc.in); !near(s.Claimed, want) {
				t.Errorf("claim %v, want %v", s.Claimed, want)
			}
		}
	}
}

// TestBadInstances: a baseline given what it cannot schedule says so.
func TestBadInstances(t *testing.T) {
	dag := &models.Problem{DAG: &models.DAG{Tasks: []models.Task{{Weight: 1}, {Weight: 1}}}}
	delay := &models.Platform{Delay: &models.Delay{Rho: 1}}
	cross := &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.FullDuplex, Processors: []models.Processor{{Gamma: 1}}}}
	for _, tc := range []struct {
		policy string
		in     policies.Instance
		want   string
	}{
		{"direct", policies.Instance{Platform: delay, Problem: dag}, "direct schedules divisible problems, not dag"},
		{"no-redistribution", policies.Instance{}, "needs a platform and a problem"},
		{"sequential", policies.Instance{Platform: delay, Problem: dag, Options: policies.Options{"k": 1}}, "takes no options"},
		{"unclustered", policies.Instance{Platform: &models.Platform{Delay: &models.Delay{Rho: 1, Processors: 1}}, Problem: dag}, "needs one processor per task"},
		{"unclustered", policies.Instance{Platform: cross, Problem: dag}, "unclustered runs on delay platforms, not crossbar"},
		{"flat-sequential", policies.Instance{Platform: delay, Problem: dag}, "schedules broadcast problems"},
		{"sequential", policies.Instance{Platform: delay, Problem: &models.Problem{DAG: &models.DAG{
			Tasks: []models.Task{{Weight: 1}}, Edges: []models.DAGEdge{{From: 0, To: 3}}}}}, "problem.dag.edges[0].to"},
	} {
		e, _ := policies.Lookup(tc.policy)
		_, err := e.Planner.Plan(context.Background(), tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.policy, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e, _ := policies.Lookup("sequential")
	if _, err := e.Planner.Plan(ctx, policies.Instance{Platform: delay, Problem: dag}); err == nil {
		t.Error("sequential: no error with a cancelled context")
	}
}

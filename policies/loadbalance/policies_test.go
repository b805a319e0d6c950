package loadbalance

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

var allPolicies = []string{PowerDiff, Static, None, Steal}

// instance is a named test instance.
type instance struct {
	name string
	pl   *models.Platform
	pr   *models.Problem
}

// instances are the paper's experiment and variations of every feature
// of the platform and the workload.
func instances() []instance {
	paper := func(mod func(ws *models.Workstations, tp *models.Balance)) (*models.Platform, *models.Problem) {
		pl, pr := PaperInstance()
		mod(pl.Workstations, pr.Balance)
		return pl, pr
	}
	var out []instance
	add := func(name string, mod func(ws *models.Workstations, tp *models.Balance)) {
		pl, pr := paper(mod)
		out = append(out, instance{name, pl, pr})
	}
	add("paper", func(*models.Workstations, *models.Balance) {})
	add("ring", func(ws *models.Workstations, _ *models.Balance) { ws.Topology = models.TopologyRing })
	add("complete", func(ws *models.Workstations, _ *models.Balance) { ws.Topology = models.TopologyComplete })
	add("directed edges toward P0", func(ws *models.Workstations, _ *models.Balance) {
		ws.Topology = ""
		for k := 1; k < len(ws.Processors); k++ {
			ws.Edges = append(ws.Edges, models.InfoEdge{From: ws.Name(k), To: ws.Name((k - 1) / 2)})
		}
	})
	add("load profile with steps", func(ws *models.Workstations, _ *models.Balance) {
		ws.Profiles[0].Steps = []models.LoadStep{{At: 10, Share: 0}, {At: 25.5, Share: 0.9}, {At: 40, Share: 0.3}}
	})
	add("jitter, slow network", func(ws *models.Workstations, tp *models.Balance) {
		tp.Jitter, ws.Latency, ws.PerTask = 0.3, 0.05, 0.02
	})
	add("uneven counts and speeds", func(ws *models.Workstations, tp *models.Balance) {
		tp.Counts = []int{0, 50, 3, 200, 0, 1, 40}
		ws.Processors[2].Speed, ws.Processors[5].Speed = 3, 0.5
	})
	add("short interval", func(_ *models.Workstations, tp *models.Balance) { tp.Interval, tp.Tasks = 0.1, 20 })
	add("one processor", func(ws *models.Workstations, _ *models.Balance) { ws.Processors = ws.Processors[:1] })
	return out
}

func plan(t *testing.T, name string, pl *models.Platform, pr *models.Problem, seed uint64) *sim.Schedule {
	t.Helper()
	p, ok := Lookup(name)
	if !ok {
		t.Fatalf("no policy %s", name)
	}
	s, err := p.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Seed: seed})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// TestReplayAndConservation plans every policy on every instance and
// checks, independently of the run: the timed replay on the workstations
// platform with the problem check (checktest.Verify: zero violations, so
// every task of the pool runs once, and simulated makespan = claimed),
// every action ending when the run says, the task count after every event
// of an audited run, and the metrics against the schedule.
func TestReplayAndConservation(t *testing.T) {
	for _, in := range instances() {
		for _, name := range allPolicies {
			t.Run(in.name+"/"+name, func(t *testing.T) {
				s := plan(t, name, in.pl, in.pr, 3)
				res := checktest.Verify(t, in.pl, in.pr, s, sim.Timed)
				for j, a := range s.Actions {
					if math.Abs(res.Ends[j]-*a.End) > 1e-9*math.Max(1, *a.End) {
						t.Fatalf("action %d (%s %s) ends at %v in the replay, %v in the run", j, a.Kind, a.Label, res.Ends[j], *a.End)
					}
				}
				if s.Metrics["tasks_conserved"] != 1 {
					t.Errorf("tasks_conserved = %v", s.Metrics["tasks_conserved"])
				}
				p, _ := Lookup(name)
				if _, err := p.simulate(context.Background(), policies.Instance{Platform: in.pl, Problem: in.pr, Seed: 3}, true); err != nil {
					t.Fatalf("audited run: %v", err)
				}
				checkMetrics(t, s, in.pl.Workstations, in.pr.Balance, res)
			})
		}
	}
}

// checkMetrics compares the schedule's metrics with what the schedule and
// its replay trace show.
func checkMetrics(t *testing.T, s *sim.Schedule, ws *models.Workstations, tp *models.Balance, res *sim.Result) {
	t.Helper()
	total, work, migrated := 0, 0.0, 0.0
	for i := range ws.Processors {
		total += tp.Count(i)
		finish, n := 0.0, 0
		for _, iv := range res.Trace.Intervals {
			if iv.Lane == i && iv.Kind == sim.KindCompute {
				finish, n = max(finish, iv.End), n+1
				work += iv.Amount
			}
		}
		if got := s.Metrics["tasks_"+ws.Name(i)]; got != float64(n) {
			t.Errorf("tasks_%s = %v, the trace has %d", ws.Name(i), got, n)
		}
		if got := s.Metrics["finish_"+ws.Name(i)]; math.Abs(got-finish) > 1e-9*max(1, finish) {
			t.Errorf("finish_%s = %v, the trace ends at %v", ws.Name(i), got, finish)
		}
	}
	for _, a := range s.Actions {
		if a.Kind == sim.Transfer {
			migrated += a.Amount
		}
	}
	if s.Metrics["tasks_migrated"] != migrated {
		t.Errorf("tasks_migrated = %v, transfers carry %v", s.Metrics["tasks_migrated"], migrated)
	}
	if len(s.Actions)-int(s.Metrics["migrations"]) != total {
		t.Errorf("%d actions, %v migrations, %d tasks", len(s.Actions), s.Metrics["migrations"], total)
	}
	bound := s.Metrics["ideal_bound"]
	if want := ws.IdealBound(work); math.Abs(bound-want) > 1e-9*want {
		t.Errorf("ideal_bound = %v, want %v", bound, want)
	}
	if s.Claimed < bound*(1-1e-12) {
		t.Errorf("makespan %v below the ideal bound %v", s.Claimed, bound)
	}
}

// TestNoBalancingClosedForm: without balancing each processor runs its
// own tasks back to back, n·w/(speed·(1 − share)) under a constant share.
func TestNoBalancingClosedForm(t *testing.T) {
	pl, pr := PaperInstance()
	pl.Workstations.Processors[4].Speed = 2
	s := plan(t, None, pl, pr, 1)
	ws := pl.Workstations
	for i := range ws.Processors {
		share := ws.Load(i).ShareAt(0)
		want := float64(PaperTasks) * PaperWork / (ws.Processors[i].Speed * (1 - share))
		if got := s.Metrics["finish_"+ws.Name(i)]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: finish %v, want %v", ws.Name(i), got, want)
		}
	}
	if s.Metrics["tasks_migrated"] != 0 || s.Metrics["messages"] != 0 {
		t.Errorf("none moved %v tasks with %v messages", s.Metrics["tasks_migrated"], s.Metrics["messages"])
	}
}

// twoProcessors: P0 unloaded, P1 under half load, tasks of 0.3: by t = 1
// P0 has finished 3 tasks (0.3, 0.6, 0.9), P1 one (0.6 a task). Messages
// take 0.01, each migrated task 0.1 more.
func twoProcessors(tasks int, policy string) (*models.Platform, *models.Problem) {
	pl := &models.Platform{Workstations: &models.Workstations{
		Processors: []models.Workstation{{Speed: 1}, {Speed: 1, Share: 0.5}},
		Topology:   models.TopologyTree, Latency: 0.01, PerTask: 0.1,
	}}
	pr := &models.Problem{Balance: &models.Balance{Tasks: tasks, Work: 0.3, Interval: 1}}
	if policy == Steal {
		pr.Balance.Counts = []int{0, tasks}
	}
	return pl, pr
}

// TestFirstRequest checks the rules of §2.2 by hand on the first
// migration: at t = 1 both send their Power (3 and 1); P0's request
// reaches P1 at 1.02, and P1 sends Power_0 − Power_1 = 2 tasks
// (power-diff) or 1 (static), arriving 0.01 + 0.1·n later. A steal: P0,
// idle at 0, asks P1 at once; P1 has started a task, so half of the 9 left
// is 5, arriving at 0.02 + 0.5.
func TestFirstRequest(t *testing.T) {
	for _, tc := range []struct {
		policy   string
		start, n float64
		end      float64
	}{
		{PowerDiff, 1.02, 2, 1.23},
		{Static, 1.02, 1, 1.13},
		{Steal, 0.01, 5, 0.52},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			pl, pr := twoProcessors(10, tc.policy)
			s := plan(t, tc.policy, pl, pr, 1)
			i := slices.IndexFunc(s.Actions, func(a sim.Action) bool { return a.Kind == sim.Transfer })
			if i < 0 {
				t.Fatal("no migration")
			}
			a := s.Actions[i]
			if a.From != 1 || a.To != 0 || a.Amount != tc.n || math.Abs(*a.Start-tc.start) > 1e-12 || math.Abs(*a.End-tc.end) > 1e-12 {
				t.Errorf("first migration %d→%d of %v tasks, %v–%v; want 1→0 of %v, %v–%v", a.From, a.To, a.Amount, *a.Start, *a.End, tc.n, tc.start, tc.end)
			}
		})
	}
}

// TestStealEnds: thieves stop once every victim has been found empty, so
// a run with nothing to steal ends; with one task in all, the other
// processors ask, get nothing, and end.
func TestStealEnds(t *testing.T) {
	pl, pr := PaperInstance()
	pr.Balance.Tasks, pr.Balance.Counts = 0, []int{0, 0, 0, 1, 0, 0, 0}
	for _, victims := range []string{"all", "neighbours"} {
		p, _ := Lookup(Steal)
		in := policies.Instance{Platform: pl, Problem: pr, Seed: 5, Options: policies.Options{"victims": victims}}
		o, err := p.simulate(context.Background(), in, true)
		if err != nil {
			t.Fatal(err)
		}
		if o.Processed[3] != 1 || o.Migrated != 0 {
			t.Errorf("victims %s: processed %v, migrated %d", victims, o.Processed, o.Migrated)
		}
	}
}

// TestDeterminism: the same instance and seed give identical schedules;
// steal's choices depend on the seed.
func TestDeterminism(t *testing.T) {
	for _, in := range instances() {
		for _, name := range allPolicies {
			a, b := plan(t, name, in.pl, in.pr, 11), plan(t, name, in.pl, in.pr, 11)
			if !bytes.Equal(scheduleJSON(t, a), scheduleJSON(t, b)) {
				t.Errorf("%s/%s: two runs with seed 11 differ", in.name, name)
			}
		}
	}
	pl, pr := PaperInstance()
	first := scheduleJSON(t, plan(t, Steal, pl, pr, 1))
	differs := false
	for seed := uint64(2); seed < 6 && !differs; seed++ {
		differs = !bytes.Equal(first, scheduleJSON(t, plan(t, Steal, pl, pr, seed)))
	}
	if !differs {
		t.Error("steal gives the same schedule for seeds 1–5")
	}
}

func scheduleJSON(t *testing.T, s *sim.Schedule) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPaperClaims checks the conclusion of §3.3 on the paper's
// experiment: the loaded processors process fewer tasks and finish no
// later under the proposed method than under the static one, and every
// policy processes the 700 tasks. It also checks what the paper's
// §4 says the method cannot do: P3, whose only neighbour P1 is loaded too,
// gets no help, so the makespan stays that of no balancing, while work
// stealing, which is not bound to neighbours, comes closer to the bound.
func TestPaperClaims(t *testing.T) {
	pl, pr := PaperInstance()
	s := map[string]*sim.Schedule{}
	for _, name := range allPolicies {
		s[name] = plan(t, name, pl, pr, 1)
		total := 0.0
		for i := range PaperProcessors {
			total += s[name].Metrics["tasks_"+pl.NodeName(i)]
		}
		if total != PaperProcessors*PaperTasks {
			t.Errorf("%s processed %v tasks", name, total)
		}
	}
	for _, i := range PaperLoaded {
		m := func(policy, what string) float64 { return s[policy].Metrics[what+pl.NodeName(i)] }
		if m(PowerDiff, "tasks_") > m(Static, "tasks_") || m(PowerDiff, "finish_") > m(Static, "finish_")+1e-9 {
			t.Errorf("P%d: power-diff %v tasks by %v, static %v by %v", i,
				m(PowerDiff, "tasks_"), m(PowerDiff, "finish_"), m(Static, "tasks_"), m(Static, "finish_"))
		}
	}
	if s[PowerDiff].Claimed != s[None].Claimed || s[Steal].Claimed >= s[PowerDiff].Claimed {
		t.Errorf("makespans: power-diff %v, none %v, steal %v", s[PowerDiff].Claimed, s[None].Claimed, s[Steal].Claimed)
	}
}

// TestConservationCatches tampers with a valid schedule: each change must
// be reported.
func TestConservationCatches(t *testing.T) {
	pl, pr := PaperInstance()
	ws, tp := pl.Workstations, pr.Balance
	good := plan(t, PowerDiff, pl, pr, 1)
	migrated := slices.IndexFunc(good.Actions, func(a sim.Action) bool { return len(a.After) > 0 })
	own := slices.IndexFunc(good.Actions, func(a sim.Action) bool { return a.Kind == sim.Compute && len(a.After) == 0 })
	transfer := good.Actions[migrated].After[0]
	if last := good.Actions[len(good.Actions)-1]; last.Kind != sim.Compute || len(last.After) > 0 {
		t.Fatalf("the last action is %+v, not an own task", last)
	}
	for _, tc := range []struct {
		name string
		mod  func(s *sim.Schedule)
		want string
	}{
		{"a task run twice", func(s *sim.Schedule) { s.Actions = append(s.Actions, s.Actions[own]) }, "processed twice"},
		{"a task lost", func(s *sim.Schedule) { s.Actions = s.Actions[:len(s.Actions)-1] }, "never processed"},
		{"a task that is not in the pool", func(s *sim.Schedule) { s.Actions[own].Label = "P9/0" }, "not a task of the pool"},
		{"an own task elsewhere", func(s *sim.Schedule) { s.Actions[own].Node = (s.Actions[own].Node + 1) % 7 }, "without a migration"},
		{"a migrated task on the wrong node", func(s *sim.Schedule) { s.Actions[migrated].Node = s.Actions[transfer].From }, "after transfer"},
		{"a transfer that carries too much", func(s *sim.Schedule) { s.Actions[transfer].Amount++ }, "carries"},
		{"a task following a compute", func(s *sim.Schedule) { s.Actions[migrated].After = []int{own} }, "must follow exactly"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := *good
			s.Actions = slices.Clone(good.Actions)
			tc.mod(&s)
			err := CheckConservation(&s, ws, tp)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("CheckConservation = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	if err := CheckConservation(good, ws, tp); err != nil {
		t.Fatalf("untouched schedule: %v", err)
	}
}

func TestBadInput(t *testing.T) {
	pl, pr := PaperInstance()
	cb := &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.HalfDuplex, Processors: []models.Processor{{Gamma: 1}}}}
	badShare, _ := PaperInstance()
	badShare.Workstations.Profiles[0].Share = 1
	badEdge, _ := PaperInstance()
	badEdge.Workstations.Topology, badEdge.Workstations.Edges = "", []models.InfoEdge{{From: "P0", To: "P7"}}
	_, badInterval := PaperInstance()
	badInterval.Balance.Interval = -1
	for _, tc := range []struct {
		name   string
		policy string
		in     policies.Instance
		path   string // a *models.FieldError at this path, or
		want   string // an error containing this
	}{
		{"load share 1", PowerDiff, policies.Instance{Platform: badShare, Problem: pr}, "platform.workstations.profiles[0].share", ""},
		{"edge to a missing node", Static, policies.Instance{Platform: badEdge, Problem: pr}, "platform.workstations.edges[0].to", ""},
		{"negative interval", PowerDiff, policies.Instance{Platform: pl, Problem: badInterval}, "problem.balance.interval", ""},
		{"crossbar", None, policies.Instance{Platform: cb, Problem: pr}, "problem.balance", ""},
		{"DAG problem", Steal, policies.Instance{Platform: pl, Problem: &models.Problem{DAG: &models.DAG{}}}, "problem.dag.tasks", ""},
		{"unknown option", PowerDiff, policies.Instance{Platform: pl, Problem: pr, Options: policies.Options{"k": 2}}, "", "unknown option \"k\""},
		{"bad victims", Steal, policies.Instance{Platform: pl, Problem: pr, Options: policies.Options{"victims": "some"}}, "", `want one of all, neighbours, got "some"`},
		{"nil problem", Steal, policies.Instance{Platform: pl}, "", "needs a platform and a problem"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := Lookup(tc.policy)
			_, err := p.Plan(context.Background(), tc.in)
			var fe *models.FieldError
			switch {
			case err == nil:
				t.Fatal("no error")
			case tc.path != "" && (!errors.As(err, &fe) || fe.Path != tc.path):
				t.Fatalf("error %v, want a *models.FieldError at %s", err, tc.path)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	pl, pr := PaperInstance()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, _ := Lookup(PowerDiff)
	if _, err := p.Plan(ctx, policies.Instance{Platform: pl, Problem: pr}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Plan with a cancelled context = %v", err)
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range allPolicies {
		e, ok := policies.Lookup(name)
		if !ok || e.Family != models.FamilyBalance || !slices.Equal(e.Platforms, []string{models.KindWorkstations}) || e.Doc == "" {
			t.Errorf("%s: registered %v as %+v", name, ok, e)
		}
	}
}

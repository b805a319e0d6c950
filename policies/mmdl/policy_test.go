package mmdl

import (
	"context"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

var flagInstances = flag.Int("instances", 0, "random instances per variant in TestReplayRandom (0: 40)")

var policyNames = []string{"mmdl", "mmdl-forward", "single-round"}

func plan(t testing.TB, name string, pl *models.Platform, pr *models.Problem, opts policies.Options) *sim.Schedule {
	t.Helper()
	e, ok := policies.Lookup(name)
	if !ok {
		t.Fatalf("policy %s is not registered", name)
	}
	s, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Options: opts})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func mustReplay(t testing.TB, pl *models.Platform, s *sim.Schedule, mode sim.Mode) *sim.Result {
	t.Helper()
	res, err := replay.Replay(context.Background(), pl, s, mode)
	if err != nil {
		t.Fatalf("%s: replay: %v", s.Policy, err)
	}
	return res
}

// TestReplayRandom plans every policy on random instances of every variant,
// with and without start-up latency and with given or automatic R, and
// verifies each schedule in timed replay: no violation of the platform or
// the problem (so the computations add up to the load), simulated makespan
// = claim. It also checks at most p − 1 messages per round and direction,
// T ≤ claim (T bounds every schedule), and, for mmdl, the claim against
// the paper's T + T/R + Rα (with the final result collection's share, see
// the package doc).
func TestReplayRandom(t *testing.T) {
	n := 40
	if *flagInstances > 0 {
		n = *flagInstances
	}
	if testing.Short() || !slowtest.Enabled() {
		n = 10
	}
	for vi, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(vi)))
			for k := range n {
				alpha := 0.0
				if r.IntN(2) == 0 {
					alpha = logUniform(r, 1e-3, 1)
				}
				pl, pr := randomInstance(r, v, 10, alpha)
				pr.Divisible.Rounds = models.Rounds(r.IntN(4)) // 0: auto
				t.Run(strconv.Itoa(k), func(t *testing.T) {
					for _, name := range policyNames {
						checkRandom(t, v, name, pl, pr)
					}
				})
			}
		})
	}
}

// checkRandom plans a random instance of variant v with the named policy
// and checks the schedule as TestReplayRandom says.
func checkRandom(t *testing.T, v variant, name string, pl *models.Platform, pr *models.Problem) {
	t.Helper()
	opts := policies.Options{"max_rounds": 6}
	if name == "single-round" {
		opts = nil
	}
	s := plan(t, name, pl, pr, opts)
	if name == "single-round" && s.Metrics["R"] != 1 {
		t.Fatalf("single-round used R = %g", s.Metrics["R"])
	}
	checkReplay(t, pl, pr, s)
	checkStructure(t, pl, s)
	T := s.Metrics["T"]
	if s.Claimed < T*(1-1e-9) {
		t.Errorf("%s: claim %g below T = %g", name, s.Claimed, T)
	}
	if name != "mmdl" {
		return
	}
	R, a := s.Metrics["R"], s.Metrics["alpha_round"]
	// The results of the last round still have to come back: one more α;
	// in full duplex, where the distribution and collection of a round
	// overlap but the first (distribution only) and the last (collection
	// only) slots do not, up to T/R + 2α.
	bound := T + T/R + R*a
	switch {
	case v.results && v.full:
		bound += T/R + 2*a
	case v.results:
		bound += a
	}
	if s.Claimed > bound*(1+1e-9) {
		t.Errorf("%s: claim %g above T + T/R + Rα = %g", name, s.Claimed, bound)
	}
}

// checkReplay fails unless s is verified in timed replay (checktest.Verify)
// and warns of nothing but ignored options. It returns the result.
func checkReplay(t *testing.T, pl *models.Platform, pr *models.Problem, s *sim.Schedule) *sim.Result {
	t.Helper()
	res := checktest.Verify(t, pl, pr, s, sim.Timed)
	for _, w := range s.Warnings {
		if !strings.Contains(w, "is ignored") {
			t.Errorf("%s: unexpected warning %q", s.Policy, w)
		}
	}
	return res
}

// checkStructure counts the transfers of each round and direction: at most
// p − 1.
func checkStructure(t *testing.T, pl *models.Platform, s *sim.Schedule) {
	t.Helper()
	p := len(pl.Crossbar.Processors)
	type key struct {
		label string
		round int
	}
	count := map[key]int{}
	for _, a := range s.Actions {
		if a.Kind == sim.Transfer {
			count[key{a.Label, a.Round}]++
		}
	}
	for key, c := range count {
		if c > p-1 {
			t.Errorf("%s: %d %s messages in round %d, p = %d", s.Policy, c, key.label, key.round, p)
		}
	}
}

// TestFig3Orders replays paper 000's Fig. 3 example under both orders: the
// forward order (§3.4's worst) takes longer than the reverse order.
func TestFig3Orders(t *testing.T) {
	c := loadCase(t, "testdata/fig3.yaml")
	for _, R := range []models.Rounds{1, 4} {
		c.Problem.Divisible.Rounds = R
		got := map[string]float64{}
		for _, name := range []string{"mmdl", "mmdl-forward"} {
			s := plan(t, name, &c.Platform, &c.Problem, nil)
			got[name] = checkReplay(t, &c.Platform, &c.Problem, s).Makespan
		}
		if !(got["mmdl-forward"] > got["mmdl"]) {
			t.Errorf("R = %d: mmdl-forward %g should replay longer than mmdl %g", R, got["mmdl-forward"], got["mmdl"])
		}
		// R = 1: distribution (reverse 3, forward 5), then the longest
		// computation, 5 (P0, P2, P4, P8).
		if R == 1 && (math.Abs(got["mmdl"]-8) > 1e-9 || math.Abs(got["mmdl-forward"]-10) > 1e-9) {
			t.Errorf("R = 1: makespans %v, want mmdl 8, mmdl-forward 10", got)
		}
	}
}

// TestWorkerPortBound is the case where §4.2's ȳ_i for a worker, which
// leaves out the worker's port, gives a round time no schedule achieves.
// Two masters (x = 10, γ = 1, computing at full speed while sending) and
// one fast idle worker (γ = γ′ = 0.1), β = 0.5. The paper's formulas give
// ȳ = T − 10 for each master and ȳ = 10T for the worker, so
// T = max(T_L, 5/3) = T_L = 10/3; but then the masters must send 2(10 − 10/3)
// = 13.3 units, 6.7 time units on the worker's port, longer than T. With
// the port limit T = 5, as the LP says.
func TestWorkerPortBound(t *testing.T) {
	cb := &models.Crossbar{Beta: 0.5, Duplex: models.HalfDuplex, Processors: []models.Processor{
		{Gamma: 1, Load: 10, Overlap: map[string]float64{models.KindSend: 1}},
		{Gamma: 1, Load: 10, Overlap: map[string]float64{models.KindSend: 1}},
		{Gamma: 0.1, Overlap: map[string]float64{models.KindRecv: 0.1}},
	}}
	pl, pr := &models.Platform{Crossbar: cb}, &models.Problem{Divisible: &models.Divisible{}}
	m := mustModel(t, pl, pr)
	r := RoundTime(m)
	if math.Abs(r.TL-10.0/3) > 1e-12 {
		t.Errorf("T_L = %g, want 10/3", r.TL)
	}
	lpT, err := lpRoundTime(pl, pr)
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(r.T, 5) > 1e-12 || relDiff(lpT, 5) > 1e-9 {
		t.Errorf("T = %g, LP %g, want 5", r.T, lpT)
	}
	checkReplay(t, pl, pr, plan(t, "mmdl", pl, pr, nil))
}

// TestNonConsistentRates: full duplex with result collection, where the
// master's explicit rate while sending and receiving at once (γ‴ = 20) is
// slower than consistent degradation gives (1/γ‴ = 1/1.25 + 1/1.25 − 1/1,
// γ‴ = 5/3). The policy warns, and the timed replay shows the computations
// that overlap both missing their planned ends, by how much.
func TestNonConsistentRates(t *testing.T) {
	cb := &models.Crossbar{Beta: 0.2, Duplex: models.FullDuplex, Processors: []models.Processor{
		{Name: "M", Gamma: 1, Load: 100, Overlap: map[string]float64{"send": 1.25, "recv": 1.25},
			Combined: []models.CombinedRate{{Active: []string{"send", "recv"}, Gamma: 20}}},
		{Name: "W1", Gamma: 1, Overlap: map[string]float64{"send": 1.25, "recv": 1.25}},
		{Name: "W2", Gamma: 2, Overlap: map[string]float64{"send": 3, "recv": 3}},
	}}
	pl := &models.Platform{Crossbar: cb}
	pr := &models.Problem{Divisible: &models.Divisible{CollectResults: true, ResultSize: 0.5, Rounds: 6}}
	s := plan(t, "mmdl", pl, pr, nil)
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "M: combined rates are not consistent") {
		t.Errorf("warnings %q", s.Warnings)
	}
	res := mustReplay(t, pl, s, sim.Timed)
	late, worst := 0, 0.0
	for _, v := range res.Violations {
		if v.Kind == sim.MissedEnd {
			late++
			worst = max(worst, res.Ends[v.Action]-*s.Actions[v.Action].End)
		}
	}
	if late == 0 || !(worst > 1e-3) {
		t.Errorf("timed replay: %d missed ends (worst by %g) despite the slower combined rate", late, worst)
	}
	t.Logf("claim %g: %d computations end late, the worst by %g (%d violations in all)", s.Claimed, late, worst, len(res.Violations))
}

// TestFlooredRates: full duplex with results and no overlap, so the
// consistent-degradation rate while sending and receiving at once would be
// negative and the platform floors it at 0. The plan uses the floored rates,
// so the claim holds; the warning says T may not be optimal.
func TestFlooredRates(t *testing.T) {
	cb := &models.Crossbar{Beta: 0.3, Duplex: models.FullDuplex, Processors: []models.Processor{
		{Name: "M", Gamma: 1, Load: 100}, {Name: "W1", Gamma: 0.5}, {Name: "W2", Gamma: 2, Load: 5},
	}}
	pl := &models.Platform{Crossbar: cb}
	pr := &models.Problem{Divisible: &models.Divisible{CollectResults: true, ResultSize: 1, Rounds: 3}}
	s := plan(t, "mmdl", pl, pr, nil)
	if len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "floors at 0") {
		t.Errorf("warnings %q", s.Warnings)
	}
	checktest.Verify(t, pl, pr, s, sim.Timed)
}

// TestBadInput checks that invalid models surface as *models.FieldError
// naming the field, and that bad options are errors.
func TestBadInput(t *testing.T) {
	base := func() (*models.Platform, *models.Problem) {
		return &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.HalfDuplex, Processors: []models.Processor{
			{Gamma: 1, Load: 5}, {Gamma: 2},
		}}}, &models.Problem{Divisible: &models.Divisible{}}
	}
	cases := []struct {
		name  string
		edit  func(*models.Platform, *models.Problem)
		opts  policies.Options
		path  string // FieldError path, or "" for another error
		wants string
	}{
		{"gamma zero", func(pl *models.Platform, _ *models.Problem) { pl.Crossbar.Processors[1].Gamma = 0 }, nil,
			"platform.crossbar.processors[1].gamma", ""},
		{"gamma negative", func(pl *models.Platform, _ *models.Problem) { pl.Crossbar.Processors[0].Gamma = -1 }, nil,
			"platform.crossbar.processors[0].gamma", ""},
		{"negative load", func(pl *models.Platform, _ *models.Problem) { pl.Crossbar.Processors[0].Load = -3 }, nil,
			"platform.crossbar.processors[0].load", ""},
		{"faster while communicating", func(pl *models.Platform, _ *models.Problem) {
			pl.Crossbar.Processors[1].Overlap = map[string]float64{"send": 1.5}
		}, nil, "platform.crossbar.processors[1].overlap.send", ""},
		{"not a crossbar", func(pl *models.Platform, _ *models.Problem) {
			pl.Crossbar, pl.Delay = nil, &models.Delay{Rho: 1}
		}, nil, "problem.divisible", ""},
		{"not divisible", func(_ *models.Platform, pr *models.Problem) {
			pr.Divisible, pr.Broadcast = nil, &models.Broadcast{Roots: []string{"P0"}, Size: 1}
		}, nil, "problem.broadcast", ""},
		{"unknown option", func(*models.Platform, *models.Problem) {}, policies.Options{"round": 3}, "", `unknown option "round"`},
		{"max_rounds zero", func(*models.Platform, *models.Problem) {}, policies.Options{"max_rounds": 0}, "", "option max_rounds: want a whole number >= 1, got 0"},
	}
	e, _ := policies.Lookup("mmdl")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pl, pr := base()
			c.edit(pl, pr)
			_, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: pl, Problem: pr, Options: c.opts})
			if err == nil {
				t.Fatal("no error")
			}
			var fe *models.FieldError
			switch {
			case c.path != "" && (!errors.As(err, &fe) || fe.Path != c.path):
				t.Errorf("error %v, want a FieldError at %s", err, c.path)
			case c.wants != "" && !strings.Contains(err.Error(), c.wants):
				t.Errorf("error %v, want %q", err, c.wants)
			case !strings.HasPrefix(err.Error(), "mmdl: "):
				t.Errorf("error %v does not name the policy", err)
			}
		})
	}
}

// TestBestRounds checks the automatic R: it is the better of the two
// neighbours of √(T/α) (α = AlphaRound). The paper's model T + T/R + Rα
// overstates the per-slot overhead (only the busiest port pays α for every
// one of its messages, and computation can absorb it), so the best R for
// the exact makespan is often larger; the test logs how far off it is.
func TestBestRounds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	worst := 0.0
	for k := range 30 {
		pl, pr := randomInstance(r, variants[k%len(variants)], 10, logUniform(r, 1e-3, 1e-1))
		m := mustModel(t, pl, pr)
		e := NewExpansion(m, RoundTime(m), Reverse)
		if len(e.Messages) == 0 {
			continue
		}
		R, err := e.BestRounds(1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		span := func(R int) float64 {
			l, err := e.layout(R)
			if err != nil {
				t.Fatal(err)
			}
			return l.Makespan
		}
		star := math.Sqrt(e.Round.T / e.AlphaRound())
		if math.Abs(float64(R)-star) >= 1 && !(star < 1 && R == 1) {
			t.Errorf("instance %d: R = %d, √(T/α) = %g", k, R, star)
		}
		for _, other := range []int{int(math.Floor(star)), int(math.Ceil(star))} {
			if other >= 1 && span(other) < span(R) {
				t.Errorf("instance %d: R = %d gives %g, R = %d gives %g", k, R, span(R), other, span(other))
			}
		}
		best := math.Inf(1)
		for R := 1; R <= 3*int(star)+3; R++ {
			best = min(best, span(R))
		}
		worst = max(worst, span(R)/best-1)
	}
	t.Logf("the automatic R is at most %.1f %% above the best R's makespan", 100*worst)
}

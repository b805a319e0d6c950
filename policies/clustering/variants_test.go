package clustering

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// variantOptions are the alternatives of issue 20's ablation, as policy
// options.
var variantOptions = []struct {
	policy string
	opts   policies.Options
}{
	{"cross", policies.Options{"eval": "global"}},
	{"cross", policies.Options{"eval": "global", "divide_ok": "strict"}},
	{"cross", policies.Options{"eval": "global", "divide_ok": "tasks"}},
	{"cross", policies.Options{"divide_ok": "strict"}},
	{"cross", policies.Options{"divide_ok": "tasks"}},
	{"cross", policies.Options{"other": "whole"}},
	{"cross", policies.Options{"untangle": "y"}},
	{"cross", policies.Options{"untangle": "z"}},
	{"cross", policies.Options{"ties": "last"}},
	{"cross", policies.Options{"select": "largest"}},
	{"convex", policies.Options{"select": "largest"}},
	{"convex", policies.Options{"eval": "global"}},
	{"cass2", policies.Options{"join": "top"}},
}

// TestVariantsVerify replays every variant's schedules on small graphs at
// several delays (checktest.Verify, timed), checks Definition 1, and that
// each clustering is in its algorithm's class: cross for Cross-A, convex
// for Convex-A, and for CASS-II with join top, clusters that are paths
// (every two tasks of a cluster are related by precedence).
func TestVariantsVerify(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	fft, _ := models.FFT(16)
	ge, _ := models.GaussianElimination(8)
	graphs := map[string]*models.DAG{"fft16": fft, "ge8": ge, "thm4": Theorem4DAG(2)}
	for i := range 3 {
		graphs[fmt.Sprintf("random%d", i)] = randomDAG(rng, 16+8*i, 0.2)
	}
	for i, g := range loadSTGSet(t, "rand50")[:4] {
		graphs[fmt.Sprintf("stg50-%d", i)] = g
	}
	for name, g := range graphs {
		p, err := prepare(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.withReach(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, rho := range []float64{1, 5, 14} {
			for _, v := range variantOptions {
				s, pl := plan(t, v.policy, g, rho, v.opts, 5)
				c, start := clusteringOf(g, s)
				if err := CheckSchedule(g, c, start, rho); err != nil {
					t.Errorf("%s ρ=%v %s %v: %v", name, rho, v.policy, v.opts, err)
				}
				checktest.Verify(t, pl, &models.Problem{DAG: g}, s, sim.Timed)
				if err := p.checkClass(v.policy, v.opts, c); err != nil {
					t.Errorf("%s ρ=%v %s %v: %v", name, rho, v.policy, v.opts, err)
				}
			}
		}
	}
}

// checkClass checks the clustering class of a policy's output.
func (p *prepared) checkClass(policy string, opts policies.Options, c Clustering) error {
	switch policy {
	case "cross":
		return p.checkCross(c)
	case "convex":
		return p.checkConvex(c)
	}
	if opts["join"] != JoinTop {
		return nil
	}
	for _, ts := range c.Clusters() {
		for i, a := range ts {
			for _, b := range ts[i+1:] {
				if !p.desc[a].has(b) && !p.desc[b].has(a) {
					return fmt.Errorf("tasks %d and %d share a cluster but are independent", a, b)
				}
			}
		}
	}
	return nil
}

// TestGlobalEvalNeverSlower checks what eval=global promises: every split
// it keeps is no slower on the whole graph than the clustering before it,
// so the final eval′ is at most sequential execution (with divide_ok
// strict, below it whenever C was divided at all).
func TestGlobalEvalNeverSlower(t *testing.T) {
	for i, g := range loadSTGSet(t, "rand50")[:20] {
		pg, err := Prepare(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		for _, rho := range []float64{1.5, 5, 14} {
			for _, div := range []string{DivideTies, DivideStrict} {
				res, err := pg.CrossA(context.Background(), rho, Params{K: 5, Runs: 3, Seed: uint64(i), Variant: Variant{Eval: EvalGlobal, DivideOK: div}})
				if err != nil {
					t.Fatal(err)
				}
				seq := pg.p.total
				for r, ms := range res.RunMakespan {
					if ms > seq {
						t.Errorf("graph %d ρ=%v %s run %d: makespan %v, sequential %v", i, rho, div, r, ms, seq)
					}
				}
				if best := res.Best; div == DivideStrict && best.Clustering.NumClusters() > 1 && !(best.Makespan < seq) {
					t.Errorf("graph %d ρ=%v strict: %d clusters, makespan %v not below sequential %v", i, rho, best.Clustering.NumClusters(), best.Makespan, seq)
				}
			}
		}
	}
}

func TestVariantOptionErrors(t *testing.T) {
	g := chain(3)
	for _, tt := range []struct {
		policy string
		opts   policies.Options
		msg    string
	}{
		{"cross", policies.Options{"eval": "both"}, "option eval: want one of"},
		{"convex", policies.Options{"divide_ok": "never"}, "option divide_ok: want one of"},
		{"cross", policies.Options{"other": "split"}, "option other: want one of"},
		{"cross", policies.Options{"untangle": "x"}, "option untangle: want one of"},
		{"cross", policies.Options{"ties": 1}, "option ties"},
		{"cass2", policies.Options{"join": "any-top"}, "option join: want one of"},
		{"cass2", policies.Options{"eval": "local"}, `unknown option "eval"`},
	} {
		e, _ := policies.Lookup(tt.policy)
		_, err := e.Planner.Plan(context.Background(), policies.Instance{Platform: &models.Platform{Delay: &models.Delay{Rho: 2}},
			Problem: &models.Problem{DAG: g}, Options: tt.opts})
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s %v: got %v, want %q", tt.policy, tt.opts, err, tt.msg)
		}
	}
}

package clustering

import (
	"context"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// Defaults of Cross-A and Convex-A, the settings of paper 002 §5.2.1.
const (
	DefaultK    = 10
	DefaultRuns = 10
)

// The options of Cross-A and Convex-A (paper 002 §5.2.1).
var (
	optK = policies.Option{Name: "k", Type: policies.TypeInt, Default: DefaultK, Min: 1,
		Doc: "independent-task selections tried per cluster split, the best kept (paper 002 §5.1.2: K)"}
	optRuns = policies.Option{Name: "runs", Type: policies.TypeInt, Default: DefaultRuns, Min: 1,
		Doc: "randomised runs, the best clustering kept (paper 002 §5.2.1)"}
	optSelect = policies.Option{Name: "select", Type: policies.TypeChoice, Default: string(SelectCP),
		Choices: []string{string(SelectCP), string(SelectRandom)},
		Doc:     "how the two independent tasks are picked: cp (largest CP first, §5.1.2) or random (uniformly)"}
)

func init() {
	delay := []string{models.KindDelay}
	randomised := []policies.Option{optK, optRuns, optSelect}
	policies.Register(policies.Entry{Name: "cross", Family: models.FamilyDAG, Platforms: delay, Options: randomised,
		Planner: policies.PlannerFunc(planRecursive("cross")),
		Doc:     "Cross-A (paper 002 §5): cross clustering by CrossCL, the best of several randomised runs"})
	policies.Register(policies.Entry{Name: "convex", Family: models.FamilyDAG, Platforms: delay, Options: randomised,
		Planner: policies.PlannerFunc(planRecursive("convex")),
		Doc:     "Convex-A (Lepère–Trystram 2002): convex clustering in CrossCL's frame, the best of several randomised runs"})
	policies.Register(policies.Entry{Name: "cass2", Family: models.FamilyDAG, Platforms: delay, Planner: policies.PlannerFunc(planDeterministic("cass2", CASS2)),
		Doc: "CASS-II (Liou–Palis 1998): bottom-up linear clustering without duplication"})
	policies.Register(policies.Entry{Name: "dsc", Family: models.FamilyDAG, Platforms: delay, Planner: policies.PlannerFunc(planDeterministic("dsc", DSC)),
		Doc: "DSC with DSRW (Yang–Gerasoulis 1994): dominant sequence clustering"})
}

// instance extracts the task graph and ρ of an admitted instance.
func instance(in policies.Instance) (*models.DAG, float64) {
	return in.Problem.DAG, in.Platform.Delay.Rho
}

func planRecursive(name string) func(context.Context, policies.Instance) (*sim.Schedule, error) {
	return func(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
		g, rho := instance(in)
		prm := paramsFrom(in.Options, in.Seed)
		res, err := runNamed(ctx, name, g, rho, prm)
		if err != nil {
			return nil, err
		}
		s := res.Best.schedule(g, name, in.Recycle)
		s.Metrics["time_S_mean"] = mean(res.RunTimeS)
		s.Metrics["runs"], s.Metrics["k"] = float64(prm.Runs), float64(prm.K)
		return s, nil
	}
}

func planDeterministic(name string, alg func(*models.DAG, float64) (*Plan, error)) func(context.Context, policies.Instance) (*sim.Schedule, error) {
	return func(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
		g, rho := instance(in)
		pl, err := alg(g, rho)
		if err != nil {
			return nil, err
		}
		return pl.schedule(g, name, in.Recycle), nil
	}
}

// paramsFrom reads the options k, runs and select.
func paramsFrom(o policies.Options, seed uint64) Params {
	return Params{K: optK.Int(o), Runs: optRuns.Int(o), Seed: seed, Select: Selection(optSelect.String(o))}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

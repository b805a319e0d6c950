package clustering

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// Defaults of Cross-A and Convex-A, the settings of paper 002 §5.2.1.
const (
	DefaultK    = 10
	DefaultRuns = 10
)

func init() {
	delay := []string{models.KindDelay}
	policies.Register(policies.Entry{Name: "cross", Family: models.FamilyDAG, Platforms: delay, Planner: policies.PlannerFunc(planRecursive("cross")),
		Doc: "Cross-A (paper 002 §5): cross clustering by CrossCL; options k (selections per cluster, 10), runs (10), select (cp|random)"})
	policies.Register(policies.Entry{Name: "convex", Family: models.FamilyDAG, Platforms: delay, Planner: policies.PlannerFunc(planRecursive("convex")),
		Doc: "Convex-A (Lepère–Trystram 2002): convex clustering; options k (10), runs (10), select (cp|random)"})
	policies.Register(policies.Entry{Name: "cass2", Family: models.FamilyDAG, Platforms: delay, Planner: policies.PlannerFunc(planDeterministic("cass2", CASS2)),
		Doc: "CASS-II (Liou–Palis 1998): bottom-up linear clustering without duplication"})
	policies.Register(policies.Entry{Name: "dsc", Family: models.FamilyDAG, Platforms: delay, Planner: policies.PlannerFunc(planDeterministic("dsc", DSC)),
		Doc: "DSC with DSRW (Yang–Gerasoulis 1994): dominant sequence clustering"})
}

// instance extracts the task graph and ρ of a policy instance.
func instance(name string, in policies.Instance) (*models.DAG, float64, error) {
	if in.Platform == nil || in.Platform.Delay == nil {
		return nil, 0, fmt.Errorf("%s: runs on the delay platform only", name)
	}
	if in.Problem == nil || in.Problem.DAG == nil {
		return nil, 0, fmt.Errorf("%s: needs a task graph (problem.dag)", name)
	}
	return in.Problem.DAG, in.Platform.Delay.Rho, nil
}

func planRecursive(name string) func(context.Context, policies.Instance) (*sim.Schedule, error) {
	return func(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
		g, rho, err := instance(name, in)
		if err != nil {
			return nil, err
		}
		prm, err := paramsFrom(in.Options, in.Seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
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
		g, rho, err := instance(name, in)
		if err != nil {
			return nil, err
		}
		if err := in.Options.Known(); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		pl, err := alg(g, rho)
		if err != nil {
			return nil, err
		}
		return pl.schedule(g, name, in.Recycle), nil
	}
}

// paramsFrom reads the options k, runs and select.
func paramsFrom(o policies.Options, seed uint64) (Params, error) {
	if err := o.Known("k", "runs", "select"); err != nil {
		return Params{}, err
	}
	k, err := o.Int("k", DefaultK)
	if err != nil {
		return Params{}, err
	}
	runs, err := o.Int("runs", DefaultRuns)
	if err != nil {
		return Params{}, err
	}
	sel, err := o.String("select", "")
	if err != nil {
		return Params{}, err
	}
	if k < 1 || runs < 1 {
		return Params{}, fmt.Errorf("options k and runs must be >= 1, got k=%d runs=%d", k, runs)
	}
	return Params{K: k, Runs: runs, Seed: seed, Select: Selection(sel)}, nil
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

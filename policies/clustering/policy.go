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

// The options of Cross-A and Convex-A (paper 002 §5.2.1).
var (
	optK = policies.Option{Name: "k", Type: policies.TypeInt, Default: DefaultK, Min: 1,
		Doc: "independent-task selections tried per cluster split, the best kept (paper 002 §5.1.2: K)", Source: "paper 002 §5.2.1"}
	optRuns = policies.Option{Name: "runs", Type: policies.TypeInt, Default: DefaultRuns, Min: 1,
		Doc: "randomised runs, the best clustering kept (paper 002 §5.2.1)", Source: "paper 002 §5.2.1"}
	optSelect = policies.Option{Name: "select", Type: policies.TypeChoice, Default: string(SelectCP),
		Choices: []string{string(SelectCP), string(SelectRandom), string(SelectLargest)},
		Doc:     "how the two independent tasks are picked: cp (largest CP first, §5.1.2), random (uniformly), or largest (Lepère–Trystram's two largest independent sets)", Source: "paper 002 §5.1.2"}
	optJoin = policies.Option{Name: "join", Type: policies.TypeChoice, Default: JoinAny, Choices: []string{JoinAny, JoinTop},
		Doc:    "which cluster a task may join in CASS-II: any (that of a successor anywhere in it) or top (only as its new top)",
		Source: "netsched's reading of Liou–Palis 1998, as H. Kanemitsu's independent Java implementation of CASS-II reads it"}
)

// The options of Variant: the readings of paper 002 §5.1 the text leaves
// open (see Variant), each default the reading the text supports best.
const readingSource = "the reading of paper 002 §5.1 its text supports best (results/ablation)"

var (
	optEval = policies.Option{Name: "eval", Type: policies.TypeChoice, Default: EvalLocal, Choices: []string{EvalLocal, EvalGlobal},
		Doc: "where eval′ is taken in SelectBetterCluster and DivideOK (§5.1.3–5.1.4): on C alone, or in the whole clustering", Source: readingSource}
	optDivideOK = policies.Option{Name: "divide_ok", Type: policies.TypeChoice, Default: DivideTies,
		Choices: []string{DivideTies, DivideStrict, DivideTasks},
		Doc:     "DivideOK's threshold (§5.1.4): split when no slower (ties), only when faster (strict), or time(S) ≤ |C| (tasks)", Source: readingSource}
	optOther = policies.Option{Name: "other", Type: policies.TypeChoice, Default: OtherComponents, Choices: []string{OtherComponents, OtherWhole},
		Doc: "how C_other is split (§5.1.1): into its independent components, or kept whole", Source: readingSource}
	optUntangle = policies.Option{Name: "untangle", Type: policies.TypeChoice, Default: UntangleFewer,
		Choices: []string{UntangleFewer, UntangleY, UntangleZ},
		Doc:     "which tasks move when a task of C_other lies between Y1 and Z1 (§5.1.1): the fewer side, Y1's, or Z1's", Source: readingSource}
	optTies = policies.Option{Name: "ties", Type: policies.TypeChoice, Default: TiesFirst, Choices: []string{TiesFirst, TiesLast},
		Doc: "which of equally good splits SelectBetterCluster keeps: the first drawn or the last", Source: readingSource}
	variantOpts = []policies.Option{optEval, optDivideOK, optOther, optUntangle, optTies}
)

func init() {
	platforms := []string{models.KindDelay, models.KindCrossbar, models.KindMultiCluster}
	opts := append([]policies.Option{optK, optRuns, optSelect}, variantOpts...)
	const mapped = "; on a crossbar, a multi-cluster or a delay platform with a bound on its processors, its clusters mapped onto the processors (Mapped, Bounded)"
	// The delay model (paper 002 §2) of every clustering algorithm here:
	// unbounded processors, and data that travels while processors compute.
	assumes := []policies.Assumption{policies.AssumeUnbounded, policies.AssumeOverlap.From("the delay model, paper 002 §2")}
	policies.Register(policies.Entry{Name: "cross", Family: models.FamilyDAG, Platforms: platforms, Assumes: assumes, Options: opts,
		Planner: mappedOn("cross", planRecursive("cross"), clusterRecursive("cross")),
		Doc:     "Cross-A (paper 002 §5): cross clustering by CrossCL, the best of several randomised runs" + mapped})
	policies.Register(policies.Entry{Name: "convex", Family: models.FamilyDAG, Platforms: platforms, Assumes: assumes, Options: opts,
		Planner: mappedOn("convex", planRecursive("convex"), clusterRecursive("convex")),
		Doc:     "Convex-A (Lepère–Trystram 2002): convex clustering in CrossCL's frame, the best of several randomised runs" + mapped})
	policies.Register(policies.Entry{Name: "cass2", Family: models.FamilyDAG, Platforms: platforms, Assumes: assumes, Options: []policies.Option{optJoin},
		Planner: mappedOn("cass2", planCASS2, clusterCASS2),
		Doc:     "CASS-II (Liou–Palis 1998): bottom-up linear clustering without duplication" + mapped})
	policies.Register(policies.Entry{Name: "dsc", Family: models.FamilyDAG, Platforms: platforms, Assumes: assumes,
		Planner: mappedOn("dsc", planDeterministic("dsc", DSC), func(_ context.Context, _ policies.Instance, g *models.DAG, rho float64) (*Plan, error) {
			return DSC(g, rho)
		}),
		Doc: "DSC with DSRW (Yang–Gerasoulis 1994): dominant sequence clustering" + mapped})
}

// clusterRecursive is the clusterer of Cross-A or Convex-A: the best
// clustering of its runs.
func clusterRecursive(name string) clusterer {
	return func(ctx context.Context, in policies.Instance, g *models.DAG, rho float64) (*Plan, error) {
		prm, err := paramsFrom(in.Options, in.Seed)
		if err != nil {
			return nil, err
		}
		res, err := runNamed(ctx, name, g, rho, prm)
		if err != nil {
			return nil, err
		}
		return res.Best, nil
	}
}

// clusterCASS2 is the clusterer of CASS-II with its option join.
func clusterCASS2(_ context.Context, in policies.Instance, g *models.DAG, rho float64) (*Plan, error) {
	return CASS2With(g, rho, CASSParams{Join: optJoin.String(in.Options)})
}

// instance extracts the task graph and ρ of an admitted instance.
func instance(in policies.Instance) (*models.DAG, float64) {
	return in.Problem.DAG, in.Platform.Delay.Rho
}

func planRecursive(name string) func(context.Context, policies.Instance) (*sim.Schedule, error) {
	return func(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
		g, rho := instance(in)
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
		g, rho := instance(in)
		pl, err := alg(g, rho)
		if err != nil {
			return nil, err
		}
		return pl.schedule(g, name, in.Recycle), nil
	}
}

// planCASS2 plans CASS-II with its option join.
func planCASS2(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	g, rho := instance(in)
	pl, err := CASS2With(g, rho, CASSParams{Join: optJoin.String(in.Options)})
	if err != nil {
		return nil, err
	}
	return pl.schedule(g, "cass2", in.Recycle), nil
}

// paramsFrom reads the options k, runs, select and those of Variant.
func paramsFrom(o policies.Options, seed uint64) (Params, error) {
	v, err := variantFrom(o)
	if err != nil {
		return Params{}, err
	}
	return Params{K: optK.Int(o), Runs: optRuns.Int(o), Seed: seed, Select: Selection(optSelect.String(o)), Variant: v}, nil
}

// variantFrom reads the options of Variant.
func variantFrom(o policies.Options) (Variant, error) {
	v := Variant{Eval: optEval.String(o), DivideOK: optDivideOK.String(o), Other: optOther.String(o),
		Untangle: optUntangle.String(o), Ties: optTies.String(o)}
	return v.withDefaults()
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

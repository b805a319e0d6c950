package clustering

import (
	"fmt"
	"strings"

	cl "github.com/netsched/netsched/policies/clustering"
	"github.com/netsched/netsched/reproduce"
)

// Reading is one reading of the points paper 002 leaves open (issues 20
// and 42): the parameters of Cross-A, Convex-A and CASS-II. Their seeds
// are ignored: each graph's runs draw theirs as CompareTable does, so the
// default reading gives Reproduce's ratios, and two readings that set
// Cross-A alike give the same Cross-A runs. A K or Runs of 0 is the
// paper's 10 (or CompareOptions' K and Runs).
type Reading struct {
	Name       string // short name, as given to --reading and in the tables
	Hypothesis string // what it changes from the default
	Cross      cl.Params
	Convex     cl.Params
	CASS       cl.CASSParams
}

// DefaultReading is the name of the default reading, Readings()[0].
const DefaultReading = "default"

// Readings are the named readings, the default first; each but the last
// differs from the default in one setting (of one algorithm), the last,
// "combined", sets together the three that move the ratios toward the
// paper at large ρ.
func Readings() []Reading {
	def := cl.Params{K: cl.DefaultK, Runs: cl.DefaultRuns}
	cross := func(name, hyp string, edit func(*cl.Params)) Reading {
		v := Reading{Name: name, Hypothesis: hyp, Cross: def, Convex: def}
		edit(&v.Cross)
		return v
	}
	return []Reading{
		{Name: DefaultReading, Hypothesis: "the defaults (eval′ local to C, DivideOK on ties, C_other in components, fewer moves, first of ties, K = R = 10; Convex-A by CP; CASS-II joins any cluster)", Cross: def, Convex: def},
		cross("eval=global", "eval′ of SelectBetterCluster and DivideOK on the whole graph, C's split within the current clustering", func(p *cl.Params) { p.Variant.Eval = cl.EvalGlobal }),
		cross("divide_ok=strict", "DivideOK only when the split is faster than C sequential", func(p *cl.Params) { p.Variant.DivideOK = cl.DivideStrict }),
		cross("divide_ok=tasks", "DivideOK as printed: eval′(R*) ≤ |C| (one unit worse than sequential allowed)", func(p *cl.Params) { p.Variant.DivideOK = cl.DivideTasks }),
		cross("global+strict", "eval′ on the whole graph and DivideOK only when strictly faster", func(p *cl.Params) { p.Variant.Eval, p.Variant.DivideOK = cl.EvalGlobal, cl.DivideStrict }),
		cross("global+tasks", "eval′ on the whole graph and DivideOK as printed: a split at most one unit of time(S) slower than the current clustering", func(p *cl.Params) { p.Variant.Eval, p.Variant.DivideOK = cl.EvalGlobal, cl.DivideTasks }),
		cross("other=whole", "C_other kept as one cluster", func(p *cl.Params) { p.Variant.Other = cl.OtherWhole }),
		cross("untangle=y", "offending tasks of Y1 always move to C_T", func(p *cl.Params) { p.Variant.Untangle = cl.UntangleY }),
		cross("untangle=z", "offending tasks of Z1 always move to C_B", func(p *cl.Params) { p.Variant.Untangle = cl.UntangleZ }),
		cross("ties=last", "SelectBetterCluster keeps the last of equal splits", func(p *cl.Params) { p.Variant.Ties = cl.TiesLast }),
		cross("cross:select=random", "Cross-A draws its two tasks uniformly", func(p *cl.Params) { p.Select = cl.SelectRandom }),
		cross("K=R=20", "Cross-A with K = 20, R = 20 (Convex-A stays at 10, 10)", func(p *cl.Params) { p.K, p.Runs = 20, 20 }),
		cross("K=R=3", "Cross-A with K = 3, R = 3 (Convex-A stays at 10, 10)", func(p *cl.Params) { p.K, p.Runs = 3, 3 }),
		{Name: "convex:select=random", Hypothesis: "Convex-A draws its two tasks uniformly (\"randomly\", §5.2.1.1)", Cross: def,
			Convex: cl.Params{K: def.K, Runs: def.Runs, Select: cl.SelectRandom}},
		{Name: "convex:select=largest", Hypothesis: "Convex-A draws its two tasks for the largest descendant sets (Lepère–Trystram: \"two sets of independent tasks as large as possible\")", Cross: def,
			Convex: cl.Params{K: def.K, Runs: def.Runs, Select: cl.SelectLargest}},
		{Name: "cass2:join=top", Hypothesis: "CASS-II joins a cluster only through its first task (clusters are paths)", Cross: def, Convex: def,
			CASS: cl.CASSParams{Join: cl.JoinTop}},
		{Name: "combined", Hypothesis: "the three that move the ratios toward the paper at large ρ together (issue 42's \"matching\" reading): global+strict, convex:select=largest, cass2:join=top",
			Cross:  cl.Params{K: def.K, Runs: def.Runs, Variant: cl.Variant{Eval: cl.EvalGlobal, DivideOK: cl.DivideStrict}},
			Convex: cl.Params{K: def.K, Runs: def.Runs, Select: cl.SelectLargest}, CASS: cl.CASSParams{Join: cl.JoinTop}},
	}
}

// LookupReading finds a reading by name ("" is the default); its error
// lists the names.
func LookupReading(name string) (Reading, error) {
	if name == "" {
		name = DefaultReading
	}
	var names []string
	for _, r := range Readings() {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	return Reading{}, fmt.Errorf("paper 002 has no reading %q; its readings are %s", name, strings.Join(names, ", "))
}

// paperReadings lists the readings for the registry (--reading, netsched
// reproduce --help).
func paperReadings() []reproduce.Reading {
	var out []reproduce.Reading
	for _, r := range Readings() {
		out = append(out, reproduce.Reading{Name: r.Name, What: r.Hypothesis})
	}
	return out
}

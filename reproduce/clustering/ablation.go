package clustering

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/netsched/netsched/models"
	cl "github.com/netsched/netsched/policies/clustering"
	"github.com/netsched/netsched/sweep"
)

// AblationVariant is one reading of paper 002 tested against Tables 1
// and 6 (issue 20): the parameters of Cross-A, Convex-A and CASS-II. The
// seeds of Cross and Convex are ignored: each graph's runs draw theirs as
// Reproduce does, so the default variant gives Reproduce's ratios.
type AblationVariant struct {
	Name       string // short name, used in the tables
	Hypothesis string // what it tests
	Cross      cl.Params
	Convex     cl.Params
	CASS       cl.CASSParams
}

// AblationVariants are the readings of issue 20's hypotheses, the default
// first; each differs from the default in one setting.
func AblationVariants() []AblationVariant {
	def := cl.Params{K: cl.DefaultK, Runs: cl.DefaultRuns}
	cross := func(name, hyp string, edit func(*cl.Params)) AblationVariant {
		v := AblationVariant{Name: name, Hypothesis: hyp, Cross: def, Convex: def}
		edit(&v.Cross)
		return v
	}
	return []AblationVariant{
		{Name: "default", Hypothesis: "the defaults (eval′ local to C, DivideOK on ties, C_other in components, fewer moves, first of ties, K = R = 10; Convex-A by CP; CASS-II joins any cluster)", Cross: def, Convex: def},
		cross("eval=global", "eval′ of SelectBetterCluster and DivideOK on the whole graph, C's split within the current clustering", func(p *cl.Params) { p.Variant.Eval = cl.EvalGlobal }),
		cross("divide_ok=strict", "DivideOK only when the split is faster than C sequential", func(p *cl.Params) { p.Variant.DivideOK = cl.DivideStrict }),
		cross("divide_ok=tasks", "DivideOK as printed: eval′(R*) ≤ |C| (one unit worse than sequential allowed)", func(p *cl.Params) { p.Variant.DivideOK = cl.DivideTasks }),
		cross("global+strict", "eval′ on the whole graph and DivideOK only when strictly faster", func(p *cl.Params) { p.Variant.Eval, p.Variant.DivideOK = cl.EvalGlobal, cl.DivideStrict }),
		cross("other=whole", "C_other kept as one cluster", func(p *cl.Params) { p.Variant.Other = cl.OtherWhole }),
		cross("untangle=y", "offending tasks of Y1 always move to C_T", func(p *cl.Params) { p.Variant.Untangle = cl.UntangleY }),
		cross("untangle=z", "offending tasks of Z1 always move to C_B", func(p *cl.Params) { p.Variant.Untangle = cl.UntangleZ }),
		cross("ties=last", "SelectBetterCluster keeps the last of equal splits", func(p *cl.Params) { p.Variant.Ties = cl.TiesLast }),
		cross("cross select=random", "Cross-A draws its two tasks uniformly", func(p *cl.Params) { p.Select = cl.SelectRandom }),
		cross("K=R=20", "Cross-A with K = 20, R = 20 (Convex-A stays at 10, 10)", func(p *cl.Params) { p.K, p.Runs = 20, 20 }),
		cross("K=R=3", "Cross-A with K = 3, R = 3 (Convex-A stays at 10, 10)", func(p *cl.Params) { p.K, p.Runs = 3, 3 }),
		{Name: "convex select=random", Hypothesis: "Convex-A draws its two tasks uniformly (\"randomly\", §5.2.1.1)", Cross: def,
			Convex: cl.Params{K: def.K, Runs: def.Runs, Select: cl.SelectRandom}},
		{Name: "convex select=largest", Hypothesis: "Convex-A draws its two tasks for the largest descendant sets (Lepère–Trystram: \"two sets of independent tasks as large as possible\")", Cross: def,
			Convex: cl.Params{K: def.K, Runs: def.Runs, Select: cl.SelectLargest}},
		{Name: "cass2 join=top", Hypothesis: "CASS-II joins a cluster only through its first task (clusters are paths)", Cross: def, Convex: def,
			CASS: cl.CASSParams{Join: cl.JoinTop}},
		{Name: "combined", Hypothesis: "the three that move the ratios toward the paper at large ρ together: eval=global with divide_ok=strict, convex select=largest, cass2 join=top",
			Cross:  cl.Params{K: def.K, Runs: def.Runs, Variant: cl.Variant{Eval: cl.EvalGlobal, DivideOK: cl.DivideStrict}},
			Convex: cl.Params{K: def.K, Runs: def.Runs, Select: cl.SelectLargest}, CASS: cl.CASSParams{Join: cl.JoinTop}},
	}
}

// AblationOptions say what Ablation runs.
type AblationOptions struct {
	STGDir    string // the STG sets, as for Reproduce
	MaxGraphs int    // if positive, the first MaxGraphs graphs of each set
	Seed      uint64 // as CompareOptions.Seed
	Jobs      int    // graphs worked on at once; 0 means GOMAXPROCS
	// Variants to run; nil means AblationVariants().
	Variants []AblationVariant
}

// AblationResult is one variant's Tables 1 and 6 on every STG set.
type AblationResult struct {
	Variant AblationVariant
	Sets    []*CompareResult
}

// Ablation runs every variant on the STG sets at the paper's delays,
// scoring as CompareTable does.
func Ablation(ctx context.Context, opt AblationOptions) ([]AblationResult, error) {
	sets, err := loadSTGSets(opt.STGDir, opt.MaxGraphs)
	if err != nil {
		return nil, err
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("ablation: no STG sets under %q", opt.STGDir)
	}
	variants := opt.Variants
	if variants == nil {
		variants = AblationVariants()
	}
	var out []AblationResult
	for _, v := range variants {
		r := AblationResult{Variant: v}
		for _, set := range sets {
			res, err := ablateSet(ctx, set, v, opt)
			if err != nil {
				return nil, fmt.Errorf("ablation %s: %w", v.Name, err)
			}
			r.Sets = append(r.Sets, res)
		}
		out = append(out, r)
	}
	return out, nil
}

// ablateSet runs one variant on one set of graphs, several graphs at once.
func ablateSet(ctx context.Context, set stgSet, v AblationVariant, opt AblationOptions) (*CompareResult, error) {
	rhos := PaperRhos()
	out := make([][]graphOutcome, len(set.graphs))
	err := forEachGraph(ctx, len(set.graphs), opt.Jobs, func(i int) (err error) {
		out[i], err = ablateGraph(ctx, set.graphs[i], rhos, v, opt.Seed, uint64(i))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", set.label, err)
	}
	return summarize(set.label, set.graphs, rhos, out, CompareOptions{Runs: v.Cross.Runs}), nil
}

// forEachGraph calls fn(0), …, fn(n−1) on jobs goroutines (0: GOMAXPROCS)
// and returns the first error by index.
func forEachGraph(ctx context.Context, n, jobs int, fn func(int) error) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for i := range next {
				errs[i] = fn(i)
			}
		})
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("graph %d: %w", i, err)
		}
	}
	return nil
}

// ablateGraph is compareGraph with the variant's parameters; the seeds
// are drawn in the same order, so the default variant gives the same
// outcomes.
func ablateGraph(ctx context.Context, g *models.DAG, rhos []float64, v AblationVariant, seed, index uint64) ([]graphOutcome, error) {
	pg, err := cl.Prepare(ctx, g)
	if err != nil {
		return nil, err
	}
	seeds := rand.New(rand.NewPCG(seed, index))
	res := make([]graphOutcome, len(rhos))
	for j, rho := range rhos {
		seq, err := pg.EvalPrime(make(cl.Clustering, len(g.Tasks)), rho)
		if err != nil {
			return nil, err
		}
		crossPrm, convexPrm := v.Cross, v.Convex
		crossPrm.Seed, convexPrm.Seed = seeds.Uint64(), seeds.Uint64()
		cross, err := pg.CrossA(ctx, rho, crossPrm)
		if err != nil {
			return nil, err
		}
		convex, err := pg.ConvexA(ctx, rho, convexPrm)
		if err != nil {
			return nil, err
		}
		cass, err := pg.CASS2With(rho, v.CASS)
		if err != nil {
			return nil, err
		}
		res[j] = graphOutcome{sequential: seq.TimeS, crossMin: cross.Best.TimeS, crossAvg: mean(cross.RunTimeS),
			convexMin: convex.Best.TimeS, cass: cass.TimeS,
			crossSeq: cross.Best.Clustering.NumClusters() == 1, convexSeq: convex.Best.Clustering.NumClusters() == 1}
	}
	return res, nil
}

// WriteAblationMarkdown writes, for each STG set, Table 1 (Min/Min) and
// Table 6 per variant and delay, with the difference from the default
// variant (the first) in parentheses.
func WriteAblationMarkdown(w io.Writer, results []AblationResult) error {
	var b strings.Builder
	for _, tbl := range []struct {
		title string
		value func(CompareRow) float64
	}{
		{"Table 1 (Min/Min), Cross-A / Convex-A", func(r CompareRow) float64 { return r.MinMinConvex }},
		{"Table 6, Cross-A (Min) / CASS-II", func(r CompareRow) float64 { return r.MinCASS }},
	} {
		for si, set := range results[0].Sets {
			fmt.Fprintf(&b, "### %s, %s (%d tasks, %d graphs)\n\n| variant |", tbl.title, set.Label, set.Tasks, set.Rows[0].Graphs)
			for _, row := range set.Rows {
				fmt.Fprintf(&b, " ρ=%g |", row.Rho)
			}
			b.WriteString("\n|---|" + strings.Repeat("---|", len(set.Rows)) + "\n")
			for _, r := range results {
				fmt.Fprintf(&b, "| %s |", r.Variant.Name)
				for j, row := range r.Sets[si].Rows {
					v, d := tbl.value(row), tbl.value(row)-tbl.value(set.Rows[j])
					if r.Variant.Name == results[0].Variant.Name {
						fmt.Fprintf(&b, " %.3f |", v)
					} else {
						fmt.Fprintf(&b, " %.3f (%+.3f) |", v, d)
					}
				}
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteAblationCSV writes one row per variant, set and delay.
func WriteAblationCSV(w io.Writer, results []AblationResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"variant", "set", "tasks", "rho", "graphs", "minmin_convex", "avgmin_convex", "left_out_convex", "min_cass2", "left_out_cass2"})
	f := sweep.FormatFloat
	for _, r := range results {
		for _, set := range r.Sets {
			for _, row := range set.Rows {
				cw.Write([]string{r.Variant.Name, set.Label, strconv.Itoa(set.Tasks), f(row.Rho), strconv.Itoa(row.Graphs),
					f(row.MinMinConvex), f(row.AvgMinConvex), strconv.Itoa(row.ExcludedConvex),
					f(row.MinCASS), strconv.Itoa(row.ExcludedCASS)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

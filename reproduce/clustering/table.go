package clustering

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/netsched/netsched/models"
	cl "github.com/netsched/netsched/policies/clustering"
)

// CompareOptions configure CompareTable.
type CompareOptions struct {
	K, Runs int    // Cross-A and Convex-A settings where Reading has none; 0 means the paper's 10 and 10
	Seed    uint64 // every random choice derives from it
	Jobs    int    // graphs worked on at once; 0 means GOMAXPROCS
	// Reading sets the three algorithms' parameters; the zero value is
	// the default reading.
	Reading Reading
	// Progress, if set, is told after each graph how many of the set's
	// graphs are done; it is called from several goroutines at once.
	Progress func(done, total int)
}

// CompareRow is one column (one delay ρ) of the paper's ratio tables for a
// set of graphs. Ratios are of sums over the graphs, as in paper 002
// §5.2.1: "Min" is the least time(S) of the R runs, "Avg" their mean.
type CompareRow struct {
	Rho    float64
	Graphs int
	// Against Convex-A (Tables 1, 4, 5): ΣMin(Cross-A)/ΣMin(Convex-A) and
	// ΣAvg(Cross-A)/ΣMin(Convex-A), leaving out graphs for which both
	// output a sequential clustering (one cluster).
	MinMinConvex, AvgMinConvex float64
	ExcludedConvex             int
	// Against CASS-II (Tables 6, 8, 9): ΣMin(Cross-A)/ΣCASS-II, where a
	// CASS-II schedule slower than sequential execution counts as
	// sequential (time(S) = n−1 for unit tasks, §5.2.2), leaving out graphs
	// for which both are sequential.
	MinCASS                 float64
	ExcludedCASS            int
	CASSWorseThanSequential int
	// Sums behind the ratios, over the graphs kept.
	SumCrossMin, SumCrossAvg, SumConvexMin, SumCrossMinCASS, SumCASS float64
}

// CompareResult is CompareTable's outcome for one set of graphs.
type CompareResult struct {
	Label string
	Tasks int // tasks per graph (the mean if they differ)
	Rows  []CompareRow
	// Mean wall time of one run (K selections) of Cross-A and Convex-A and
	// of one CASS-II, in milliseconds (Tables 2 and 7).
	CrossMS, ConvexMS, CASSMS float64
}

// graphOutcome is what one graph contributes at one delay.
type graphOutcome struct {
	crossMin, crossAvg, convexMin, cass, sequential float64
	crossSeq, convexSeq                             bool
	crossTime, convexTime, cassTime                 time.Duration
}

// CompareTable runs paper 002's comparison on a set of graphs at each
// delay: Cross-A and Convex-A (R runs of K selections each) and CASS-II,
// each scored by time(S) (eval′ for the clusterings, CASS-II's own
// schedule). The graphs are used as given (paper 002 uses unit tasks:
// models.DAG.UnitWeights). Graphs run in parallel; the result does not
// depend on Jobs.
func CompareTable(ctx context.Context, label string, graphs []*models.DAG, rhos []float64, opt CompareOptions) (*CompareResult, error) {
	if len(graphs) == 0 || len(rhos) == 0 {
		return nil, fmt.Errorf("compare %s: no graphs or no delays", label)
	}
	opt.K, opt.Runs = cmp.Or(opt.K, cl.DefaultK), cmp.Or(opt.Runs, cl.DefaultRuns)
	opt.Jobs = cmp.Or(opt.Jobs, runtime.GOMAXPROCS(0))
	out := make([][]graphOutcome, len(graphs))
	err := forEachGraph(ctx, len(graphs), opt.Jobs, opt.Progress, func(i int) (err error) {
		out[i], err = compareGraph(ctx, graphs[i], rhos, opt, uint64(i))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("compare %s: %w", label, err)
	}
	return summarize(label, graphs, rhos, out, opt), nil
}

// compareGraph runs the three algorithms on one graph at every delay.
func compareGraph(ctx context.Context, g *models.DAG, rhos []float64, opt CompareOptions, index uint64) ([]graphOutcome, error) {
	pg, err := cl.Prepare(ctx, g)
	if err != nil {
		return nil, err
	}
	seeds := rand.New(rand.NewPCG(opt.Seed, index))
	res := make([]graphOutcome, len(rhos))
	for j, rho := range rhos {
		o := &res[j]
		seq, err := pg.EvalPrime(make(cl.Clustering, len(g.Tasks)), rho)
		if err != nil {
			return nil, err
		}
		o.sequential = seq.TimeS
		var cross, convex *cl.Result
		crossPrm, convexPrm := opt.params(opt.Reading.Cross), opt.params(opt.Reading.Convex)
		crossPrm.Seed, convexPrm.Seed = seeds.Uint64(), seeds.Uint64()
		o.crossTime, err = timed(func() (err error) {
			cross, err = pg.CrossA(ctx, rho, crossPrm)
			return err
		})
		if err != nil {
			return nil, err
		}
		o.convexTime, err = timed(func() (err error) {
			convex, err = pg.ConvexA(ctx, rho, convexPrm)
			return err
		})
		if err != nil {
			return nil, err
		}
		var cass *cl.Plan
		o.cassTime, err = timed(func() (err error) { cass, err = pg.CASS2With(rho, opt.Reading.CASS); return err })
		if err != nil {
			return nil, err
		}
		o.crossMin, o.crossAvg, o.convexMin, o.cass = cross.Best.TimeS, mean(cross.RunTimeS), convex.Best.TimeS, cass.TimeS
		o.crossSeq, o.convexSeq = cross.Best.Clustering.NumClusters() == 1, convex.Best.Clustering.NumClusters() == 1
	}
	return res, nil
}

// params are a reading's parameters of Cross-A or Convex-A with K and
// Runs defaulted to opt's.
func (opt CompareOptions) params(p cl.Params) cl.Params {
	p.K, p.Runs = cmp.Or(p.K, opt.K), cmp.Or(p.Runs, opt.Runs)
	return p
}

func timed(f func() error) (time.Duration, error) {
	t0 := time.Now()
	err := f()
	return time.Since(t0), err
}

func summarize(label string, graphs []*models.DAG, rhos []float64, out [][]graphOutcome, opt CompareOptions) *CompareResult {
	r := &CompareResult{Label: label}
	tasks := 0
	for _, g := range graphs {
		tasks += len(g.Tasks)
	}
	r.Tasks = (tasks + len(graphs)/2) / len(graphs)
	var crossT, convexT, cassT time.Duration
	for j, rho := range rhos {
		row := CompareRow{Rho: rho, Graphs: len(graphs)}
		for i := range graphs {
			o := out[i][j]
			crossT, convexT, cassT = crossT+o.crossTime, convexT+o.convexTime, cassT+o.cassTime
			if o.crossSeq && o.convexSeq {
				row.ExcludedConvex++
			} else {
				row.SumCrossMin += o.crossMin
				row.SumCrossAvg += o.crossAvg
				row.SumConvexMin += o.convexMin
			}
			cass := o.cass
			if cass > o.sequential {
				cass = o.sequential
				row.CASSWorseThanSequential++
			}
			if o.crossSeq && cass >= o.sequential {
				row.ExcludedCASS++
			} else {
				row.SumCrossMinCASS += o.crossMin
				row.SumCASS += cass
			}
		}
		row.MinMinConvex, row.AvgMinConvex = ratio(row.SumCrossMin, row.SumConvexMin), ratio(row.SumCrossAvg, row.SumConvexMin)
		row.MinCASS = ratio(row.SumCrossMinCASS, row.SumCASS)
		r.Rows = append(r.Rows, row)
	}
	runs := float64(len(graphs) * len(rhos))
	r.CrossMS = float64(crossT.Microseconds()) / 1000 / runs / float64(opt.params(opt.Reading.Cross).Runs)
	r.ConvexMS = float64(convexT.Microseconds()) / 1000 / runs / float64(opt.params(opt.Reading.Convex).Runs)
	r.CASSMS = float64(cassT.Microseconds()) / 1000 / runs
	return r
}

// ratio is a/b, or 1 when both are 0 (every graph left out or trivial).
func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return a / b
	}
	return a / b
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

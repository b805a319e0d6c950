package clustering

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/models"
	cl "github.com/netsched/netsched/policies/clustering"
)

// runOutcome is one algorithm's outcome on one graph at one delay.
type runOutcome struct {
	min, avg float64 // time(S): least of the runs and their mean
	seq      bool    // the best clustering is one cluster
	clusters int     // clusters of the best clustering (0 for CASS-II)
	dur      time.Duration
}

// ReadingsSet holds the runs of every algorithm setting that some
// reading names on one set of graphs at the paper's delays, each setting
// run once however many readings share it, so that the ratios of any
// pairing of one reading's Cross-A with another's Convex-A or CASS-II are
// those CompareTable would give (the runs draw the same seeds).
type ReadingsSet struct {
	Label  string
	Graphs []*models.DAG
	Rhos   []float64
	seq    [][]float64 // by graph and delay: time(S) of one cluster
	cross  map[cl.Params][][]runOutcome
	convex map[cl.Params][][]runOutcome
	cass   map[cl.CASSParams][][]runOutcome
	// CPU is the CPU time (user+sys, seconds) of the process while the
	// set was measured, or negative where the system does not report it.
	CPU float64
}

// MeasureReadings runs each distinct Cross-A, Convex-A and CASS-II
// setting of readings (K and Runs 0: the paper's 10) on graphs at the
// paper's delays, seeds drawn as CompareTable draws them from seed.
func MeasureReadings(ctx context.Context, label string, graphs []*models.DAG, readings []Reading, seed uint64, jobs int) (*ReadingsSet, error) {
	s := &ReadingsSet{Label: label, Graphs: graphs, Rhos: PaperRhos(),
		cross: map[cl.Params][][]runOutcome{}, convex: map[cl.Params][][]runOutcome{}, cass: map[cl.CASSParams][][]runOutcome{}}
	cpu0 := cputime.Process()
	pgs := make([]*cl.Graph, len(graphs))
	s.seq = make([][]float64, len(graphs))
	err := forEachGraph(ctx, len(graphs), jobs, nil, func(i int) (err error) {
		if pgs[i], err = cl.Prepare(ctx, graphs[i]); err != nil {
			return err
		}
		for _, rho := range s.Rhos {
			seq, err := pgs[i].EvalPrime(make(cl.Clustering, len(graphs[i].Tasks)), rho)
			if err != nil {
				return err
			}
			s.seq[i] = append(s.seq[i], seq.TimeS)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	seeds := s.seeds(seed)
	for _, r := range readings {
		r.Cross, r.Convex = defaultEffort(r.Cross), defaultEffort(r.Convex)
		if err := s.runOnce(ctx, s.cross, r.Cross, pgs, jobs, func(pg *cl.Graph, i, j int) (*cl.Result, error) {
			prm := r.Cross
			prm.Seed = seeds[i][j][0]
			return pg.CrossA(ctx, s.Rhos[j], prm)
		}); err != nil {
			return nil, fmt.Errorf("%s, Cross-A of %s: %w", label, r.Name, err)
		}
		if err := s.runOnce(ctx, s.convex, r.Convex, pgs, jobs, func(pg *cl.Graph, i, j int) (*cl.Result, error) {
			prm := r.Convex
			prm.Seed = seeds[i][j][1]
			return pg.ConvexA(ctx, s.Rhos[j], prm)
		}); err != nil {
			return nil, fmt.Errorf("%s, Convex-A of %s: %w", label, r.Name, err)
		}
		if err := runCASSOnce(ctx, s, r.CASS, pgs, jobs); err != nil {
			return nil, fmt.Errorf("%s, CASS-II of %s: %w", label, r.Name, err)
		}
	}
	if cpu0 >= 0 {
		s.CPU = cputime.Process() - cpu0
	} else {
		s.CPU = -1
	}
	return s, nil
}

// defaultEffort gives K and Runs their paper values where they are 0.
func defaultEffort(p cl.Params) cl.Params {
	p.K, p.Runs = max(p.K, 0), max(p.Runs, 0)
	if p.K == 0 {
		p.K = cl.DefaultK
	}
	if p.Runs == 0 {
		p.Runs = cl.DefaultRuns
	}
	return p
}

// seeds are the seeds of Cross-A and Convex-A by graph and delay, in
// compareGraph's order.
func (s *ReadingsSet) seeds(seed uint64) [][][2]uint64 {
	out := make([][][2]uint64, len(s.Graphs))
	for i := range out {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		for range s.Rhos {
			out[i] = append(out[i], [2]uint64{rng.Uint64(), rng.Uint64()})
		}
	}
	return out
}

// runOnce runs a recursive algorithm under prm on every graph and delay
// unless into already has it.
func (s *ReadingsSet) runOnce(ctx context.Context, into map[cl.Params][][]runOutcome, prm cl.Params, pgs []*cl.Graph, jobs int,
	run func(pg *cl.Graph, i, j int) (*cl.Result, error)) error {
	if _, ok := into[prm]; ok {
		return nil
	}
	out := make([][]runOutcome, len(pgs))
	err := forEachGraph(ctx, len(pgs), jobs, nil, func(i int) error {
		for j := range s.Rhos {
			var res *cl.Result
			d, err := timed(func() (err error) { res, err = run(pgs[i], i, j); return err })
			if err != nil {
				return err
			}
			n := res.Best.Clustering.NumClusters()
			out[i] = append(out[i], runOutcome{min: res.Best.TimeS, avg: mean(res.RunTimeS), seq: n == 1, clusters: n, dur: d})
		}
		return nil
	})
	if err == nil {
		into[prm] = out
	}
	return err
}

// runCASSOnce runs CASS-II under prm unless s already has it.
func runCASSOnce(ctx context.Context, s *ReadingsSet, prm cl.CASSParams, pgs []*cl.Graph, jobs int) error {
	if _, ok := s.cass[prm]; ok {
		return nil
	}
	out := make([][]runOutcome, len(pgs))
	err := forEachGraph(ctx, len(pgs), jobs, nil, func(i int) error {
		for _, rho := range s.Rhos {
			var p *cl.Plan
			d, err := timed(func() (err error) { p, err = pgs[i].CASS2With(rho, prm); return err })
			if err != nil {
				return err
			}
			out[i] = append(out[i], runOutcome{min: p.TimeS, avg: p.TimeS, dur: d})
		}
		return nil
	})
	if err == nil {
		s.cass[prm] = out
	}
	return err
}

// Compose returns Tables 1 and 6 for Cross-A as reading cross sets it,
// Convex-A as convex sets it and CASS-II as cass sets it (each measured
// by MeasureReadings): what CompareTable gives for a reading with those
// three settings.
func (s *ReadingsSet) Compose(cross, convex, cass Reading) (*CompareResult, error) {
	cr, okX := s.cross[defaultEffort(cross.Cross)]
	cv, okV := s.convex[defaultEffort(convex.Convex)]
	cs, okC := s.cass[cass.CASS]
	if !okX || !okV || !okC {
		return nil, fmt.Errorf("%s: the settings of %s, %s, %s were not all measured", s.Label, cross.Name, convex.Name, cass.Name)
	}
	out := make([][]graphOutcome, len(s.Graphs))
	for i := range out {
		for j := range s.Rhos {
			x, v, c := cr[i][j], cv[i][j], cs[i][j]
			out[i] = append(out[i], graphOutcome{sequential: s.seq[i][j], crossMin: x.min, crossAvg: x.avg, convexMin: v.min, cass: c.min,
				crossSeq: x.seq, convexSeq: v.seq, crossTime: x.dur, convexTime: v.dur, cassTime: c.dur})
		}
	}
	opt := CompareOptions{K: cl.DefaultK, Runs: cl.DefaultRuns, Reading: Reading{Cross: cross.Cross, Convex: convex.Convex}}
	return summarize(s.Label, s.Graphs, s.Rhos, out, opt), nil
}

// MeanClusters is, at each delay, the mean number of clusters of the best
// clustering that Cross-A (convex false) or Convex-A (true) found under
// reading r's setting, over the set's graphs.
func (s *ReadingsSet) MeanClusters(r Reading, convex bool) ([]float64, error) {
	runs, ok := s.cross[defaultEffort(r.Cross)]
	if convex {
		runs, ok = s.convex[defaultEffort(r.Convex)]
	}
	if !ok {
		return nil, fmt.Errorf("%s: the setting of %s was not measured", s.Label, r.Name)
	}
	out := make([]float64, len(s.Rhos))
	for _, g := range runs {
		for j, o := range g {
			out[j] += float64(o.clusters) / float64(len(runs))
		}
	}
	return out, nil
}

// forEachGraph calls fn(0), …, fn(n−1) on jobs goroutines (0: GOMAXPROCS),
// telling progress (if set) how many are done after each, and returns the
// first error by index.
func forEachGraph(ctx context.Context, n, jobs int, progress func(done, total int), fn func(int) error) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var done atomic.Int64
	for range jobs {
		wg.Go(func() {
			for i := range next {
				errs[i] = fn(i)
				if progress != nil {
					progress(int(done.Add(1)), n)
				}
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

package broadcast

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/bound"
	"github.com/netsched/netsched/policies/broadcast/heuristic"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// search is the depth-first branch and bound over transfers in time order
// (§5): a state is the set of holders with their arrival times and the
// reservation calendar; a move adds a transfer from a holder to a
// non-holder, started at the earliest time ≥ the last start (§2.1) at
// which it fits.
type search struct {
	nw  *treenet.Network
	in  policies.Instance
	opt Options
	c   *treenet.Calendar

	ready     []float64 // arrival per node, +Inf for non-holders
	delivered []int     // placement that delivered to a node, −1 for roots
	tLast     float64
	makespan  float64
	missing   int

	best       float64
	bestMoves  []treenet.Placement
	backfilled float64             // the better of fnf's and ecef's backfilled schedules (see ecef), +Inf before one
	backMoves  []treenet.Placement // that schedule
	satBest    float64             // the best schedule of the SAT prover, +Inf before one
	satMoves   []treenet.Placement // that schedule
	satBound   float64             // no feasible schedule is faster (the SAT prover's), 0 before one
	sat        *satRun             // the SAT prover's run (sat.go)
	first      *starter            // the first schedules (see firstSchedules)
	rootBound  float64
	aim        float64   // deepen's target: the search closes what cannot beat it (see cut); +Inf outside deepen
	above      float64   // the least bound of the states the target closed (see closes)
	proven     float64   // no schedule of the space is faster: the targets deepen finished
	probed     float64   // no schedule of the space is faster: what a stopped probe left open (see probe)
	frames     []frame   // the current path
	frozen     float64   // when the budget ran out: the least bound of the open states
	probeCap   int64     // the node budget of the probe (see probe), 0 outside it
	probeUntil time.Time // the probe's deadline, zero outside it or when it has none
	nodes      int64
	stopped    bool
	ctx        context.Context

	begin, deadline, nextReport time.Time

	lab        *labeller
	classes    []int32         // static orbit of every node, the tie-order key
	symmetric  bool            // two participants share a static orbit: else RCut and SCut keep every move
	bnd        *bound.Bounder  // nil until set up (prepare), or when the deadline came first
	tt         *transpositions // nil without Transpose
	transposed int64
	bst        bound.State
	lst        labelState
	eps        float64
	seen       []int                 // per orbit: the stamp of the last representatives call that met it
	starts     [][]treenet.Placement // the schedules the dives with own ended at (see dive)
	stamp      int
}

func newSearch(nw *treenet.Network, opt Options) *search {
	s := &search{
		nw: nw, opt: opt, c: treenet.NewCalendar(nw),
		ready: make([]float64, nw.N), delivered: make([]int, nw.N),
		best: math.Inf(1), backfilled: math.Inf(1), satBest: math.Inf(1), aim: math.Inf(1), above: math.Inf(1),
		lab: newLabeller(nw), ctx: context.Background(),
	}
	if opt.Transpose {
		s.tt = newTranspositions(nw)
	}
	for v := range s.ready {
		s.ready[v], s.delivered[v] = math.Inf(1), -1
	}
	for _, r := range nw.Roots {
		s.ready[r] = 0
	}
	s.missing = len(nw.Parts) - len(nw.Roots)
	s.classes = s.lab.staticClasses(nw.N)
	s.symmetric = hasSymmetry(nw, s.classes)
	s.bst = bound.State{Ready: make([]float64, nw.N), Windows: make([][]bound.Window, nw.Channels), Cutoff: math.Inf(1),
		Fit: func(u, v int, t float64) float64 { return s.c.Earliest(u, v, t, nw.Size) }}
	s.sat, s.first = &satRun{s: s}, &starter{s: s}
	s.lst = labelState{class: make([]int32, nw.N), live: make([]bool, nw.Channels)}
	return s
}

// run searches and builds the result; the budget counts from begin.
func (s *search) run(ctx context.Context, begin time.Time) (*Result, error) {
	s.ctx, s.begin, s.nextReport = ctx, begin, begin.Add(progressEvery)
	dctx := ctx // the set-up's context, done at the deadline
	if s.opt.MaxTime > 0 {
		s.deadline = begin.Add(s.opt.MaxTime)
		var cancel context.CancelFunc
		dctx, cancel = context.WithDeadline(ctx, s.deadline)
		defer cancel()
	}
	if s.opt.ECEF {
		if err := s.first.ecef(dctx); err != nil {
			return nil, err
		}
	}
	if err := s.prepare(dctx); err != nil {
		return nil, err
	}
	if s.opt.Bound {
		s.nodes++ // the root's bound; without it, states count when entered
	}
	s.rootBound = s.bound()
	s.eps = 1e-12 * math.Max(1, s.rootBound)
	if s.stopped { // by prepare: nothing is open but the root
		s.frozen = s.rootBound
	}
	if s.opt.MaxTime > 0 && !s.stopped {
		s.sat.start(true) // alongside the search
	}
	defer s.sat.stop()
	if !s.first.firstSchedules() && !s.budget() && !s.sat.prove() {
		s.race()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	if math.IsInf(s.best, 1) {
		// The budget ran out before any schedule: fall back on the flat one.
		g := heuristic.New(s.nw)
		heuristic.Flat(g)
		s.best, s.bestMoves = treenet.Makespan(g.Calendar().Moves), g.Calendar().Moves
	}
	return s.result(begin), nil
}

// prepare sets up the bounder when the bound is on. If the deadline comes
// first (dctx done while the search's own context is not), the search
// stops at once, without the bounder.
func (s *search) prepare(dctx context.Context) error {
	if !s.opt.Bound {
		return nil
	}
	b, err := bound.New(dctx, s.nw)
	switch {
	case err == nil:
		s.bnd = b
	case s.ctx.Err() != nil:
		return fmt.Errorf("optimal: %w", s.ctx.Err())
	default:
		s.stopped = true
	}
	return nil
}

// result builds the result of a finished or stopped search.
func (s *search) result(begin time.Time) *Result {
	switch {
	case s.sat.p == nil || s.sat.why != "":
	case s.sat.waits != "":
		s.sat.why = s.sat.waits + " at the best schedule found"
	default:
		s.sat.why = "stopped with the search, before it proved the optimum"
	}
	res := &Result{RootBound: s.rootBound, Nodes: s.nodes, Transposed: s.transposed, SAT: s.sat.why}
	res.LowerBound = math.Max(s.best, s.rootBound)
	if s.stopped {
		res.LowerBound = s.lowest(s.frozen)
	}
	best, moves := s.reported()
	res.Proven = !s.stopped || best <= res.LowerBound+s.eps
	if res.Proven {
		res.LowerBound = best
	}
	res.Gap = gap(best, res.LowerBound)
	c := &treenet.Calendar{Net: s.nw, Moves: moves}
	res.Schedule = c.Schedule("optimal")
	proven := 0.0
	if res.Proven {
		proven = 1
	}
	res.Schedule.Metrics = map[string]float64{
		"nodes": float64(res.Nodes), "lower_bound": res.LowerBound, "root_bound": res.RootBound, "proven": proven,
	}
	if !res.Proven {
		res.Schedule.Warnings = append(res.Schedule.Warnings, fmt.Sprintf(
			"search budget ran out after %d nodes: the schedule is the best found, the optimum is at least %g", res.Nodes, floorDigits(res.LowerBound, 6)))
		if s.sat.why != "" {
			res.Schedule.Warnings = append(res.Schedule.Warnings, "SAT prover: "+s.sat.why)
		}
	}
	res.Elapsed = time.Since(begin)
	return res
}

// floorDigits rounds x > 0 down to n significant digits, so that a lower
// bound printed short stays a lower bound.
func floorDigits(x float64, n int) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(x)))
	return math.Floor(x*p) / p
}

// ecef runs fnf and ecef, each with backfill (the policies' schedules, see
// heuristic.Greedy) and in time order (the search's placement). The better schedule
// in time order becomes the best known, ecef's on a tie (neither is better
// on every tree: on random trees with relays each wins on about half).
// The better backfilled one is kept apart: it need not lie in the
// search's space, and the result gives it only where the search finds
// nothing faster (see reported). The search does not start from it: as
// the cut, or as the local search's first sequence, it led to worse
// schedules on random trees with relays (6.7 against 4.85–6.15 on one of
// 64 participants within 10–30 s; 4.3 against a proven 3.9 on one of 24
// within 10 s).
//
// The backfilled runs come first, as their schedules are the better ones
// on large trees, where the deadline may leave no time for the rest; fnf
// comes before ecef, as it is the cheaper (on a random tree of 2,048
// participants, 1.1 s with backfill and 0.12 s in time order, against
// ecef's 9.5 s and 2.8 s). When dctx's deadline comes first (and the
// search's own context is not done), the flat schedule takes the place of
// fnf's where no schedule of the space is known, and the rest is not
// tried.
func (st *starter) ecef(dctx context.Context) error {
	s := st.s
	for _, h := range []struct {
		plan     func(context.Context, *heuristic.Greedy) error
		ties     bool // it wins a tie
		backfill bool
	}{{heuristic.FNF, false, true}, {heuristic.FNF, false, false}, {heuristic.ECEF, true, true}, {heuristic.ECEF, true, false}} {
		g := heuristic.New(s.nw)
		g.Backfill = h.backfill
		if err := h.plan(dctx, g); err != nil {
			if s.ctx.Err() != nil {
				return fmt.Errorf("optimal: %w", err)
			}
			if math.IsInf(s.best, 1) {
				g = heuristic.New(s.nw)
				heuristic.Flat(g)
				s.best, s.bestMoves = treenet.Makespan(g.Calendar().Moves), g.Calendar().Moves
			}
			return nil
		}
		m := treenet.Makespan(g.Calendar().Moves)
		switch {
		case h.backfill && (m < s.backfilled || m == s.backfilled && h.ties):
			g.Calendar().InStartOrder()
			s.backfilled, s.backMoves = m, g.Calendar().Moves
		case !h.backfill && (m < s.best || m == s.best && h.ties):
			s.best, s.bestMoves = m, g.Calendar().Moves
		}
	}
	return nil
}

// reported is the best schedule the search would report now: the best of
// its own, the backfilled one (see ecef) and the SAT prover's.
func (s *search) reported() (float64, []treenet.Placement) {
	best, moves := s.best, s.bestMoves
	if s.backfilled < best-s.eps {
		best, moves = s.backfilled, s.backMoves
	}
	if s.satBest < best-s.eps {
		best, moves = s.satBest, s.satMoves
	}
	return best, moves
}

// incumbent is the makespan no completion needs to reach: the search's
// best or the SAT prover's (not the backfilled one, see ecef).
func (s *search) incumbent() float64 { return math.Min(s.best, s.satBest) }

package broadcast

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/heuristic"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// Options of the optimal policy (scenario keys in parentheses).
type Options struct {
	RCut      bool          // receiver-side pruning by canonical labels, §4.4 (rcut)
	SCut      bool          // sender-side pruning by canonical labels, §4.5 (scut)
	Bound     bool          // the lower bound of bound.go, §4.6 (bound)
	Ties      bool          // transfers that start together are tried in one order only (ties)
	ECEF      bool          // start from the better of the ecef and fnf schedules, and return their backfilled one where faster (ecef)
	Dive      bool          // first follow the child of least lower bound down to a schedule (dive)
	Transpose bool          // close a state met before, closed, with the same future (transpose), see transpositions
	Improve   bool          // improve the best known schedule by a local search before the search (improve), see improve
	Deepen    bool          // search with rising targets below the best makespan first (deepen), see deepen
	SAT       bool          // prove with the SAT solver CaDiCaL on the time-indexed model where it is installed (sat), see satProver
	MaxNodes  int64         // stop after this many search nodes, 0: no limit (max_nodes)
	MaxTime   time.Duration // stop after this long, start-up included, 0: no limit (max_seconds)
	Progress  io.Writer     // a progress line every 2 s of search, nil: none (policies.WithProgress for the policy)
}

// DefaultOptions turns every pruning on and sets no budget.
func DefaultOptions() Options {
	return Options{RCut: true, SCut: true, Bound: true, Ties: true, ECEF: true, Dive: true, Transpose: true, Improve: true, Deepen: true, SAT: true}
}

// The options of the optimal policy, each a field of Options.
var (
	optRCut        = paperPruning("rcut", "receiver-side pruning by canonical labels (paper 004 §4.4)", "paper 004 §4.4")
	optSCut        = paperPruning("scut", "sender-side pruning by canonical labels (paper 004 §4.5)", "paper 004 §4.5")
	optBound       = paperPruning("bound", "prune by the subtree lower bound (paper 004 §4.6)", "paper 004 §4.6")
	optTies        = pruning("ties", "try transfers that start together in one order only")
	optECEF        = pruning("ecef", "start from the better of the ecef and fnf schedules as the best known, and return the policies' own (backfilled) schedule where the search finds nothing faster")
	optDive        = pruning("dive", "first follow the child of least lower bound down to a schedule")
	optTranspose   = pruning("transpose", "close a state met before whose future is the same (a transposition table)")
	optImprove     = pruning("improve", "improve the best known schedule by a local search on its transfer sequence before the search")
	optDeepen      = pruning("deepen", "search for schedules faster than rising targets below the best makespan first (iterative deepening), each search that finishes raising the proven lower bound")
	optSAT         = pruning("sat", "where the SAT solver CaDiCaL is installed (the cadical command), decide with it whether any schedule ends by falling horizons, on the time-indexed model of the instance, after looking with it for faster schedules in neighbourhoods of the best; its proofs hold for every feasible schedule. It runs alongside the search with max_seconds, before it without a budget, and not with max_nodes alone")
	optNodes       = policies.Option{Name: "max_nodes", Type: policies.TypeInt, Default: 0, Min: 0, Doc: "stop after this many search nodes, the best found kept; 0: no limit", Source: "paper 004 §4: the search runs to the optimum"}
	optTime        = policies.Option{Name: "max_seconds", Type: policies.TypeFloat, Default: 0.0, Min: 0, Doc: "stop after this many seconds of search (outputs then depend on the machine); 0: no limit", Source: "paper 004 §4: the search runs to the optimum"}
	optimalOptions = []policies.Option{optRCut, optSCut, optBound, optTies, optECEF, optDive, optTranspose, optImprove, optDeepen, optSAT, optNodes, optTime}
)

// pruning declares a boolean option of the search that netsched adds to
// paper 004's, on by default: it changes the time to the optimum, never
// the optimum.
func pruning(name, doc string) policies.Option {
	return paperPruning(name, doc, "netsched's addition to paper 004's search, on because it leaves the optimum as it is and finds it sooner")
}

// paperPruning declares a boolean option of the search, on by default,
// whose default source gives.
func paperPruning(name, doc, source string) policies.Option {
	return policies.Option{Name: name, Type: policies.TypeBool, Default: true, Doc: doc, Source: source}
}

// parseOptions reads Options from a scenario's policy options.
func parseOptions(o policies.Options) Options {
	return Options{
		RCut: optRCut.Bool(o), SCut: optSCut.Bool(o), Bound: optBound.Bool(o),
		Ties: optTies.Bool(o), ECEF: optECEF.Bool(o), Dive: optDive.Bool(o), Transpose: optTranspose.Bool(o),
		Improve: optImprove.Bool(o), Deepen: optDeepen.Bool(o), SAT: optSAT.Bool(o),
		MaxNodes: int64(optNodes.Int(o)),
		MaxTime:  time.Duration(optTime.Float(o) * float64(time.Second)),
	}
}

// Result is what the search found.
type Result struct {
	Schedule   *sim.Schedule // the best schedule found; Metrics: nodes, lower_bound, root_bound, proven
	LowerBound float64       // no schedule of the search space is faster (= the makespan when Proven)
	RootBound  float64       // the lower bound of the initial state
	Proven     bool          // the search finished, or the best met the bound (or the SAT prover's): Schedule is optimal
	Gap        float64       // (makespan − LowerBound)/makespan, 0 when Proven
	Nodes      int64         // search states whose lower bound was computed (the dive's included)
	Transposed int64         // states closed by the transposition table
	Elapsed    time.Duration // start-up included
	SAT        string        // what the SAT prover did (see Options.SAT), "" when off
}

// Optimal runs the branch and bound of paper 004 §5 on a broadcast
// instance. Its search space is the paper's (§2.1, §5): sequences of
// whole-message transfers from a holder to a non-holder, each started at
// the earliest time, no earlier than the start of the one before, at
// which every link of its path has room. Every schedule it returns is the
// best of that space when Proven: none of the space is faster. (Without
// latencies the space holds an optimal schedule among all feasible ones;
// with latencies, holding a transfer back past its earliest start can in
// rare cases help, and such schedules are outside the space.) The
// schedule returned is the search's best or, where faster, the fnf or ecef
// policy's, which need not lie in the space (see search.ecef), or the SAT
// prover's.
//
// With SAT (and the cadical command installed) a SAT prover decides, for
// falling horizons, whether any feasible schedule ends by then, on the
// time-indexed model of the instance, after looking for faster schedules
// in neighbourhoods of the best (see satProver and improve); its schedules need
// not lie in the space either, and when it meets the best makespan with
// its lower bound, the best is optimal among all feasible schedules, not
// only the space's. Without a budget it runs after the first schedules
// and before the branch and bound goes on, so that the result is the same
// on every run; with a time budget it runs alongside the search from the
// start, on another core, and each takes the other's best makespan; a
// node budget alone leaves it out. On random trees of 32 participants
// with relays it proves optima the branch and bound alone does not reach
// within minutes; on the trees of paper 004, whose latencies of 10^-4 need
// a grid finer than 1/1000, it does not run, and the branch and bound
// proves them.
//
// Moves are tried far receivers first, then earliest start, then the
// nearest sender (§5). RCut keeps one receiver per orbit of the
// automorphisms of the state that fix the sender, SCut one sender per
// orbit (canonical labels, see labeller): both only drop moves that some
// automorphism maps onto a kept one, which is exact; paper 004's SCut
// instead keeps the earliest sender among isomorphic subtrees, a
// dominance this implementation does not rely on. The bound (see bounder)
// holds for every feasible schedule.
//
// After the first schedules (see firstSchedules) the plain branch and
// bound takes turns (see race) with searches for schedules faster than
// rising targets (see deepen), each of which proves a higher lower bound,
// until one of them finds the optimum or proves the best schedule
// optimal. The search is anytime: the budget (MaxNodes, MaxTime) stops it
// with the best schedule found and the least lower bound the searches
// leave open (see lowest). A node budget gives the same result on every
// run; a time budget does not, as the machine's speed decides where it
// stops.
//
// Everything counts against MaxTime: the first schedules (fnf's, then
// ecef's, each with backfill and in time order) and the set-up of the
// bound are cut short by the deadline too.
// When the deadline comes before fnf's schedule is complete, the best
// known schedule is the flat one (see heuristic.Flat), whose construction is
// linear in the participants; when it comes before the bound is set up,
// the lower bound reported is the arrival bound (see arrivalOnly). On a
// random tree of 1,024 participants, the network's tables take 0.05 s,
// fnf 0.03 s in time order and 0.3 s with backfill, ecef 0.4 s and 2.2 s,
// and the bound's set-up 2.6 s (see newBounder).
func Optimal(ctx context.Context, in policies.Instance, opt Options) (*Result, error) {
	begin := time.Now()
	nw, err := treenet.NewNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	s := newSearch(nw, opt)
	s.in = in
	return s.run(ctx, begin)
}

func planOptimal(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	opt := parseOptions(in.Options)
	opt.Progress = policies.ProgressTo(ctx)
	res, err := Optimal(ctx, in, opt)
	if err != nil {
		return nil, err
	}
	return res.Schedule, nil
}

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
	windows   [][]window // per channel, in placement order

	best       float64
	bestMoves  []treenet.Placement
	backfilled float64             // the better of fnf's and ecef's backfilled schedules (see ecef), +Inf before one
	backMoves  []treenet.Placement // that schedule
	satBest    float64             // the best schedule of the SAT prover, +Inf before one
	satMoves   []treenet.Placement // that schedule
	satBound   float64             // no feasible schedule is faster (the SAT prover's), 0 before one
	sat        *satProver          // nil when not running
	satWhy     string              // what the SAT prover did
	rootBound  float64
	aim        float64   // deepen's target: the search closes what cannot beat it (see cut); +Inf outside deepen
	above      float64   // the least bound of the states the target closed (see closes)
	proven     float64   // no schedule of the space is faster: the targets deepen finished
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
	bnd        *bounder        // nil until set up (prepare), or when the deadline came first
	tt         *transpositions // nil without Transpose
	transposed int64
	bst        boundState
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
		windows: make([][]window, nw.Channels), best: math.Inf(1), backfilled: math.Inf(1), satBest: math.Inf(1), aim: math.Inf(1), above: math.Inf(1),
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
	s.bst = boundState{ready: make([]float64, nw.N), windows: s.windows, cutoff: math.Inf(1),
		fit: func(u, v int, t float64) float64 { return s.c.Earliest(u, v, t, nw.Size) }}
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
		if err := s.ecef(dctx); err != nil {
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
		s.startSAT() // alongside the search
	}
	defer s.stopSAT()
	if !s.firstSchedules() && !s.budget() && !s.proveSAT() {
		s.race()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	if math.IsInf(s.best, 1) {
		// The budget ran out before any schedule: fall back on the flat one.
		g := heuristic.New(s.nw)
		heuristic.Flat(g)
		s.best, s.bestMoves = makespanOf(g.Calendar().Moves), g.Calendar().Moves
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
	b, err := newBounder(dctx, s.nw)
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
	if s.sat != nil && s.satWhy == "" {
		s.satWhy = "stopped with the search, before it proved the optimum"
	}
	res := &Result{RootBound: s.rootBound, Nodes: s.nodes, Transposed: s.transposed, SAT: s.satWhy}
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
		if s.satWhy != "" {
			res.Schedule.Warnings = append(res.Schedule.Warnings, "SAT prover: "+s.satWhy)
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
func (s *search) ecef(dctx context.Context) error {
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
				s.best, s.bestMoves = makespanOf(g.Calendar().Moves), g.Calendar().Moves
			}
			return nil
		}
		m := makespanOf(g.Calendar().Moves)
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

func makespanOf(moves []treenet.Placement) float64 {
	m := 0.0
	for _, p := range moves {
		m = math.Max(m, p.Arrive)
	}
	return m
}

// tieKey orders transfers that start at the same time by the static
// classes of their sender and receiver; automorphisms of every state keep
// the classes, so breaking ties by them is compatible with RCut and SCut.
type tieKey struct{ from, to int32 }

func (a tieKey) less(b tieKey) bool { return a.from < b.from || a.from == b.from && a.to < b.to }

// child is a candidate move.
type child struct {
	from, to      int
	start, arrive float64
	far, cost     float64
	seq           int // its place in the list before sorting
}

// cut is the least lower bound that closes a state: no completion of it
// is faster than the best schedule or, in deepen, than its target.
func (s *search) cut() float64 {
	return math.Min(s.incumbent(), s.aim) - s.eps
}

// closes reports whether a state whose lower bound is lb is closed (lb
// reaches the cut), recording in above the least bound the target
// rather than the best schedule closes.
func (s *search) closes(lb float64) bool {
	if lb < s.cut() {
		return false
	}
	if lb < s.incumbent()-s.eps {
		s.above = math.Min(s.above, lb)
	}
	return true
}

// solved reports whether the best schedule meets the lower bound proven
// so far (the root's, or deepen's): it is then optimal.
func (s *search) solved() bool {
	return s.incumbent() <= max(s.rootBound, s.proven, s.satBound)+s.eps
}

// lowest is the least makespan the space can still hold, given the least
// bound open of the states not closed: no schedule is faster than the
// targets deepen finished, than the root bound, or than all of the best,
// the states the target closed (above) and the open ones.
func (s *search) lowest(open float64) float64 {
	return max(s.rootBound, s.proven, s.satBound, min(s.incumbent(), s.above, open))
}

// bound fills the bound state and computes the lower bound.
func (s *search) bound() float64 {
	s.fill()
	switch {
	case !s.opt.Bound:
		return s.makespan
	case s.bnd == nil:
		return s.arrivalOnly()
	}
	s.bst.cutoff = s.cut()
	return s.bnd.lowerBound(&s.bst)
}

// fill fills the bound state of the current state, which children, the
// labels and the transposition key read too.
func (s *search) fill() {
	st := &s.bst
	st.holders, st.missing, st.makespan, st.tLast = len(s.nw.Parts)-s.missing, s.missing, s.makespan, s.tLast
	for v, t := range s.ready {
		st.ready[v] = t
		if !math.IsInf(t, 1) {
			st.ready[v] = math.Max(t, s.tLast)
		}
	}
}

// dfs explores the current state, whose lower bound is lb; prev is the
// tie key of the last move and follower whether it started together with
// the move before it. With the bound on, the bounds of all children are
// computed before any is entered (each counts as a node), so that the
// states not closed yet always have known bounds (openBound); without it,
// a state counts as a node when it is entered.
func (s *search) dfs(lb float64, prev tieKey, follower bool) {
	if s.missing == 0 {
		if s.makespan < s.best-s.eps {
			s.best, s.bestMoves = s.makespan, slices.Clone(s.c.Moves)
		}
		return
	}
	if s.closes(max(s.rootBound, s.proven)) {
		return
	}
	if !s.opt.Bound {
		s.nodes++
	}
	if s.closes(lb) {
		return
	}
	s.fill() // the last state bounded may be a sibling's
	var key string
	tc := tieContext{prev: prev, follower: follower && s.opt.Ties}
	if s.tt != nil && s.missing >= 2 {
		key = s.tt.key(s)
		if cut, ok := s.tt.closes(key, tc, s.cut()); ok {
			s.transposed++
			s.closes(cut + s.eps) // no completion beats the target or best it was stored under
			return
		}
	}
	s.frames = append(s.frames, frame{self: lb})
	defer func() { s.frames = s.frames[:len(s.frames)-1] }()
	kids := s.children(prev, follower)
	lbs, ok := s.childBounds(kids)
	if !ok {
		return
	}
	if s.opt.Bound {
		byBound(kids, lbs) // without the bound, the paper's order (§5) alone
	}
	top := len(s.frames) - 1
	s.frames[top].lbs, s.frames[top].expanded = lbs, true
	for i, k := range kids {
		if s.closes(math.Max(k.arrive, lbs[i])) {
			continue
		}
		if s.missing > 1 && s.budget() { // a complete schedule costs no bound
			return
		}
		s.frames[top].next = i + 1
		s.apply(k)
		s.dfs(lbs[i], tieKey{s.classes[k.from], s.classes[k.to]}, s.c.Moves[len(s.c.Moves)-1].Start == s.tLastBefore())
		s.undo()
		if s.stopped || s.closes(max(s.rootBound, s.proven)) {
			return
		}
	}
	if key != "" && !s.stopped {
		s.tt.store(key, tc, s.cut())
	}
}

// childBounds returns the lower bound of every child, false if the budget
// ran out first. A child's bound is at least its own makespan; with the
// bound on it is computed on the child's state, which counts as a node.
func (s *search) childBounds(kids []child) ([]float64, bool) {
	lbs := make([]float64, len(kids))
	for i, k := range kids {
		lbs[i] = math.Max(s.makespan, k.arrive)
		if !s.opt.Bound || s.missing == 1 || lbs[i] >= s.cut() {
			continue
		}
		if s.budget() {
			return nil, false
		}
		s.nodes++
		s.apply(k)
		lbs[i] = s.bound()
		s.undo()
	}
	return lbs, true
}

// race runs the plain branch and bound and deepen by turns, each for as
// many nodes as all the search before it, the slices doubling, until one
// finishes (or the budget runs out). Neither wins everywhere. Where the
// best schedule is optimal or nearly and the bound is within a few per
// cent, the targets of deepen close little that the best makespan does
// not, and its searches repeat one another's work (the 2×3×(1+1) network
// of paper 004's Table 4 without RCut: 8,756 bounds plain, 47,654 by
// deepen alone). Where the best schedule is far above the optimum, as on
// random trees with relays after the local search, deepen proves much
// higher lower bounds and the plain search rarely finishes. A turn does
// not start from nothing: the transposition table keeps what the plain
// search closed, which closes states for both, and deepen keeps the lower
// bound it proved. Measured, the turns cost up to 1.7 times the better of
// the two (Table 4's network: 14,743 bounds; the ten random trees of 12
// of TestDeepBoundStrength: 61,953, against 50,323 plain and 38,857 by
// deepen alone, one tree taking 42,759 against 25,199 plain).
func (s *search) race() {
	if !s.opt.Deepen || !s.opt.Bound {
		s.dfs(s.rootBound, tieKey{}, false)
		return
	}
	for slice := max(s.nodes, int64(probeNodes*len(s.nw.Parts))); ; slice *= 2 {
		if s.probe(slice, time.Time{}, false) || s.probe(slice, time.Time{}, true) {
			return
		}
	}
}

// deepen is the branch and bound run as searches for a schedule faster
// than a rising target aim (iterative deepening on the bound, as in IDA*).
// Where the bound is loose, a target below the best makespan closes far
// more states than the best makespan does, so each search is short; one
// that finishes without a faster schedule proves that none is faster
// than the least bound it closed (above), and the lower bound reported
// rises instead of staying at the root's (lowest). The targets split what
// is left between the proven bound and the best makespan into equal steps,
// deepenSteps in all, the last being the best makespan itself: the plain
// branch and bound. A search that finds a schedule faster than its target
// also carries on as the plain branch and bound, with that schedule as
// the best, and proves it optimal when it finishes. Without Deepen, or
// without the bound (there is then nothing for a target to close early),
// the search is plain.
func (s *search) deepen() {
	for left := deepenSteps; !s.solved(); left-- {
		lo := max(s.rootBound, s.proven, s.satBound)
		s.aim, s.above = lo+(s.incumbent()-lo)/float64(left), math.Inf(1)
		if left <= 1 || !s.opt.Deepen || !s.opt.Bound || s.aim >= s.incumbent()-s.eps {
			s.aim = math.Inf(1)
		}
		s.dfs(s.rootBound, tieKey{}, false)
		if s.stopped {
			return
		}
		s.proven = math.Min(s.incumbent(), s.above)
	}
	s.aim = math.Inf(1)
}

// deepenSteps is how many searches deepen runs at most, the plain one
// included. The least bound a search closed is often past its target (on
// instances whose times lie on a lattice, such as random trees with a few
// bandwidths and latencies, the next point of it), so that the next
// target starts from there.
const deepenSteps = 8

// diveOrders are the orders in which dive looks at the children of a
// level: earliest arrival, earliest start, and the search's own (§5, far
// receivers first). None is best on every tree: on random trees with
// relays each of them finds the best of the three schedules on some
// instances, by up to a quarter of the makespan.
func diveOrders() [3]func(a, b child) int {
	return [...]func(a, b child) int{
		func(a, b child) int { return cmpAsc(a.arrive, b.arrive) },
		func(a, b child) int { return cmpAsc(a.start, b.start) },
		func(a, b child) int { return 0 }, // children come in the search's order
	}
}

// firstSchedules looks for a good first schedule before the branch and
// bound: a dive in the first of diveOrders, then, unless a probe (the
// branch and bound cut at probeNodes per participant) proves a schedule
// optimal already, dives in the other orders and the local search
// (improve); with a time budget those dives go down to a schedule of
// their own, where local search chains start. The probe comes first
// because the extra work only pays where the search is long: on the
// Fig. 13 shape of 64 participants the first dive finds the optimum,
// which the search then proves in 3 more bounds, and the local search
// would spend 2.5 s trying to improve on it. This probe is the plain
// branch and bound, without deepen's targets: where the bound is nearly
// tight its states' bounds spread between the root bound and the best
// makespan, so that the targets close little and each search costs nearly
// as much as the plain one (the SMP tree of 32 participants: 1,411 bounds
// plain, 19,337 with the targets). With a time budget a dive gives up
// where the bound is loose (see diveShare); when the first does, the local
// search comes next, without the probe and the other dives, which would
// take as long. It reports whether the search is over: the probe finished
// it, or the budget ran out during it.
func (s *search) firstSchedules() (done bool) {
	dive, orders := s.opt.Dive && s.opt.Bound, diveOrders()
	if dive && s.dive(orders[0], false) {
		return s.opt.Improve && s.improve() // a loose bound: the local search next
	}
	if !dive && !s.opt.Improve {
		return false // the paper's search alone: nothing for a probe to save
	}
	if s.budget() || s.solved() {
		return false
	}
	if s.probe(int64(probeNodes*len(s.nw.Parts)), time.Time{}, false) {
		return true
	}
	for _, order := range orders[1:] {
		if !dive || s.budget() || s.solved() {
			break
		}
		s.dive(order, s.opt.MaxTime > 0)
	}
	return s.opt.Improve && s.improve()
}

// diveShare: a dive with a time budget gives up once it has run for
// 1/diveShare of the budget and bounded more children per level, on
// average, than there are participants. Where the bound is tight a level
// costs a few bounds (on the paper's Fig. 13 shape of 128 participants the
// first dive takes 7 a level and 0.8 s, and finds the optimum, proven soon
// after); where it is loose a dive bounds every child of every state on its
// way, a number that grows with the square of the participants (on a
// random tree of 128 with relays the first dive alone took 30 s, and the
// local search got no turn; now it gives up after 5 s of a 30 s budget,
// and the local search takes 7.4 down to 5.9 on a tree of 64).
const diveShare = 6

// probeNodes is the probe's node budget per participant (see
// firstSchedules).
const probeNodes = 50

// probe runs the branch and bound (deepen, or the plain search without
// targets) with a small budget, nodes more nodes (none when 0) and until
// then (none when zero), and reports whether it finished (the best
// schedule is then optimal, and the search is over) or the budget proper
// ran out. Otherwise the search starts afresh from the lower bound the
// probe proved; the states it closed stay in the transposition table.
func (s *search) probe(nodes int64, until time.Time, deep bool) bool {
	s.probeCap, s.probeUntil = 0, until
	if nodes > 0 {
		s.probeCap = s.nodes + nodes
	}
	if deep {
		s.deepen()
	} else {
		s.dfs(s.rootBound, tieKey{}, false)
	}
	s.probeCap, s.probeUntil = 0, time.Time{}
	if !s.stopped || s.spent() {
		return true
	}
	s.stopped, s.frozen = false, 0 // dfs has popped its frames
	s.aim, s.above = math.Inf(1), math.Inf(1)
	return false
}

// dive follows, from the root, the child whose state has the least lower
// bound (ties to the first in order, which then the search's own order
// breaks) down to a complete schedule, a good incumbent when the bound is
// tight. It bounds the children in order and takes the first whose bound
// is no more than its parent's (rarely is a child's less), so that where
// the bound is tight a level costs a few bounds, not one per child. Every
// child it bounds counts as a node. With own, it goes on down when no
// completion can beat the best schedule, and keeps the schedule it ends
// at in starts, where a local search chain starts (see improveFor). With a
// time budget it gives up where the bound is loose (see diveShare), and
// says so.
func (s *search) dive(order func(a, b child) int, own bool) (gaveUp bool) {
	prev, follower, depth := tieKey{}, false, 0
	start, nodes := time.Now(), s.nodes
	for s.missing > 0 && !s.budget() {
		if s.opt.MaxTime > 0 && time.Since(start) > s.opt.MaxTime/diveShare && s.nodes-nodes > int64(len(s.nw.Parts)*(depth+1)) {
			gaveUp = true // the bound is loose here (see diveShare)
			break
		}
		here := s.bound()
		if here >= s.cut() && !own {
			break // no completion of this state beats the best schedule
		}
		kids := s.children(prev, follower)
		slices.SortStableFunc(kids, order)
		k, best := -1, math.Inf(1)
		for i, c := range kids {
			if s.budget() {
				break
			}
			s.nodes++
			s.apply(c)
			lb := s.bound()
			s.undo()
			if lb < best-s.eps {
				k, best = i, lb
			}
			if lb <= here+s.eps {
				break // no child can do better, and this one comes first
			}
		}
		if k < 0 || s.stopped {
			break
		}
		s.apply(kids[k])
		depth++
		prev, follower = tieKey{s.classes[kids[k].from], s.classes[kids[k].to]}, kids[k].start == s.tLastBefore()
	}
	if s.missing == 0 && s.makespan < s.best-s.eps {
		s.best, s.bestMoves = s.makespan, slices.Clone(s.c.Moves)
	}
	if s.missing == 0 && own {
		s.starts = append(s.starts, slices.Clone(s.c.Moves))
	}
	for range depth {
		s.undo()
	}
	return gaveUp
}

// tLastBefore is the start of the move before the last one (−1 if none).
func (s *search) tLastBefore() float64 {
	if n := len(s.c.Moves); n >= 2 {
		return s.c.Moves[n-2].Start
	}
	return -1
}

// children lists the moves to try from the current state, after RCut,
// SCut and the tie order, best first: receivers far from every holder
// first, then the earliest start, then the nearest sender (§5). It reads
// the budget between senders (their receivers' orbits are the costly part
// on large trees); once it is spent the list is partial, and no caller
// uses it as complete.
func (s *search) children(prev tieKey, follower bool) []child {
	nw := s.nw
	far := make([]float64, nw.N)
	for _, r := range nw.Parts {
		if s.holds(r) {
			continue
		}
		far[r] = math.Inf(1)
		for _, h := range nw.Parts {
			if s.holds(h) {
				far[r] = math.Min(far[r], s.bst.ready[h]+nw.Cost[h][r])
			}
		}
	}
	senders := s.senders()
	var kids []child
	for _, u := range senders {
		if s.budget() {
			break // a partial list: the budget is spent, and callers stop
		}
		for _, v := range s.receivers(u) {
			start := s.c.Earliest(u, v, math.Max(s.tLast, s.ready[u]), nw.Size)
			if s.opt.Ties && follower && start == s.tLast && (tieKey{s.classes[u], s.classes[v]}).less(prev) {
				continue
			}
			kids = append(kids, child{from: u, to: v, start: start, arrive: start + nw.Cost[u][v], far: far[v], cost: nw.Cost[u][v], seq: len(kids)})
		}
	}
	slices.SortFunc(kids, func(a, b child) int {
		switch {
		case a.far != b.far:
			return cmpDesc(a.far, b.far)
		case a.start != b.start:
			return -cmpDesc(a.start, b.start)
		case a.cost != b.cost:
			return -cmpDesc(a.cost, b.cost)
		}
		return a.seq - b.seq // stable: ties keep the order of senders and receivers
	})
	return kids
}

func (s *search) holds(v int) bool { return !math.IsInf(s.ready[v], 1) }

// hasSymmetry reports whether two participants share a static orbit.
// Without, no automorphism of any state moves a participant (the orbits
// of a state refine the static ones), so RCut and SCut keep every move and
// the search skips the labelling, which costs it about 40 % of its time
// on random trees with relays (most have no symmetric participants).
func hasSymmetry(nw *treenet.Network, classes []int32) bool {
	seen := map[int32]bool{}
	for _, v := range nw.Parts {
		if seen[classes[v]] {
			return true
		}
		seen[classes[v]] = true
	}
	return false
}

// labelState fills the labeller's view of the state: holders by ready
// class, channels with a reservation that ends after the last start.
func (s *search) labels() {
	classes := map[float64]int32{}
	for v := range s.lst.class {
		s.lst.class[v] = 0
		if s.holds(v) {
			t := s.bst.ready[v]
			c, ok := classes[t]
			if !ok {
				c = int32(len(classes) + 1)
				classes[t] = c
			}
			s.lst.class[v] = c
		}
	}
	for ch, ws := range s.windows {
		s.lst.live[ch] = len(ws) > 0 && math.Max(ws[len(ws)-1].prevMax, ws[len(ws)-1].end) > s.tLast
	}
	s.lab.compute(s.lst)
}

// senders are the holders, one per orbit with SCut.
func (s *search) senders() []int {
	var out []int
	if (s.opt.SCut || s.opt.RCut) && s.symmetric {
		s.labels()
	}
	if !s.opt.SCut || !s.symmetric {
		for _, v := range s.nw.Parts {
			if s.holds(v) {
				out = append(out, v)
			}
		}
		return out
	}
	orbits := s.lab.computeOrbits()
	return s.representatives(orbits, true)
}

// receivers are the non-holders, one per orbit of the stabiliser of the
// sender with RCut.
func (s *search) receivers(u int) []int {
	if !s.opt.RCut || !s.symmetric {
		var out []int
		for _, v := range s.nw.Parts {
			if !s.holds(v) {
				out = append(out, v)
			}
		}
		return out
	}
	return s.representatives(s.lab.orbitsFixing(u), false)
}

// representatives returns the first participant of every orbit among the
// holders (or the non-holders).
func (s *search) representatives(orbits []int32, holders bool) []int {
	var out []int
	s.stamp++
	for _, v := range s.nw.Parts {
		o := orbits[v]
		if int(o) >= len(s.seen) {
			s.seen = append(s.seen, make([]int, int(o)+1-len(s.seen))...)
		}
		if s.holds(v) != holders || s.seen[o] == s.stamp {
			continue
		}
		s.seen[o] = s.stamp
		out = append(out, v)
	}
	return out
}

// apply places a move.
func (s *search) apply(k child) {
	var after []int
	if d := s.delivered[k.from]; d >= 0 {
		after = []int{d}
	}
	rt := s.c.RouteOf(k.from, k.to)
	dur := s.nw.Size / rt.Bandwidth
	for i, ch := range rt.Channels {
		ws := s.windows[ch]
		prevMax := math.Inf(-1)
		if len(ws) > 0 {
			prevMax = math.Max(ws[len(ws)-1].prevMax, ws[len(ws)-1].end)
		}
		a := k.start + rt.Offsets[i]
		s.windows[ch] = append(ws, window{start: a, end: a + dur, bw: rt.Bandwidth, prevMax: prevMax})
	}
	s.delivered[k.to] = len(s.c.Moves)
	s.ready[k.to] = s.c.Place(k.from, k.to, k.start, s.nw.Size, after)
	s.tLast = k.start
	s.makespan = math.Max(s.makespan, s.ready[k.to])
	s.missing--
}

// undo removes the last move.
func (s *search) undo() {
	m := s.c.Moves[len(s.c.Moves)-1]
	for _, ch := range s.c.RouteOf(m.From, m.To).Channels {
		s.windows[ch] = s.windows[ch][:len(s.windows[ch])-1]
	}
	s.c.Undo()
	s.ready[m.To], s.delivered[m.To] = math.Inf(1), -1
	s.missing++
	s.tLast, s.makespan = 0, 0
	for _, p := range s.c.Moves {
		s.makespan = math.Max(s.makespan, p.Arrive)
	}
	if n := len(s.c.Moves); n > 0 {
		s.tLast = s.c.Moves[n-1].Start
	}
}

// arrivalOnly is the lower bound of a state without the bounder: the
// makespan so far, and for every non-holder r the least over holders h of
// max(t_last, ready_h) + cost_hr, as no transfer to r starts before t_last
// nor before its sender holds the message, and none arrives sooner than
// its cost after its start.
func (s *search) arrivalOnly() float64 {
	lb := s.makespan
	for _, r := range s.nw.Parts {
		if s.holds(r) {
			continue
		}
		t := math.Inf(1)
		for _, h := range s.nw.Parts {
			if s.holds(h) {
				t = math.Min(t, s.bst.ready[h]+s.nw.Cost[h][r])
			}
		}
		lb = math.Max(lb, t)
	}
	return lb
}

// byBound orders the children by their lower bounds, least first, keeping
// the search's order (§5) among equal bounds: the most promising child is
// searched first, so that good schedules are found early.
func byBound(kids []child, lbs []float64) {
	idx := make([]int, len(kids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { // stable: ties keep their order
		if c := cmpAsc(lbs[a], lbs[b]); c != 0 {
			return c
		}
		return a - b
	})
	k2, l2 := slices.Clone(kids), slices.Clone(lbs)
	for i, j := range idx {
		kids[i], lbs[i] = k2[j], l2[j]
	}
}

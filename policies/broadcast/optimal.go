package broadcast

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// Options of the optimal policy (scenario keys in parentheses).
type Options struct {
	RCut      bool          // receiver-side pruning by canonical labels, §4.4 (rcut)
	SCut      bool          // sender-side pruning by canonical labels, §4.5 (scut)
	Bound     bool          // the lower bound of package bound, §4.6 (bound)
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

package broadcast

import (
	"math"
	"slices"
	"time"
)

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
// targets deepen finished, than the root bound, than what an earlier
// probe left open (probed), or than all of the best, the states the
// target closed (above) and the open ones.
func (s *search) lowest(open float64) float64 {
	return max(s.rootBound, s.proven, s.satBound, s.probed, min(s.incumbent(), s.above, open))
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
	s.bst.Cutoff = s.cut()
	return s.bnd.Lower(&s.bst)
}

// fill fills the bound state of the current state, which children, the
// labels and the transposition key read too.
func (s *search) fill() {
	st := &s.bst
	st.Holders, st.Missing, st.Makespan, st.TLast = len(s.nw.Parts)-s.missing, s.missing, s.makespan, s.tLast
	for v, t := range s.ready {
		st.Ready[v] = t
		if !math.IsInf(t, 1) {
			st.Ready[v] = math.Max(t, s.tLast)
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
func (st *starter) firstSchedules() (done bool) {
	s := st.s
	dive, orders := s.opt.Dive && s.opt.Bound, diveOrders()
	if dive && st.dive(orders[0], false) {
		return s.opt.Improve && st.improve() // a loose bound: the local search next
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
		st.dive(order, s.opt.MaxTime > 0)
	}
	return s.opt.Improve && st.improve()
}

// probe runs the branch and bound (deepen, or the plain search without
// targets) with a small budget, nodes more nodes (none when 0) and until
// then (none when zero), and reports whether it finished (the best
// schedule is then optimal, and the search is over) or the budget proper
// ran out. Otherwise the search starts afresh from the lower bound the
// probe proved; the states it closed stay in the transposition table, and
// the least bound it left open (probed) is reported when the search stops
// unproven with less.
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
	// What the probe left open stays a bound on the space when the search
	// later stops where it holds no open state (in the local search or a
	// dive) or a weaker one; it only reports, it decides nothing.
	s.probed = s.lowest(s.frozen)
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
func (st *starter) dive(order func(a, b child) int, own bool) (gaveUp bool) {
	s := st.s
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

// deepenSteps is how many searches deepen runs at most, the plain one
// included. The least bound a search closed is often past its target (on
// instances whose times lie on a lattice, such as random trees with a few
// bandwidths and latencies, the next point of it), so that the next
// target starts from there.
const deepenSteps = 8

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

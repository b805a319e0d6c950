package checktest_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// mutation is one class of change to a valid schedule. A class that
// breaks always makes a schedule that does not solve its problem or
// breaks its platform's rules, by construction; the others keep it valid.
// make returns the mutant and the replay mode that shows it, or false
// when the source has no place for this change.
type mutation struct {
	name   string
	breaks bool
	make   func(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool)
}

// mutations are the classes of issue 13's mutation test.
func mutations() []mutation {
	return []mutation{
		{"drop an action", true, dropAction},
		{"shrink a task or a load chunk", true, shrink},
		{"move a computation before its data", true, computeEarly},
		{"send from a non-holder", true, sendEarly},
		{"drop a broadcast reception", true, dropReception},
		{"remove a wait on a problem edge", true, removeWait},
		{"overbook a port, processor or link", true, overbook},
		{"claim less than achieved", true, claimLess},
		{"shift an action inside its slack", false, shift},
		{"renumber actions", false, renumber},
	}
}

// works reports whether action j carries a share of work worth checking:
// more than a millionth of the largest action of its kind (policies leave
// rounding dust far below).
func works(s *sim.Schedule, j int) bool {
	largest := 0.0
	for _, a := range s.Actions {
		if a.Kind == s.Actions[j].Kind {
			largest = max(largest, a.Amount)
		}
	}
	return s.Actions[j].Amount > 1e-6*largest
}

// dropAction drops an action that does work: a computation, a transfer of
// load or results, a migration, or a broadcast transfer of a part its
// receiver gets from no other.
func dropAction(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	j := pick(r, len(src.s.Actions), func(j int) bool {
		return works(src.s, j) && (src.pr.Broadcast == nil || needed(src, j))
	})
	if j < 0 {
		return nil, 0, false
	}
	m := clone(src.s)
	drop(m, j)
	return m, sim.Timed, true
}

func shrink(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	if src.pr.Broadcast != nil {
		return nil, 0, false
	}
	j := pick(r, len(src.s.Actions), func(j int) bool {
		a := &src.s.Actions[j]
		return works(src.s, j) && (a.Kind == sim.Compute || src.pr.Divisible != nil && a.Label != check.ResultsLabel)
	})
	if j < 0 {
		return nil, 0, false
	}
	m := clone(src.s)
	a := &m.Actions[j]
	a.Amount /= 2
	if tp := src.pr.Balance; tp != nil { // below the jitter's range
		a.Amount = tp.Work * (1 - tp.Jitter) / 2
	}
	return m, sim.Timed, true
}

// computeEarly moves a computation that needs data from elsewhere to half
// the time that data arrives: a task before its predecessor's data, load
// on a processor that owns none before its first reception, a migrated
// task before its migration. It drops the After list of the first two, so
// that the replay cannot tell.
func computeEarly(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	s, res := src.s, src.res
	var ready func(j int) float64
	switch {
	case src.pr.DAG != nil:
		preds := src.preds
		ready = func(j int) float64 {
			t := 0.0
			for _, u := range preds[j] {
				t = max(t, res.Ends[u]+rhoBetween(src, u, j))
			}
			return t
		}
	case src.pr.Divisible != nil:
		ready = func(j int) float64 {
			if ownLoad(src.pl, s.Actions[j].Node) > 0 || !works(s, j) {
				return 0
			}
			return firstArrival(src, s.Actions[j].Node)
		}
	case src.pr.Balance != nil:
		ready = func(j int) float64 {
			if len(s.Actions[j].After) == 0 {
				return 0
			}
			return res.Ends[s.Actions[j].After[0]]
		}
	default:
		return nil, 0, false
	}
	j := pick(r, len(s.Actions), func(j int) bool {
		return s.Actions[j].Kind == sim.Compute && ready(j) > 0 && !math.IsInf(ready(j), 1)
	})
	if j < 0 {
		return nil, 0, false
	}
	m := clone(s)
	setStart(&m.Actions[j], ready(j)/2)
	if src.pr.Balance == nil { // the problem, not the After list, must show it
		m.Actions[j].After = nil
	}
	return m, sim.Timed, true
}

// rhoBetween is the delay between compute actions u and v: ρ on the delay
// platform when they run on different processors.
func rhoBetween(src *source, u, v int) float64 {
	if src.s.Actions[u].Node != src.s.Actions[v].Node {
		return rho(src.pl)
	}
	return 0
}

// holdsNothing reports whether the sender of transfer j holds nothing to
// send at time 0: a broadcast participant that is not a root; in a
// divisible load, a processor that owns no load, or any sender of results;
// in a task graph, the sender of an edge's data whose tail has not ended
// at 0.
func holdsNothing(src *source, j int) bool {
	a := &src.s.Actions[j]
	switch {
	case a.Kind != sim.Transfer || !works(src.s, j):
		return false
	case src.pr.Broadcast != nil:
		return !isRoot(src, a.From)
	case src.pr.Divisible != nil:
		return a.Label == check.ResultsLabel || ownLoad(src.pl, a.From) == 0
	case src.pr.DAG != nil:
		tail, _, _ := strings.Cut(a.Label, models.EdgeSep)
		k := slices.IndexFunc(src.s.Actions, func(b sim.Action) bool { return b.Kind == sim.Compute && b.Label == tail })
		return k >= 0 && src.res.Ends[k] > 0
	}
	return false
}

func sendEarly(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	j := pick(r, len(src.s.Actions), func(j int) bool { return holdsNothing(src, j) && src.res.Starts[j] > 0 })
	if j < 0 {
		return nil, 0, false
	}
	m := clone(src.s)
	setStart(&m.Actions[j], 0)
	m.Actions[j].After = nil // the problem, not the After list, must show it
	return m, sim.Timed, true
}

func dropReception(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	if src.pr.Broadcast == nil {
		return nil, 0, false
	}
	return dropAction(r, src)
}

// removeWait takes the wait for its data off an action that needs it and
// lists it first, so that ordered replay starts it at 0: a task with a
// predecessor whose data cannot be there at 0; a computation on a
// processor that owns no load; a transfer from a participant that is no
// root; a migrated task (which then has no migration).
func removeWait(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	s := src.s
	var needs func(j int) bool
	switch {
	case src.pr.DAG != nil:
		preds := src.preds
		weight := func(j int) float64 { return s.Actions[j].Amount }
		needs = func(v int) bool {
			for _, u := range preds[v] {
				if s.Actions[u].Node != s.Actions[v].Node && (rho(src.pl) > 0 || weight(u) > 0) ||
					s.Actions[u].Node == s.Actions[v].Node && weight(u)+weight(v) > 0 {
					return true
				}
			}
			return false
		}
	case src.pr.Divisible != nil:
		needs = func(j int) bool {
			a := &s.Actions[j]
			return a.Kind == sim.Compute && works(s, j) && ownLoad(src.pl, a.Node) == 0
		}
	case src.pr.Broadcast != nil:
		needs = func(j int) bool { return holdsNothing(src, j) }
	case src.pr.Balance != nil:
		needs = func(j int) bool { return s.Actions[j].Kind == sim.Compute && len(s.Actions[j].After) > 0 }
	}
	j := pick(r, len(s.Actions), needs)
	if j < 0 {
		return nil, 0, false
	}
	m := clone(s)
	m.Actions[j].After = nil
	toFront(m, j)
	return m, sim.Ordered, true
}

// overbook starts an action when another that holds one of its resources
// starts: two computations on one processor; two transfers on one port (a
// half-duplex port, or the send or receive side of a full-duplex one);
// two transfers whose reservations on a tree link both take its whole
// capacity.
func overbook(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	s := src.s
	type pair struct {
		j, k int
		at   float64 // j's new start
	}
	var pairs []pair
	for j := range s.Actions {
		for k := range s.Actions {
			if j == k || !works(s, j) || !works(s, k) || !replayed(src, k) {
				continue
			}
			if at, ok := clash(src, j, k); ok {
				pairs = append(pairs, pair{j, k, at})
			}
		}
	}
	if len(pairs) == 0 {
		return nil, 0, false
	}
	p := pairs[r.IntN(len(pairs))]
	m := clone(s)
	setStart(&m.Actions[p.j], p.at)
	return m, sim.Timed, true
}

// clash returns the start at which action j holds a resource of action k
// at the same time as k, if they share one.
func clash(src *source, j, k int) (float64, bool) {
	a, b, start := &src.s.Actions[j], &src.s.Actions[k], src.res.Starts[k]
	switch {
	case a.Kind != b.Kind:
		return 0, false
	case a.Kind == sim.Compute:
		return start, a.Node == b.Node && src.pl.Workstations == nil
	case src.pl.Crossbar != nil && src.pl.Crossbar.Duplex == models.HalfDuplex:
		return start, shareNode(a, b)
	case src.pl.Crossbar != nil || src.pl.MultiCluster != nil:
		return start, a.From == b.From || a.To == b.To
	case src.pl.Tree != nil:
		return treeClash(src, a, b, start)
	}
	return 0, false
}

// treeClash finds a link both transfers reserve at its whole bandwidth,
// and the start of a that puts its reservation there at b's.
func treeClash(src *source, a, b *sim.Action, bStart float64) (float64, bool) {
	ra, rb := src.routes.Route(a.From, a.To), src.routes.Route(b.From, b.To)
	for x, l := range ra.Links {
		y := slices.Index(rb.Links, l)
		capacity := src.pl.Tree.Params(l).Bandwidth
		if y >= 0 && ra.Bandwidth == capacity && rb.Bandwidth == capacity {
			if at := bStart + rb.Offsets[y] - ra.Offsets[x]; at >= 0 {
				return at, true
			}
		}
	}
	return 0, false
}

func claimLess(_ *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	if src.res.Makespan <= 0 {
		return nil, 0, false
	}
	m := clone(src.s)
	m.Claimed = src.res.Makespan * 0.9
	return m, sim.Timed, true
}

func shift(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	j := pick(r, len(src.s.Actions), func(j int) bool { return replayed(src, j) && slack(src, j) > 1e-6 })
	if j < 0 {
		return nil, 0, false
	}
	m := clone(src.s)
	setStart(&m.Actions[j], src.res.Starts[j]+slack(src, j)*r.Float64())
	return m, sim.Timed, true
}

func renumber(r *rand.Rand, src *source) (*sim.Schedule, sim.Mode, bool) {
	if len(src.s.Actions) < 2 {
		return nil, 0, false
	}
	m := clone(src.s)
	permute(m, r.Perm(len(m.Actions)))
	return m, sim.Timed, true
}

// maxSourceActions bounds the schedules mutated: each class looks at
// every action, or every pair, of its source.
const maxSourceActions = 300

// sources plans every registered policy on the instances of the
// conformance suite and keeps the schedules of at most maxSourceActions
// actions verified in timed replay.
func sources(t *testing.T, n int) []*source {
	t.Helper()
	var out []*source
	suite := &checktest.Suite{Random: n}
	for _, e := range policies.All() {
		for _, c := range suite.Cases(t, e) {
			s, err := e.Planner.Plan(noContext, policies.Instance{Platform: c.Platform, Problem: c.Problem, Options: c.Options, Seed: 1})
			if err != nil {
				continue // declined; the conformance suite says which
			}
			if len(s.Actions) > maxSourceActions {
				continue
			}
			res, err := check.Replay(noContext, c.Platform, c.Problem, s, sim.Timed)
			if err == nil && res.OK() {
				src := &source{name: e.Name + "/" + c.Name, pl: c.Platform, pr: c.Problem, s: s, res: res}
				if c.Problem.DAG != nil {
					src.preds = dagPreds(src)
				}
				if c.Platform.Tree != nil {
					src.routes = replay.NewRoutes(c.Platform.Tree)
				}
				out = append(out, src)
			}
		}
	}
	return out
}

// tally counts one class's mutants and those rejected, by family, and the
// mutants rejected that the replay alone would have verified.
type tally struct {
	mutants, rejected map[string]int
	byProblem         int
}

// TestMutation makes mutants of valid schedules of every family, class by
// class, at least 50 per class where a family has room for it, and
// requires every mutant of a breaking class to be rejected (by the replay,
// or as not verified: a violation of the platform or the problem, or a
// makespan off its claim) and every mutant of a valid class to be
// verified. Its counts are in results/benchmarks.md.
func TestMutation(t *testing.T) {
	n, per := slowtest.Pick(12, 30), slowtest.Pick(20, 60) // the counts of results/benchmarks.md: NETSCHED_SLOW=1
	if testing.Short() {
		n, per = 8, 15
	}
	srcs := sources(t, n)
	r := rand.New(rand.NewPCG(13, 13))
	var rows []string
	for _, mu := range mutations() {
		tl := tally{mutants: map[string]int{}, rejected: map[string]int{}}
		for range 20 * per {
			src := srcs[r.IntN(len(srcs))]
			fam := src.pr.Family()
			if tl.mutants[fam] >= per {
				continue
			}
			m, mode, ok := mu.make(r, src)
			if !ok {
				continue
			}
			tl.mutants[fam]++
			if rejected(m, src, mode) {
				tl.rejected[fam]++
				if platformOnly(m, src, mode) {
					tl.byProblem++
				}
			}
			if rejected(m, src, mode) != mu.breaks {
				t.Errorf("%s: %s mutant of %s is %s", mu.name, mode, src.name, map[bool]string{true: "rejected", false: "verified"}[!mu.breaks])
			}
		}
		rows = append(rows, tl.row(mu))
		if total(tl.mutants) < min(50, per) {
			t.Errorf("%s: only %d mutants", mu.name, total(tl.mutants))
		}
	}
	t.Logf("mutation test, %d sources:\n| class | must be | divisible | dag | broadcast | balance | rejected | only by the problem checks |\n|---|---|---|---|---|---|---|---|\n%s",
		len(srcs), strings.Join(rows, "\n"))
}

// platformOnly reports whether the replay alone, without the problem
// checks, verifies mutant m.
func platformOnly(m *sim.Schedule, src *source, mode sim.Mode) bool {
	res, err := replay.Replay(noContext, src.pl, m, mode)
	return err == nil && res.OK()
}

// rejected reports whether replay and problem checks refuse mutant m.
func rejected(m *sim.Schedule, src *source, mode sim.Mode) bool {
	res, err := check.Replay(noContext, src.pl, src.pr, m, mode)
	return err != nil || !res.OK()
}

// row is the class's line of the results table.
func (tl tally) row(mu mutation) string {
	want := "accepted"
	if mu.breaks {
		want = "rejected"
	}
	cells := []string{mu.name, want}
	for _, fam := range []string{models.FamilyDivisible, models.FamilyDAG, models.FamilyBroadcast, models.FamilyBalance} {
		cells = append(cells, fmt.Sprint(tl.mutants[fam]))
	}
	cells = append(cells, fmt.Sprintf("%d of %d", total(tl.rejected), total(tl.mutants)), fmt.Sprint(tl.byProblem))
	return "| " + strings.Join(cells, " | ") + " |"
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

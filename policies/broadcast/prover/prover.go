package prover

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// satMaxBinaries caps the start variables of the time-indexed model the
// prover builds: beyond it the formula takes more memory and time than
// the prover can use (at the first schedules' makespan, random trees with
// relays of 32 participants have about 50,000, of 64 about 370,000, of 96
// about 890,000).
const satMaxBinaries = 600_000

// satMaxPairs caps the transfers between participants for which the
// prover builds a model at all: the model's set-up holds every route, and
// each transfer has at least one start variable (so a tree of more than
// about 770 participants would exceed satMaxBinaries anyway).
const satMaxPairs = 20_000

// satTol is the relative tolerance of "a makespan on the grid".
const satTol = 1e-9

// The SAT prover (Options.SAT) decides, for a horizon H on the grid of
// the time-indexed model (package timeindexed: every latency and every
// D/b a multiple of the step δ = 1/k), whether a feasible schedule ends by
// H, by CaDiCaL on the model's formula (timeindexed.CNF). Between the
// least makespan not yet excluded, lo, and the best known, hi, a
// satisfiable horizon gives a schedule, and hi falls to its makespan; an
// unsatisfiable one proves that every feasible schedule ends after H, so
// lo rises to H + δ. When they meet, hi is the optimum. From each new
// best, a neighbourhood search (improve) looks for faster schedules near
// it, each answer within about a second; when it finds none, the whole
// model is asked at hi − δ: a schedule lowers hi and the neighbourhoods
// go on from it; none proves hi optimal. The whole model's formula has
// the solver try the best schedule known first (timeindexed.CNF.Prefer):
// it then finds a faster one in seconds where it took tens of seconds on
// random trees of 32 participants (in the neighbourhoods, which keep most
// of the best anyway, that made the easy trees slower). The search
// shares its best schedule: hi falls to its makespan before each call,
// and a horizon it reaches while the solver runs is dropped (see watch).
// (The answers nearest the optimum take the longest, on either side: a
// plain bisection from the root bound spent as long on horizons below the
// optimum as on the proof, and before the neighbourhoods, horizons
// galloping down from hi, twice as far below after each schedule found,
// spent 18.5 s below the optimum of random-32/5 when they reached it.)
//
// Its proofs hold for every feasible schedule, not only for those of the
// search's space: the grid loses nothing. Take a feasible schedule and
// move every start s down to ⌊s/δ⌋δ. A transfer's reservation on a
// channel, [a, a + D/b) with a = s + o_i, becomes [⌊a/δ⌋δ, ⌊a/δ⌋δ + D/b)
// (o_i and D/b are multiples of δ); it covers the slot [θ, θ + δ) exactly
// when the original covers the instant just before θ + δ (⌊a/δ⌋δ ≤ θ iff
// a < θ + δ, and θ + δ ≤ ⌊a/δ⌋δ + D/b iff θ + δ ≤ a + D/b), so every
// channel stays within its capacity on every slot. A sender's start
// ⌊s/δ⌋δ is still no earlier than its arrival ⌊s_w/δ⌋δ + L + D/b, and no
// arrival is later. So a schedule of makespan m gives a grid schedule of
// makespan at most ⌊m/δ⌋δ: lo and hi are multiples of δ, and lo is a
// lower bound on every feasible makespan.
type Prover struct {
	in     policies.Instance
	nw     *treenet.Network
	solver string
	events chan Event
	lo, hi atomic.Uint64                       // the search's lower bound and best makespan (float64 bits), read before each horizon; hi also while the solver runs
	best   atomic.Pointer[[]treenet.Placement] // the search's best schedule, for the neighbourhoods (see improve)
	own    []treenet.Placement                 // the prover's own best schedule (the prover's side only)
	shared float64                             // the makespan of the schedule in best (the search's side only)
	rng    *rand.Rand                          // the neighbourhoods' draws (the prover's side only)
	calls  int                                 // neighbourhood calls made (the prover's side only)
	cancel context.CancelFunc

	// maxBinaries caps the model's start variables (satMaxBinaries).
	maxBinaries int
	// better, when not nil, tells the prover that the search shared a
	// faster schedule (see Share): a model too large at the first
	// schedule waits for one, which shrinks it, instead of not running.
	better chan struct{}
}

// Event is what the prover tells the search: a schedule faster than
// any before, or a lower bound for every feasible schedule, or that it
// stopped (and why).
type Event struct {
	Moves      []treenet.Placement // nil when none
	Makespan   float64             // the schedule's makespan
	Bound      float64             // 0 when none
	Superseded bool                // the search found a schedule by the horizon while the solver ran
	Local      bool                // the schedule comes from a neighbourhood of the best (see improve)
	Limited    bool                // the solver stopped at a limit, with no answer
	Horizon    float64             // the horizon decided; 0 in a last event that decided none
	Took       time.Duration       // how long the decision took
	Stopped    bool                // the last event: the prover stopped
	Waiting    bool                // the model is too large at the best schedule: the prover waits for a faster one
	Why        string              // why the prover stopped, once it has, or why it waits
}

// New is a prover of the instance on its tree network nw, deciding with
// the solver command (see timeindexed.CaDiCaL). With wait (a prover that
// runs alongside a search), a model too large at the best schedule shared
// waits for a faster one (see Share), which shrinks it, instead of not
// running.
func New(in policies.Instance, nw *treenet.Network, solver string, wait bool) *Prover {
	p := &Prover{in: in, nw: nw, solver: solver, events: make(chan Event, 16),
		rng: rand.New(rand.NewPCG(1, 2)), shared: math.Inf(1), maxBinaries: satMaxBinaries}
	if wait {
		p.better = make(chan struct{}, 1)
	}
	return p
}

// Start runs the prover in a goroutine of its own until it proves the
// optimum, cannot run, or ctx ends or Stop is called; its events come on
// Events, which it closes after the last, which says why it stopped.
// Share a schedule before Start: the prover starts from it.
func (p *Prover) Start(ctx context.Context) {
	ctx, p.cancel = context.WithCancel(ctx)
	go p.run(ctx)
}

// Stop stops the prover without waiting for it: its context kills the
// solver and its sends give up.
func (p *Prover) Stop() {
	if p.cancel != nil {
		p.cancel()
	}
}

// Events are the prover's events, closed after its last.
func (p *Prover) Events() <-chan Event { return p.events }

// Share tells the prover the best schedule known (moves, ending at best)
// and a lower bound lo that holds for every feasible schedule. A schedule
// faster than one shared before wakes a prover that waits (see New).
// Share is called from one goroutine, the search's.
func (p *Prover) Share(best float64, moves []treenet.Placement, lo float64) {
	if best < p.shared {
		faster := !math.IsInf(p.shared, 1)
		p.shared = best
		own := slices.Clone(moves)
		p.best.Store(&own)
		if faster && p.better != nil {
			select { // a signal already waiting says as much
			case p.better <- struct{}{}:
			default:
			}
		}
	}
	p.hi.Store(math.Float64bits(best))
	p.lo.Store(math.Float64bits(lo))
}

// run searches until lo meets hi, ctx ends or a model cannot be built,
// sends its last event, which says why it stopped, and closes the events.
func (p *Prover) run(ctx context.Context) {
	defer close(p.events)
	last, err := p.prove(ctx)
	if err != nil {
		last.Why = err.Error()
	}
	last.Stopped = true
	p.send(ctx, last)
}

// prove is run's loop; it returns the last event, with why it stopped.
func (p *Prover) prove(ctx context.Context) (Event, error) {
	if n := len(p.nw.Parts); n*(n-1) > satMaxPairs {
		return Event{Why: fmt.Sprintf("not run: %d participants make %d transfers, more than %d", n, n*(n-1), satMaxPairs)}, nil
	}
	first, last, err := p.model(ctx)
	if first == nil {
		return last, err
	}
	k := 1 / first.Step()
	lo, hi, improved := 0, first.Slots(), -1
	for calls := 0; ; calls++ {
		lo = max(lo, int(math.Ceil(math.Float64frombits(p.lo.Load())*k*(1-satTol))))
		hi = min(hi, p.slots(k))
		if hi != improved && lo < hi {
			if err := p.improve(ctx, lo, &hi, k); err != nil {
				return Event{}, err
			}
			improved = hi
		}
		if lo >= hi {
			return Event{Bound: float64(hi) / k, Why: p.proved(hi, k, calls)}, nil
		}
		h := hi - 1
		begin := time.Now()
		ev, err := p.decide(ctx, h, k, nil)
		if err != nil {
			return Event{}, err
		}
		ev.Horizon, ev.Took = float64(h)/k, time.Since(begin)
		switch {
		case ev.Superseded:
			continue // the search found a schedule by h meanwhile
		case ev.Moves == nil: // none by hi − δ: the last event, with the bound, so that the search takes both at once
			ev.Bound, ev.Why = float64(hi)/k, p.proved(hi, k, calls+1)
			return ev, nil
		}
		hi = floorSlots(ev.Makespan, k)
		p.own = ev.Moves
		if err := p.send(ctx, ev); err != nil {
			return Event{}, err
		}
	}
}

// model builds the time-indexed model at the search's best makespan.
// While the model has more than maxBinaries start variables, the prover
// waits for a faster schedule (better), which shrinks it, and builds it
// again, and sends an event saying that it runs once the model fits;
// without better, or once ctx ends, it gives up, and the event says why
// (the model is nil then).
func (p *Prover) model(ctx context.Context) (*timeindexed.Model, Event, error) {
	for waited := false; ; waited = true {
		hi := math.Float64frombits(p.hi.Load())
		m, err := timeindexed.New(p.in, hi)
		if err != nil {
			return nil, Event{}, fmt.Errorf("not run: %w", err)
		}
		n := m.Binaries()
		if n <= p.maxBinaries && waited {
			why := fmt.Sprintf("runs: the time-indexed model has %d start variables at %.6g", n, hi)
			if err := p.send(ctx, Event{Why: why}); err != nil {
				return nil, Event{}, err
			}
			return m, Event{}, nil
		}
		if n <= p.maxBinaries {
			return m, Event{}, nil
		}
		why := fmt.Sprintf("not run: the time-indexed model has %d start variables (step %g), more than %d", n, m.Step(), p.maxBinaries)
		if p.better == nil {
			return nil, Event{Why: why}, nil
		}
		if err := p.send(ctx, Event{Waiting: true, Why: why}); err != nil {
			return nil, Event{Why: why}, nil
		}
		select {
		case <-p.better:
		case <-ctx.Done():
			return nil, Event{Why: why}, nil
		}
	}
}

// proved is why the prover stops when hi slots is the optimum.
func (p *Prover) proved(hi int, k float64, calls int) string {
	return fmt.Sprintf("proved the optimum %.6g (calls to the solver: %d on the whole model, %d on neighbourhoods)", float64(hi)/k, calls, p.calls)
}

// decide asks whether a feasible schedule ends by h slots, in the
// neighbourhood nb or the whole model when nb is nil, the solver taking
// args: the event holds its schedule, or no moves when there is none, or
// limited when the solver stopped at a limit of args or the neighbourhood
// has more than lnsShare of the whole model's start variables.
func (p *Prover) decide(ctx context.Context, h int, k float64, nb restriction, args ...string) (Event, error) {
	m, err := timeindexed.New(p.in, (float64(h)+0.5)/k)
	if err == nil && nb != nil {
		whole := m.Binaries()
		if err = m.Restrict(nb); err == nil && float64(m.Binaries()) > lnsShare*float64(whole) {
			return Event{Limited: true}, nil // as hard as the whole model
		}
	}
	switch {
	case errors.Is(err, timeindexed.ErrHorizon):
		return Event{}, nil // some participant cannot be reached by then
	case err != nil:
		return Event{}, err
	}
	solve, cancel := context.WithCancel(ctx)
	defer cancel()
	tick := time.NewTicker(satWatch)
	defer tick.Stop()
	go p.watch(solve, cancel, h, k, tick.C)
	f, err := m.CNF()
	if err != nil {
		return Event{}, err
	}
	if inc := p.incumbent(); inc != nil && nb == nil {
		f.Prefer(inc.schedule(p.nw))
	}
	a, err := f.Solve(solve, p.solver, args...)
	switch {
	case err != nil && ctx.Err() == nil && p.slots(k) <= h:
		return Event{Superseded: true}, nil
	case err != nil:
		return Event{}, err
	case a.Unsatisfiable():
		return Event{}, nil
	case !a.Satisfiable() && len(args) > 0:
		return Event{Limited: true}, nil // stopped at its limit
	case !a.Satisfiable():
		return Event{}, fmt.Errorf("cadical answered %s at horizon %g", a.Status, m.Horizon())
	}
	sched, err := f.Schedule(a, "optimal")
	if err != nil {
		return Event{}, err
	}
	moves := movesOf(p.nw, sched)
	return Event{Moves: moves, Makespan: treenet.Makespan(moves)}, nil
}

// satWatch is how often the prover reads the search's best makespan while
// the solver runs.
const satWatch = 20 * time.Millisecond

// watch cancels a solve at horizon h once the search has a schedule that
// ends by h, reading the search's best at each tick: the answer could then
// tell nothing new. (On random trees of 32 participants the search's
// local search finds in seconds schedules that the prover's first
// answers, from ecef's, reach only after 20 s.)
func (p *Prover) watch(ctx context.Context, cancel context.CancelFunc, h int, k float64, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			if p.slots(k) <= h {
				cancel()
				return
			}
		}
	}
}

// slots is the search's best makespan in slots, rounded down.
func (p *Prover) slots(k float64) int { return floorSlots(math.Float64frombits(p.hi.Load()), k) }

// floorSlots is a makespan in slots of 1/k, rounded down: a grid schedule
// ends by then (see satProver).
func floorSlots(x, k float64) int { return int(math.Floor(x * k * (1 + satTol))) }

// send passes an event to the search unless ctx ends first.
func (p *Prover) send(ctx context.Context, ev Event) error {
	select {
	case p.events <- ev:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// movesOf turns a schedule of whole-message transfers into placements.
func movesOf(nw *treenet.Network, s *sim.Schedule) []treenet.Placement {
	moves := make([]treenet.Placement, len(s.Actions))
	for i, a := range s.Actions {
		moves[i] = treenet.Placement{From: a.From, To: a.To, Start: *a.Start, Arrive: *a.Start + nw.Cost[a.From][a.To],
			Amount: nw.Size, After: a.After}
	}
	return moves
}

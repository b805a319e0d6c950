package replay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/lower"
	"github.com/netsched/netsched/sim"
)

// Replay runs a schedule on a platform and verifies it.
//
// The platform is validated first (its *models.FieldError is returned as
// is), then the schedule: an unknown node, a bad kind, a negative or NaN
// amount, an After index out of range or naming the action itself, a cycle
// of After, an action the platform cannot run (a transfer on the delay
// platform, a computation on a tree, a tree transfer from or to a relay, a
// transfer from a node to itself), a negative or infinite Start or End,
// or, in Timed mode, an action without Start is an error: a
// *models.FieldError whose path is "actions[i].field". Everything else the
// schedule gets wrong is a Violation in the Result, in time order.
//
// Actions start and end through the event calendar; the platform
// semantics are those of ../shared/DESIGN.md, one file per
// kind.
//
// In Timed mode every action starts at its Start, and the replay carries
// on as if every breach were allowed: two transfers on one port both
// proceed (port-conflict, reported for the later one, naming the port:
// "P3 send port", "P3 port" on half duplex, "C0 uplink-out"); two
// computations on one processor both run at its full rate
// (processor-conflict, "P3 processor"); a tree transfer reserves its
// bandwidth even beyond a link's capacity (link-over-capacity, naming the
// link "a→b" and the first instant it is exceeded). Starting before an
// action of its After list ended is predecessor-late; on the delay
// platform, starting less than ρ after a predecessor on another processor
// ended is data-late.
//
// In Ordered mode each action starts as soon as the actions it follows
// have ended (plus ρ across processors on the delay platform) and its
// resources allow, and every port, uplink and processor serves the actions
// that use it in schedule order: an action starts only when every action
// listed before it on each of its ports has ended. A tree transfer starts
// at the earliest time, not before it is ready nor before an
// earlier-listed transfer sharing a reservation link started, at which its
// reservations fit on every link. A deadlock (an action that follows one
// listed after it on a shared resource) ends the replay with a no-progress
// violation for each action that never started, naming what it waits for.
//
// In Timed mode an action that ends after its planned End is missed-end
// (Ordered mode does not keep the planned starts, so it does not compare
// with planned ends); in both modes a computation that can never finish is
// no-progress. Times compare
// with a tolerance of Tolerance·max(1, |t|), so that schedules computed in
// floating point verify.
//
// Result.Starts and Ends hold each action's simulated start and end (a
// transfer ends when it has arrived); both are +Inf for an action that
// never started or never ended. Makespan is the latest end of an action
// that ended; Claimed is s.Claimed. The trace has a lane per node, named
// by the platform (on the delay platform, one per virtual processor used,
// "P<id>"), then, on a tree, one per link in use ("a→b"), or on a
// multi-cluster one per cluster uplink and direction ("C0 uplink-out").
func Replay(ctx context.Context, p *models.Platform, s *sim.Schedule, mode sim.Mode) (*sim.Result, error) {
	r := Replayer{Mode: mode}
	return r.Replay(ctx, p, s)
}

// A Replayer replays schedules one after another, as Replay does, and
// keeps the engine's working memory from one replay to the next: a sweep
// keeps one per goroutine. What a Result holds is never reused. The zero
// value replays in Timed mode. A Replayer is not safe for concurrent use.
type Replayer struct {
	Mode sim.Mode
	// Sharing, when set, replays the schedule's transfers as flows on the
	// platform lowered to links (package network/lower), sharing their
	// bandwidth under this model: see Shared.
	Sharing network.Sharing

	e      engine
	tamper func(network.Allocation) // tests: changes every allocation before it is checked
}

// Replay runs a schedule on a platform and verifies it (see Replay).
func (r *Replayer) Replay(ctx context.Context, p *models.Platform, s *sim.Schedule) (*sim.Result, error) {
	e, err := r.replay(ctx, p, s, true)
	if err != nil {
		return nil, err
	}
	return e.result(), nil
}

// Verify replays a schedule as Replay does but returns only what a sweep
// needs of the run: Mode, Makespan, Claimed and Violations, and Starts and
// Ends in the Replayer's memory, which the next replay overwrites; no
// Trace. The engine keeps all its memory for the next replay, so that
// verifying allocates nothing but the violations it finds.
func (r *Replayer) Verify(ctx context.Context, p *models.Platform, s *sim.Schedule) (sim.Result, error) {
	e, err := r.replay(ctx, p, s, false)
	if err != nil {
		return sim.Result{}, err
	}
	return sim.Result{Mode: e.asked, Makespan: e.makespan, Claimed: e.s.Claimed, Violations: e.violations,
		Starts: e.starts, Ends: e.ends}, nil
}

// replay checks and runs s on r's engine; with full it records what a
// Result holds (the trace, the starts and ends) in memory of its own.
func (r *Replayer) replay(ctx context.Context, p *models.Platform, s *sim.Schedule, full bool) (*engine, error) {
	if p == nil || s == nil {
		return nil, errors.New("replay: nil platform or schedule")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if r.Mode != sim.Timed && r.Mode != sim.Ordered {
		return nil, fmt.Errorf("replay: unknown mode %d", r.Mode)
	}
	m, err := platformOf(p)
	if err != nil {
		return nil, err
	}
	computes, err := checkSchedule(m, s, r.Mode)
	if err != nil {
		return nil, err
	}
	e := &r.e
	e.reset(s, r.Mode, computes, full)
	e.builder.e = e
	if r.Sharing != nil {
		if err := e.share(p, r.Sharing, r.tamper); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	m.Build(&e.builder)
	if e.flows != nil {
		e.flows.addLanes(&e.builder)
	}
	if err := e.run(ctx); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if e.flows != nil && e.flows.err != nil {
		return nil, fmt.Errorf("replay: under %s sharing: %w", r.Sharing.Name(), e.flows.err)
	}
	return e, nil
}

// What the pending event of an action does.
const (
	phaseReady uint8 = iota // ordered: its data has arrived (delay platform)
	phaseEnd                // it ends
)

// Where an action is in its life.
const (
	waiting uint8 = iota // for what it follows
	ready                // for its resources
	running
	done
)

// actState is the replay state of one action and what the platform bound
// it to. It is kept small, 32 bytes: a replay holds one per action.
type actState struct {
	ev      int32 // its pending event: 1 + the ticket lent for it (0: none)
	portLo  int32 // its ports: portSet.byAct[portLo : portLo+nres]
	lo, hi  int32 // a transfer's span in its transfer model (fixedTransfers: its links)
	phase   uint8 // what the pending event does
	state   uint8
	compute bool
	nres    uint8 // its ports
	heads   uint8 // ordered: the ports whose queue it heads (those are free)
	// On a platform with compute rates, the kinds a transfer activates on
	// the processors at its ends.
	sendBit, recvBit uint8
	busy             float64 // transfer: the sender's time, D/b or α + aβ
}

// waitState is what an action waits for in ordered replay, kept only when
// the schedule has After lists: the actions it follows that have not
// ended, and when its data is there (the latest of their ends, +ρ across
// processors on the delay platform).
type waitState struct {
	pending int32
	readyAt float64
}

// engine is the core of one replay: the calendar, the actions and their
// ports, the order they start in and the trace. How a started action runs
// is the platform's: its transfer model and its compute model, which the
// platform's Build installs (each kind's file holds its own state).
type engine struct {
	builder Builder // what the platform sees of e
	cal     sim.Calendar
	mode    sim.Mode // the mode the replay runs in (Ordered under sharing)
	asked   sim.Mode // the mode its result reports
	s       *sim.Schedule
	acts    []actState
	ports   portSet

	xfer   transferModel  // how transfers run: &fixed unless the platform installs its own
	placer placer         // xfer, if it places transfers in ordered replay, or nil
	flows  *flowTransfers // transfers as flows on a shared network (Replayer.Sharing), or nil
	comp   computeModel   // how computations run: fixedC, or &rates once the platform adds processors
	fixed  fixedTransfers // kept by a reused engine, as rates
	fixedC fixedComputes
	rates  rates

	rho       float64 // the data delay between computations on different nodes
	rhoApply  bool
	laneIDs   []int // the node of each lane, sorted, when lanesByID
	lanesByID bool  // lanes are laneIDs' (AddUsedNodeLanes), not one per node

	order       ordering    // ordered replay
	notBefore   bool        // ordered replay starts no action before its planned start (timed under sharing)
	timed       timedStarts // timed replay
	tickets     []ticket
	freeTickets []int32

	rec        recorder
	violations []sim.Violation
	starts     []float64
	ends       []float64
	spareTimes []float64 // starts and ends of a Verify, reused: no result holds them
	done       int       // actions that ended
	makespan   float64   // the latest end
	computes   int       // compute actions in the schedule
}

// reset prepares e for the replay of s, which has the given number of
// compute actions. Every field starts from its zero value except the
// working memory a Replayer reuses: the calendar, the action states and
// ports, the transfer and compute models' memory, the tickets and their
// callbacks, the timed start order, the delay platform's lane ids and,
// for a replay whose result is not kept (full false, Verify), the trace's
// lanes and the starts and ends. What a result holds (violations and,
// when full, the trace, starts and ends) is allocated anew.
func (e *engine) reset(s *sim.Schedule, mode sim.Mode, computes int, full bool) {
	old := *e
	n := len(s.Actions)
	spare := old.spareTimes
	var times []float64
	if full {
		times = make([]float64, 2*n)
	} else {
		times = resize(spare, 2*n)
		spare = times
	}
	*e = engine{
		mode: mode, asked: mode, s: s, computes: computes,
		acts:    resize(old.acts, n),
		ports:   old.ports,
		fixed:   old.fixed,
		rates:   old.rates,
		tickets: old.tickets[:0], freeTickets: old.freeTickets[:0],
		timed: old.timed, cal: old.cal,
		order:   ordering{cands: old.order.cands[:0]},
		laneIDs: old.laneIDs[:0],
		starts:  times[:n:n], ends: times[n:], spareTimes: spare,
		rec: recorder{tracing: full},
	}
	e.ports.reuse(n)
	e.fixed.reuse(e)
	e.rates.reuse(e)
	e.timed.reuse(e)
	e.fixedC.e = e
	e.xfer, e.comp = &e.fixed, e.fixedC
	if !full && !old.rec.tracing && old.rec.trace != nil { // a trace never handed out
		e.rec.trace = old.rec.trace
		e.rec.trace.Lanes = e.rec.trace.Lanes[:0]
	} else {
		e.rec.trace = &sim.Trace{}
	}
	e.cal.Reset()
}

// share makes e replay its transfers as flows on p lowered to links,
// under sharing. The replay then runs in ordered mode: an action starts
// when the actions it follows have ended (and, when timed replay was
// asked for, not before its planned start), its data being there; a
// computation still waits for its processor in schedule order, but a
// transfer holds no port, since its ports are links it shares.
func (e *engine) share(p *models.Platform, sharing network.Sharing, tamper func(network.Allocation)) error {
	n, err := lower.Lower(p)
	if err != nil {
		return err
	}
	if e.flows, err = newFlowTransfers(e, n, sharing); err != nil {
		return err
	}
	e.flows.tamper = tamper
	e.xfer = e.flows
	e.notBefore = e.mode == sim.Timed
	e.mode = sim.Ordered
	return nil
}

// resize returns a zeroed slice of length n, in b's memory if it fits.
func resize[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// lane is the trace lane of a node.
func (e *engine) lane(node int) int32 {
	if !e.lanesByID {
		return int32(node)
	}
	k, _ := slices.BinarySearch(e.laneIDs, node)
	return int32(k)
}

// run replays the schedule and checks what only the whole run shows.
func (e *engine) run(ctx context.Context) error {
	if e.rec.tracing {
		n := 0 // one interval per computation, and what each transfer leaves
		for j := range e.acts {
			if e.acts[j].compute {
				n++
			} else {
				n += e.xfer.intervals(int32(j))
			}
		}
		e.rec.ivs = make([]sim.Interval, 0, n)
	}
	if e.mode == sim.Timed {
		e.timed.prepare()
	} else {
		e.prepareOrdered()
	}
	if err := e.cal.Run(ctx); err != nil {
		return err
	}
	e.markUnfinished()
	e.checkTimes()
	e.checkProgress()
	sort.SliceStable(e.violations, func(a, b int) bool { return e.violations[a].Time < e.violations[b].Time })
	return nil
}

// markUnfinished sets the start of every action that never started, and
// the end of every action that never ended, to +Inf.
func (e *engine) markUnfinished() {
	if e.done == len(e.acts) {
		return
	}
	for j := range e.acts {
		switch e.acts[j].state {
		case waiting, ready:
			e.starts[j] = math.Inf(1)
			fallthrough
		case running:
			e.ends[j] = math.Inf(1)
		}
	}
}

func (e *engine) violate(kind sim.ViolationKind, j int32, resource string, t float64, detail string) {
	e.violations = append(e.violations, sim.Violation{Kind: kind, Action: int(j), Resource: resource, Time: t, Detail: detail})
}

func (e *engine) result() *sim.Result {
	r := &sim.Result{
		Mode: e.asked, Makespan: e.makespan, Claimed: e.s.Claimed, Violations: e.violations,
		Starts: e.starts, Ends: e.ends,
	}
	if e.rec.tracing {
		r.Trace = e.rec.trace
		r.Trace.Intervals = e.rec.ivs
	}
	return r
}

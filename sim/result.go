package sim

import (
	"fmt"
	"math"
)

// Mode selects how Replay treats planned start times.
type Mode int

const (
	// Timed starts every action at its planned Start and reports every
	// violation it causes, carrying on as if it were allowed.
	Timed Mode = iota
	// Ordered starts each action as soon as what it follows has ended and
	// its resources are free, keeping the schedule's order on each resource
	// (the order of the actions in the list).
	Ordered
)

func (m Mode) String() string {
	if m == Ordered {
		return "ordered"
	}
	return "timed"
}

// ViolationKind classifies a violation found by replay.
type ViolationKind string

// The violation kinds.
const (
	PortConflict      ViolationKind = "port-conflict"      // a port booked twice at once
	LinkOverCapacity  ViolationKind = "link-over-capacity" // reservations on a link exceed its bandwidth
	ProcessorConflict ViolationKind = "processor-conflict" // two computations at once on one processor
	PredecessorLate   ViolationKind = "predecessor-late"   // started before an action in After ended
	DataLate          ViolationKind = "data-late"          // started before the data of a predecessor arrived
	MissedEnd         ViolationKind = "missed-end"         // not done by its planned End
	NoProgress        ViolationKind = "no-progress"        // could never finish (a zero compute rate forever, a deadlock)
)

// Violation is one breach of the platform's rules by a schedule.
type Violation struct {
	Kind     ViolationKind `json:"kind"`
	Action   int           `json:"action"`   // index of the offending action, or -1 for none (a task never computed)
	Resource string        `json:"resource"` // port, link, processor or action it concerns
	Time     float64       `json:"time"`     // when it happened
	Detail   string        `json:"detail"`
}

func (v Violation) String() string {
	if v.Action < 0 { // of no single action, such as a task never computed
		return fmt.Sprintf("%s at t=%g: %s: %s", v.Kind, v.Time, v.Resource, v.Detail)
	}
	return fmt.Sprintf("%s at t=%g: action %d on %s: %s", v.Kind, v.Time, v.Action, v.Resource, v.Detail)
}

// Result is what Replay found.
type Result struct {
	Mode       Mode
	Makespan   float64     // simulated: when the last action ended
	Claimed    float64     // the schedule's claim
	Violations []Violation // every breach, in time order
	Trace      *Trace
	Starts     []float64 // simulated start of each action
	Ends       []float64 // simulated end of each action (arrival, for a transfer)
}

// Tolerance is the relative difference between simulated and claimed
// makespan that still counts as a match.
const Tolerance = 1e-9

// Gap is simulated minus claimed makespan.
func (r *Result) Gap() float64 { return r.Makespan - r.Claimed }

// Matches reports whether the simulated makespan keeps the claim within
// Tolerance (relative): in Timed mode it equals the claim; in Ordered
// mode, where every action starts as early as the order allows, it may
// also end earlier (the gap is then negative), but not later.
func (r *Result) Matches() bool {
	tol := Tolerance * math.Max(1, math.Abs(r.Claimed))
	if r.Mode == Ordered {
		return r.Gap() <= tol
	}
	return math.Abs(r.Gap()) <= tol
}

// OK reports a replay with no violation that matches its claim.
func (r *Result) OK() bool { return len(r.Violations) == 0 && r.Matches() }

package sim

import (
	"encoding/json"
	"io"
)

// ActionKind says what an action does.
type ActionKind string

// The action kinds.
const (
	Compute  ActionKind = "compute"  // Amount units of work on Node
	Transfer ActionKind = "transfer" // Amount units of data From → To
)

// Action is one step of a schedule.
//
// A compute action runs Amount units of work on processor Node; on the delay
// platform Amount is the task's time and Node names a virtual processor. A
// transfer moves Amount units of data from node From to node To over the
// platform's network; in a broadcast it carries the part [Offset,
// Offset+Amount) of the message.
//
// Start, when set, is the planned start: timed replay starts the action
// exactly then. End, when set, is the planned end: timed replay reports a
// violation if the action has not ended by then. After lists the indices of
// actions that must end before this one starts; on the delay platform a
// compute action that follows a compute action on another processor must
// also wait ρ for the data.
//
// In JSON a compute action always has its node, and a transfer its from
// and to, even node 0. A file may give a node by the name its platform
// gives it instead of by index (see ReadSchedule).
type Action struct {
	Kind   ActionKind `json:"kind"`
	Node   int        `json:"node,omitempty"`
	From   int        `json:"from,omitempty"`
	To     int        `json:"to,omitempty"`
	Amount float64    `json:"amount"`
	Offset float64    `json:"offset,omitempty"` // broadcast: the part [Offset, Offset+Amount) of the message carried
	Start  *float64   `json:"start,omitempty"`
	End    *float64   `json:"end,omitempty"`
	After  []int      `json:"after,omitempty"`
	Label  string     `json:"label,omitempty"` // task name or other tag, shown in Gantt charts
	Round  int        `json:"round,omitempty"` // round number for multi-round schedules, from 1
}

// actionTail holds the fields every kind of action writes, in the order
// they are written after the node fields.
type actionTail struct {
	Amount float64  `json:"amount"`
	Offset float64  `json:"offset,omitempty"`
	Start  *float64 `json:"start,omitempty"`
	End    *float64 `json:"end,omitempty"`
	After  []int    `json:"after,omitempty"`
	Label  string   `json:"label,omitempty"`
	Round  int      `json:"round,omitempty"`
}

// computeJSON is a compute action as written: always its node, never from
// and to.
type computeJSON struct {
	Kind ActionKind `json:"kind"`
	Node int        `json:"node"`
	actionTail
}

// transferJSON is a transfer as written: always from and to, never node.
type transferJSON struct {
	Kind ActionKind `json:"kind"`
	From int        `json:"from"`
	To   int        `json:"to"`
	actionTail
}

// MarshalJSON writes the node fields of a's kind, even node 0: node for a
// compute action, from and to for a transfer. An action of another kind
// (which no replay accepts) is written with every field that is set.
func (a Action) MarshalJSON() ([]byte, error) {
	tail := actionTail{Amount: a.Amount, Offset: a.Offset, Start: a.Start, End: a.End, After: a.After, Label: a.Label, Round: a.Round}
	switch a.Kind {
	case Compute:
		return json.Marshal(computeJSON{Kind: a.Kind, Node: a.Node, actionTail: tail})
	case Transfer:
		return json.Marshal(transferJSON{Kind: a.Kind, From: a.From, To: a.To, actionTail: tail})
	}
	type plain Action // without the method
	return json.Marshal(plain(a))
}

// Schedule is what a policy returns: actions, and the makespan the policy
// claims they achieve. Metrics holds the policy's own figures (for example
// the round time T or the paper's time(S)), reported beside the replay.
type Schedule struct {
	Policy   string             `json:"policy,omitempty"`
	Claimed  float64            `json:"claimed_makespan"`
	Actions  []Action           `json:"actions"`
	Metrics  map[string]float64 `json:"metrics,omitempty"`
	Warnings []string           `json:"warnings,omitempty"` // e.g. an optimality assumption that does not hold

	// Memory handed out by Floats and Ints, kept by Recycled.
	floats []float64
	ints   []int
}

// Recycled returns an empty schedule with room for n actions, in the memory
// of old when old is not nil: a sweep that keeps no schedules hands each
// policy the one its previous run returned, whose Actions array is most of
// what a run allocates. The Schedule, its Actions array and the memory of
// Floats and Ints are reused; Metrics and Warnings start empty, since the
// caller may still hold old's.
func Recycled(old *Schedule, n int) *Schedule {
	if old == nil {
		return &Schedule{Actions: make([]Action, 0, n)}
	}
	actions := old.Actions[:0]
	if cap(actions) < n {
		actions = make([]Action, 0, n)
	} else {
		clear(old.Actions) // let go of what the old actions point to
	}
	*old = Schedule{Actions: actions, floats: old.floats[:0], ints: old.ints[:0]}
	return old
}

// Floats returns n zeroed float64s that belong to s, for its actions'
// Start and End times and for the policy's scratch: Recycled hands them on
// with the schedule, so a sweep that recycles schedules does not allocate
// them again. Each call returns new memory; a copy of a Schedule shares
// its memory with the original.
func (s *Schedule) Floats(n int) []float64 { return carve(&s.floats, n) }

// Time is the function Time in s's memory (Floats): a pointer to t for an
// action's Start or End.
func (s *Schedule) Time(t float64) *float64 {
	f := s.Floats(1)
	f[0] = t
	return &f[0]
}

// Ints is Floats for ints, for After lists and the policy's scratch.
func (s *Schedule) Ints(n int) []int { return carve(&s.ints, n) }

// carve cuts n zeroed elements from the end of the unused part of *pool,
// making a larger pool when what is left is too small: the pieces already
// handed out keep the old one.
func carve[T any](pool *[]T, n int) []T {
	p := *pool
	if cap(p)-len(p) < n {
		p = make([]T, 0, max(n, 2*cap(p)))
	}
	piece := p[len(p) : len(p)+n : len(p)+n]
	clear(piece)
	*pool = p[:len(p)+n]
	return piece
}

// Time returns a pointer to t, for setting Action.Start and Action.End.
// (Calendar.At, by contrast, schedules an event at a time.)
func Time(t float64) *float64 { return &t }

// Add appends an action and returns its index, for use in later After lists.
func (s *Schedule) Add(a Action) int {
	s.Actions = append(s.Actions, a)
	return len(s.Actions) - 1
}

// WriteJSON encodes the schedule, indented, to w.
func (s *Schedule) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

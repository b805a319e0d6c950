package sim

// IntervalKind classifies a trace interval, for colouring and checks.
type IntervalKind string

// The interval kinds.
const (
	KindCompute IntervalKind = "compute"
	KindSend    IntervalKind = "send"
	KindRecv    IntervalKind = "recv"
	KindLink    IntervalKind = "link" // a reservation on a network link or uplink
)

// Interval is one thing that happened on one lane of the platform.
type Interval struct {
	Lane   int          `json:"lane"` // index into Trace.Lanes
	Kind   IntervalKind `json:"kind"`
	Start  float64      `json:"start"`
	End    float64      `json:"end"`
	Amount float64      `json:"amount"`          // work done, or data moved
	Label  string       `json:"label,omitempty"` // task name or tag
	Round  int          `json:"round,omitempty"`
	Action int          `json:"action"` // index of the schedule action, or -1
}

// Trace records every interval of a run. Lanes are named: one per processor
// (compute, send and receive intervals) and one per link or uplink.
type Trace struct {
	Lanes     []string   `json:"lanes"`
	Intervals []Interval `json:"intervals"`
}

// AddLane appends a lane and returns its index.
func (t *Trace) AddLane(name string) int {
	t.Lanes = append(t.Lanes, name)
	return len(t.Lanes) - 1
}

// Record appends an interval.
func (t *Trace) Record(iv Interval) { t.Intervals = append(t.Intervals, iv) }

// Makespan is the latest end of any interval (0 for an empty trace).
func (t *Trace) Makespan() float64 {
	m := 0.0
	for _, iv := range t.Intervals {
		m = max(m, iv.End)
	}
	return m
}

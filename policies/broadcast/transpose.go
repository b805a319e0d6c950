package broadcast

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/netsched/netsched/policies/broadcast/bound"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/replay"
)

// maxTableBytes caps the transposition table's keys; when they would
// exceed it, the table is emptied and fills again from the states closed
// since, so memory stays bounded on searches of any length.
const maxTableBytes = 256 << 20

// transpositions is the table of closed search states (Options.Transpose).
//
// Two states are the same for the rest of the search when they agree on
// what decides every later move: the holders, each holder's time
// max(t_last, ready) (no later transfer starts before it), t_last, the
// makespan so far, and, per channel c, the reservations that end after
// t_last + θ_c, θ_c being the least offset of c on any route between
// participants: every later transfer starts at t ≥ t_last and reserves c
// from t + offset ≥ t_last + θ_c on, so an earlier reservation never meets
// it. Every sequence of moves then gets the same starts and arrivals from
// both, and every completion the same makespan: the best completion of
// one is the best completion of the other. RCut and SCut are symmetries of
// a state's own future, so they keep it exact below either.
//
// A state is stored once its subtree is closed, with the cut then (see
// search.cut): every completion faster than the cut was found or closed,
// so none is left. When the same state comes again under a cut no higher,
// it is closed at once. (The cut falls as better schedules are found and
// rises only from one target of deepen to the next, where the entries of
// lower targets stop closing.) One path dependence remains: with
// Ties, a state whose last two moves started together tries the moves
// that start with them in one order only, those whose key is not below
// the last move's (prev). A stored state (prev_A, follower_A) therefore
// closes a new one (prev_B, follower_B) only when it tried every first
// move the new one would try: follower_A false, or both followers and
// prev_A ≤ prev_B. TestTranspositionsAgree checks the search with and
// without the table against the exhaustive search.
type transpositions struct {
	closed map[string]closedState
	bytes  int
	theta  []float64 // per channel: its least offset on any route
	buf    []byte
	ws     []bound.Window
}

// closedState is a stored state's tie context and the cut it was closed
// under.
type closedState struct {
	tc  tieContext
	cut float64
}

// tieContext is what the tie rule reads of a state's path.
type tieContext struct {
	prev     tieKey
	follower bool
}

// covers reports whether a state closed under tie context a explored
// every first move that one under b would.
func (a tieContext) covers(b tieContext) bool {
	return !a.follower || b.follower && !b.prev.less(a.prev)
}

func newTranspositions(nw *treenet.Network) *transpositions {
	tt := &transpositions{closed: map[string]closedState{}, theta: make([]float64, nw.Channels)}
	for c := range tt.theta {
		tt.theta[c] = math.Inf(1)
	}
	nw.EachRoute(func(_, _ int, rt *replay.Route) {
		for i, c := range rt.Channels {
			tt.theta[c] = math.Min(tt.theta[c], rt.Offsets[i])
		}
	})
	return tt
}

// key encodes the current state of s (its bound state filled by bound).
func (tt *transpositions) key(s *search) string {
	b := tt.buf[:0]
	f := func(x float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x)) }
	f(s.tLast)
	f(s.makespan)
	for _, v := range s.nw.Parts {
		f(s.bst.Ready[v])
	}
	for c, ws := range s.bst.Windows {
		tt.ws = tt.ws[:0]
		for _, w := range ws {
			if w.End > s.tLast+tt.theta[c] {
				tt.ws = append(tt.ws, bound.Window{Start: w.Start, End: w.End, BW: w.BW})
			}
		}
		if len(tt.ws) == 0 {
			continue
		}
		slices.SortFunc(tt.ws, func(x, y bound.Window) int {
			switch {
			case x.Start != y.Start:
				return cmpAsc(x.Start, y.Start)
			case x.End != y.End:
				return cmpAsc(x.End, y.End)
			}
			return cmpAsc(x.BW, y.BW)
		})
		b = binary.LittleEndian.AppendUint32(b, uint32(c))
		for _, w := range tt.ws {
			f(w.Start)
			f(w.End)
			f(w.BW)
		}
	}
	tt.buf = b
	return string(b)
}

// closes reports whether a stored state closes the state of key k reached
// under tie context tc and the cut: it returns the cut it was stored
// with, no completion of the state being faster, and whether it closes.
func (tt *transpositions) closes(k string, tc tieContext, cut float64) (float64, bool) {
	a, ok := tt.closed[k]
	return a.cut, ok && a.cut >= cut && a.tc.covers(tc)
}

// store records a state closed under tie context tc and the cut, keeping
// the entry there already if it closes at least as much.
func (tt *transpositions) store(k string, tc tieContext, cut float64) {
	if a, ok := tt.closed[k]; ok {
		if a.cut < cut || !a.tc.covers(tc) {
			tt.closed[k] = closedState{tc, cut}
		}
		return
	}
	if tt.bytes+len(k) > maxTableBytes {
		clear(tt.closed)
		tt.bytes = 0
	}
	tt.closed[k] = closedState{tc, cut}
	tt.bytes += len(k) + 64 // the map's own share, roughly
}

func cmpAsc(a, b float64) int { return -cmpDesc(a, b) }

// cmpDesc orders larger first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

package treenet

import (
	"context"
	"fmt"
	"math"

	"github.com/netsched/netsched/internal/heapq"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// Send is one message of a communication pattern: amount units from node
// from to node to, sent once the sends in deps (which delivered the data it
// carries) have arrived and, in the sender's program, after the send Prev
// has started (−1: none).
type Send struct {
	From, To int
	Amount   float64
	Offset   float64 // the part [offset, offset+amount) of the message it carries
	Deps     []int
	Prev     int
}

// PlaceSends times a pattern on the tree in time order (§2.1): it
// repeatedly starts, among the sends whose deps and prev are placed, the
// one that can start first, at the earliest time ≥ the last start, ≥ the
// arrival of its deps, at which it fits; ties go to the earlier send in the
// list. Every start is then the earliest fit given the transfers started
// before it, as in replay, and a whole-message pattern lies in the search
// space of the optimal policy.
func PlaceSends(ctx context.Context, nw *Network, sends []Send) (*Calendar, error) {
	c := NewCalendar(nw)
	index := make([]int, len(sends)) // send → placement index, −1 until placed
	waiting := make([]int, len(sends))
	next := make([][]int, len(sends))
	for i := range sends {
		index[i] = -1
		for _, d := range sends[i].Deps {
			waiting[i]++
			next[d] = append(next[d], i)
		}
		if p := sends[i].Prev; p >= 0 {
			waiting[i]++
			next[p] = append(next[p], i)
		}
	}
	q := heapq.New(earlierStart)
	tLast := 0.0
	ready := func(i int) {
		t0 := tLast
		for _, d := range sends[i].Deps {
			t0 = math.Max(t0, c.Moves[index[d]].Arrive)
		}
		q.Push(queued{start: c.Earliest(sends[i].From, sends[i].To, t0, sends[i].Amount), t0: t0, i: i})
	}
	for i := range sends {
		if waiting[i] == 0 {
			ready(i)
		}
	}
	for q.Len() > 0 {
		if len(c.Moves)%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		top := q.Pop()
		s := &sends[top.i]
		// Starts only grow as transfers are added: recompute, and take it
		// if it is still first.
		start := c.Earliest(s.From, s.To, math.Max(top.t0, tLast), s.Amount)
		if q.Len() > 0 && (start > q.Items[0].start || start == q.Items[0].start && top.i > q.Items[0].i) {
			top.start = start
			q.Push(top)
			continue
		}
		after := make([]int, 0, len(s.Deps))
		for _, d := range s.Deps {
			after = append(after, index[d])
		}
		index[top.i] = len(c.Moves)
		c.Place(s.From, s.To, start, s.Amount, after)
		c.Moves[len(c.Moves)-1].Offset = s.Offset
		tLast = start
		for _, j := range next[top.i] {
			if waiting[j]--; waiting[j] == 0 {
				ready(j)
			}
		}
	}
	for i, idx := range index {
		if idx < 0 {
			return nil, fmt.Errorf("send %d (%s→%s) waits on itself: the pattern has a cycle", i, nw.Name(sends[i].From), nw.Name(sends[i].To))
		}
	}
	return c, nil
}

// queued is a send waiting to start: its earliest start as last computed
// (a lower bound), the time its data is there, and its index.
type queued struct {
	start, t0 float64
	i         int
}

// earlierStart orders queued sends by start, then index.
func earlierStart(a, b queued) bool {
	if a.start != b.start {
		return a.start < b.start
	}
	return a.i < b.i
}

// TreeSends turns a broadcast tree over ranks into whole-message sends:
// children[r] lists the ranks r sends to, in program order, starting from
// rank root. A send follows the send that delivered the message to its
// sender.
func TreeSends(nw *Network, root int, children [][]int) []Send {
	var sends []Send
	delivered := make([]int, len(children)) // rank → index of the send that delivered to it
	delivered[root] = -1
	queue := []int{root}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		prev := -1
		for _, c := range children[r] {
			s := Send{From: nw.Parts[r], To: nw.Parts[c], Amount: nw.Size, Prev: prev}
			if d := delivered[r]; d >= 0 {
				s.Deps = []int{d}
			}
			prev = len(sends)
			delivered[c] = prev
			sends = append(sends, s)
			queue = append(queue, c)
		}
	}
	return sends
}

// PlaceSequence times whole-message transfers given as (sender, receiver)
// node names in list order: each starts at the earliest time ≥ the start
// of the one before and ≥ its sender's arrival at which it fits, the
// placement of the optimal policy's search (§2.1). A sender must hold the
// message by then (a root, or the receiver of an earlier transfer) and a
// receiver must not. It replays schedules such as the one paper 004 lists
// for Fig. 14.
func PlaceSequence(ctx context.Context, in policies.Instance, pairs [][2]string) (*sim.Schedule, error) {
	nw, err := NewNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("sequence: %w", err)
	}
	delivered := map[int]int{} // node → send that delivered to it, −1 for roots
	for _, r := range nw.Roots {
		delivered[r] = -1
	}
	sends := make([]Send, 0, len(pairs))
	for i, p := range pairs {
		var ends [2]int
		for k, name := range p {
			v, ok := nw.Tree.NodeIndex(name)
			if !ok || nw.Rank[v] < 0 {
				return nil, fmt.Errorf("sequence[%d]: %q is not a participant of the tree", i, name)
			}
			ends[k] = v
		}
		d, holds := delivered[ends[0]]
		if !holds {
			return nil, fmt.Errorf("sequence[%d]: %s sends before it holds the message", i, p[0])
		}
		if _, dup := delivered[ends[1]]; dup {
			return nil, fmt.Errorf("sequence[%d]: %s already holds the message", i, p[1])
		}
		s := Send{From: ends[0], To: ends[1], Amount: nw.Size, Prev: i - 1}
		if d >= 0 {
			s.Deps = []int{d}
		}
		delivered[ends[1]] = i
		sends = append(sends, s)
	}
	if len(delivered) != len(nw.Parts) {
		return nil, fmt.Errorf("sequence: %d of %d participants never get the message", len(nw.Parts)-len(delivered), len(nw.Parts))
	}
	return PlanSends(ctx, nw, "sequence", sends)
}

// PlanSends times a pattern and returns its schedule.
func PlanSends(ctx context.Context, nw *Network, name string, sends []Send) (*sim.Schedule, error) {
	c, err := PlaceSends(ctx, nw, sends)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := c.Schedule(name)
	s.Metrics = map[string]float64{"transfers": float64(len(s.Actions))}
	return s, nil
}

// Makespan is the last arrival of the placements, 0 for none.
func Makespan(moves []Placement) float64 {
	m := 0.0
	for _, p := range moves {
		m = math.Max(m, p.Arrive)
	}
	return m
}

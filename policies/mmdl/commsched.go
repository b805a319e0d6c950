package mmdl

import "fmt"

// Order is the order in which each processor handles its messages of one
// phase of a round (§3.4). Messages are numbered as IntervalMatching returns
// them, which is number order on both sides.
type Order int

const (
	// Reverse is the reverse ordering of communication scheduling (§3.4):
	// senders in number order, receivers in reverse number order. Under the
	// interval-intersection matching it never makes a message wait longer
	// than its ports' own other messages: the phase ends when the busiest
	// port is done.
	Reverse Order = iota
	// Forward puts both sides in number order, the worst order §3.4 names:
	// chained messages wait for each other and the phase serialises.
	Forward
)

func (o Order) String() string {
	if o == Forward {
		return "forward"
	}
	return "reverse"
}

// Comm is one message of a phase for ScheduleMessages: from sender to
// receiver, taking Dur.
type Comm struct {
	From, To int
	Dur      float64
}

// ScheduleMessages starts every message of one phase as soon as its sender
// has sent every message it sends before it and its receiver has received
// every message it receives before it, with the orders given by order on
// p processors. It returns each message's start offset from the phase start
// and the phase span (the last end). Messages are sent in the slice order;
// receivers take them in slice order (Forward) or its reverse (Reverse).
//
// The paper draws the reverse ordering with each processor's first message
// at the start of the round and its last at the end (Fig. 4); starting
// every message as early as possible keeps the same orders and never ends
// later.
func ScheduleMessages(msgs []Comm, p int, order Order) (start []float64, span float64, err error) {
	n := len(msgs)
	forward := func(j int) int { return j }
	recvSeq := forward
	if order == Reverse {
		recvSeq = func(j int) int { return n - 1 - j }
	}
	prevS, nextS := portChain(n, p, forward, func(k int) int { return msgs[k].From })
	prevR, nextR := portChain(n, p, recvSeq, func(k int) int { return msgs[k].To })
	return asap(msgs, prevS, prevR, nextS, nextR)
}

// portChain links the messages of each port in the order seq(0), seq(1),
// ...: prev[k] and next[k] are the messages before and after k on port(k),
// or -1.
func portChain(n, p int, seq, port func(k int) int) (prev, next []int) {
	prev, next = make([]int, n), make([]int, n)
	last := make([]int, p)
	for i := range last {
		last[i] = -1
	}
	for j := range n {
		k := seq(j)
		prev[k], next[k] = last[port(k)], -1
		if prev[k] >= 0 {
			next[prev[k]] = k
		}
		last[port(k)] = k
	}
	return prev, next
}

// asap runs Kahn's algorithm over the two port chains of every message.
func asap(msgs []Comm, prevS, prevR, nextS, nextR []int) ([]float64, float64, error) {
	n := len(msgs)
	start, end := make([]float64, n), make([]float64, n)
	indeg := make([]int8, n)
	var ready []int
	for k := range msgs {
		if prevS[k] >= 0 {
			indeg[k]++
		}
		if prevR[k] >= 0 {
			indeg[k]++
		}
		if indeg[k] == 0 {
			ready = append(ready, k)
		}
	}
	done, span := 0, 0.0
	for len(ready) > 0 {
		k := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		freeS, freeR := 0.0, 0.0 // when each end is done with its earlier messages
		if prevS[k] >= 0 {
			freeS = end[prevS[k]]
		}
		if prevR[k] >= 0 {
			freeR = end[prevR[k]]
		}
		start[k] = max(freeS, freeR)
		end[k] = start[k] + msgs[k].Dur
		span = max(span, end[k])
		for _, s := range [2]int{nextS[k], nextR[k]} {
			if s >= 0 {
				if indeg[s]--; indeg[s] == 0 {
					ready = append(ready, s)
				}
			}
		}
	}
	if done != n {
		return nil, 0, fmt.Errorf("the message orders wait on each other in a cycle (%d of %d messages scheduled)", done, n)
	}
	return start, span, nil
}

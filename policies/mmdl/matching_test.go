package mmdl

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFig3 checks paper 000's example of Figs. 3 and 4: T, the y_i, the
// interval-intersection matching y05 y15 y16 y17 y27 y38 y39 y49, and the
// communication spans of the two orders at R = 1 (reverse: the busiest
// port, P1's 3; forward: chained messages serialise to 5).
func TestFig3(t *testing.T) {
	c := loadCase(t, "testdata/fig3.yaml")
	m := mustModel(t, &c.Platform, &c.Problem)
	r := RoundTime(m)
	if relDiff(r.T, 6) > 1e-12 {
		t.Fatalf("T = %.17g, want 6", r.T)
	}
	wantY := []float64{-2, -6, -2, -4, -2, 3, 3, 4, 2, 4}
	for i, y := range r.Y {
		if math.Abs(y-wantY[i]) > 1e-12 {
			t.Errorf("y_%d = %.17g, want %g", i, y, wantY[i])
		}
	}
	if got := r.Masters(); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("masters %v", got)
	}
	want := []Message{{0, 5, 2}, {1, 5, 1}, {1, 6, 3}, {1, 7, 2}, {2, 7, 2}, {3, 8, 2}, {3, 9, 2}, {4, 9, 2}}
	got := IntervalMatching(r.Y)
	if len(got) != len(want) {
		t.Fatalf("matching %v, want %v", got, want)
	}
	for k := range want {
		if got[k].Master != want[k].Master || got[k].Worker != want[k].Worker || math.Abs(got[k].Amount-want[k].Amount) > 1e-12 {
			t.Errorf("message %d = %+v, want %+v", k, got[k], want[k])
		}
	}
	for order, span := range map[Order]float64{Reverse: 3, Forward: 5} {
		_, s, err := ScheduleMessages(comms(m, got), len(m.Procs), order)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(s-span) > 1e-12 {
			t.Errorf("%v order: span %g, want %g", order, s, span)
		}
	}
}

// comms turns one round's messages into their transfers at R = 1.
func comms(m *Model, msgs []Message) []Comm {
	out := make([]Comm, len(msgs))
	for k, msg := range msgs {
		out[k] = Comm{From: msg.Master, To: msg.Worker, Dur: m.Alpha + msg.Amount*m.Beta}
	}
	return out
}

// randomY draws a balanced additional load: random masters and workers,
// with equal totals, some equal boundaries.
func randomY(r *rand.Rand, p int) []float64 {
	y := make([]float64, p)
	send, take := 0.0, 0.0
	for i := range y {
		v := float64(1 + r.IntN(8)) // whole numbers: boundaries often coincide
		if r.Float64() < 0.3 {
			v *= r.Float64()
		}
		switch r.IntN(3) {
		case 0:
			y[i] = -v
			send += v
		case 1:
			y[i] = v
			take += v
		}
	}
	if send == 0 || take == 0 {
		return make([]float64, p)
	}
	for i := range y {
		if y[i] > 0 {
			y[i] *= send / take
		}
	}
	return y
}

// TestIntervalMatchingLiteral compares IntervalMatching with the §3.3
// formula y_ij = max{0, min{M_{i+1}, W_{j+1}} − max{M_i, W_j}} over every
// pair, and checks it sends every master's and worker's |y| and uses at
// most (#masters + #workers − 1) messages.
func TestIntervalMatchingLiteral(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for n := range 500 {
		y := randomY(r, 1+r.IntN(15))
		got := IntervalMatching(y)
		lit := map[[2]int]float64{}
		M, W := 0.0, 0.0
		total := 0.0
		type iv struct {
			i      int
			lo, hi float64
		}
		var ms, ws []iv
		for i, v := range y {
			switch {
			case v < 0:
				ms = append(ms, iv{i, M, M - v})
				M -= v
				total -= v
			case v > 0:
				ws = append(ws, iv{i, W, W + v})
				W += v
			}
		}
		for _, a := range ms {
			for _, b := range ws {
				if o := min(a.hi, b.hi) - max(a.lo, b.lo); o > matchTol*total {
					lit[[2]int{a.i, b.i}] = o
				}
			}
		}
		if len(got) != len(lit) {
			t.Fatalf("instance %d: %d messages, the formula gives %d: %v vs %v", n, len(got), len(lit), got, lit)
		}
		moved := make([]float64, len(y))
		for _, msg := range got {
			if want := lit[[2]int{msg.Master, msg.Worker}]; math.Abs(msg.Amount-want) > 1e-9*total {
				t.Errorf("instance %d: y_%d,%d = %g, formula %g", n, msg.Master, msg.Worker, msg.Amount, want)
			}
			moved[msg.Master] -= msg.Amount
			moved[msg.Worker] += msg.Amount
		}
		for i := range y {
			if math.Abs(moved[i]-y[i]) > 1e-9*max(1, total) {
				t.Errorf("instance %d: processor %d moves %g, y = %g", n, i, moved[i], y[i])
			}
		}
		if roles := len(ms) + len(ws); roles > 0 && len(got) > roles-1 {
			t.Errorf("instance %d: %d messages for %d masters and workers", n, len(got), roles)
		}
	}
}

// TestReverseOrderNoContention checks §3.4 on random matchings: under the
// reverse order no port is used twice at once, senders go in number order
// and receivers in reverse, and the phase ends exactly when the busiest
// port is done; the forward order never ends earlier.
func TestReverseOrderNoContention(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for n := range 500 {
		p := 1 + r.IntN(15)
		y := randomY(r, p)
		msgs := IntervalMatching(y)
		cs := make([]Comm, len(msgs))
		busy := make([]float64, p)
		for k, msg := range msgs {
			cs[k] = Comm{From: msg.Master, To: msg.Worker, Dur: 0.01*r.Float64() + msg.Amount}
			busy[msg.Master] += cs[k].Dur
			busy[msg.Worker] += cs[k].Dur
		}
		start, span, err := ScheduleMessages(cs, p, Reverse)
		if err != nil {
			t.Fatal(err)
		}
		if want := slices.Max(append(busy, 0)); math.Abs(span-want) > 1e-12*max(1, want) {
			t.Errorf("instance %d: span %g, busiest port %g", n, span, want)
		}
		for a := range cs {
			for b := a + 1; b < len(cs); b++ {
				sameSender, sameReceiver := cs[a].From == cs[b].From, cs[a].To == cs[b].To
				if !sameSender && !sameReceiver {
					continue
				}
				if start[a]+cs[a].Dur > start[b]+1e-12 && start[b]+cs[b].Dur > start[a]+1e-12 {
					t.Errorf("instance %d: messages %d and %d overlap on a port", n, a, b)
				}
				if sameSender && start[b] < start[a] || sameReceiver && start[a] < start[b] {
					t.Errorf("instance %d: messages %d and %d out of the reverse order", n, a, b)
				}
			}
		}
		_, fspan, err := ScheduleMessages(cs, p, Forward)
		if err != nil {
			t.Fatal(err)
		}
		if fspan < span-1e-12 {
			t.Errorf("instance %d: forward span %g below reverse %g", n, fspan, span)
		}
	}
}

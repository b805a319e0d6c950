package sim

import (
	"bytes"
	"strings"
	"testing"
)

// TestRecycled checks that a recycled schedule is empty, reuses the old
// Actions array only when it is large enough, and leaves the old Metrics
// and Warnings (which a caller may hold) alone.
func TestRecycled(t *testing.T) {
	if s := Recycled(nil, 4); s == nil || len(s.Actions) != 0 || cap(s.Actions) != 4 {
		t.Fatalf("Recycled(nil, 4) = %+v", s)
	}
	metrics := map[string]float64{"T": 2}
	newOld := func() *Schedule {
		return &Schedule{Policy: "p", Claimed: 3, Metrics: metrics, Warnings: []string{"w"},
			Actions: []Action{{Kind: Compute, Amount: 1, Start: Time(0), After: []int{0}}, {Kind: Compute}}}
	}
	old := newOld()
	array := &old.Actions[0]
	if s := Recycled(old, 3); len(s.Actions) != 0 || cap(s.Actions) < 3 || array.Start == nil {
		t.Fatalf("Recycled(old, 3) = %+v; want room for 3 actions, old's array untouched", s)
	}
	old = newOld()
	array = &old.Actions[0]
	s := Recycled(old, 2)
	if s != old || len(s.Actions) != 0 || &s.Actions[:1][0] != array {
		t.Fatalf("Recycled(old, 2) = %p with %d actions; want old's memory, empty", s, len(s.Actions))
	}
	if s.Policy != "" || s.Claimed != 0 || s.Metrics != nil || s.Warnings != nil {
		t.Errorf("recycled schedule not empty: %+v", s)
	}
	if a := s.Actions[:1][0]; a.Start != nil || a.After != nil {
		t.Errorf("recycled actions still point to the old ones' memory: %+v", a)
	}
	if metrics["T"] != 2 {
		t.Error("Recycled changed the old metrics")
	}
}

// TestScheduleMemory checks that Floats and Ints hand out zeroed pieces
// that do not overlap, even when the pool grows, and that Recycled hands
// the same memory out again.
func TestScheduleMemory(t *testing.T) {
	s := Recycled(nil, 0)
	var pieces [][]float64
	for n := range 6 {
		f := s.Floats(n + 1)
		if len(f) != n+1 || cap(f) != n+1 {
			t.Fatalf("Floats(%d): len %d cap %d", n+1, len(f), cap(f))
		}
		for i := range f {
			if f[i] != 0 {
				t.Fatalf("Floats(%d)[%d] = %g, want 0", n+1, i, f[i])
			}
			f[i] = float64(n + 1)
		}
		pieces = append(pieces, f)
	}
	for n, f := range pieces {
		for i := range f {
			if f[i] != float64(n+1) {
				t.Fatalf("piece %d was overwritten by a later one: %v", n, f)
			}
		}
	}
	ints := s.Ints(3)
	ints[0] = 7
	s = Recycled(s, 0)
	if f := s.Floats(21); f[0] != 0 || f[20] != 0 {
		t.Fatalf("recycled Floats not zeroed: %v", f)
	}
	if i := s.Ints(3); &i[0] != &ints[0] || i[0] != 0 {
		t.Errorf("recycled Ints: %v at %p, want zeroes at %p", i, &i[0], &ints[0])
	}
}

// TestWriteNodeFields checks that a compute action always writes its node
// and no from or to, and a transfer its from and to and no node, even 0.
func TestWriteNodeFields(t *testing.T) {
	tests := []struct {
		name      string
		a         Action
		want, not []string
	}{
		{"compute on node 0", Action{Kind: Compute, From: 1, To: 2}, []string{`"node": 0`}, []string{`"from"`, `"to"`}},
		{"transfer from node 0", Action{Kind: Transfer, Node: 3, To: 1}, []string{`"from": 0`, `"to": 1`}, []string{`"node"`}},
		{"transfer to node 0", Action{Kind: Transfer, From: 1}, []string{`"from": 1`, `"to": 0`}, []string{`"node"`}},
		{"unknown kind", Action{Kind: "send", Node: 2}, []string{`"node": 2`}, []string{`"from"`, `"to"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := (&Schedule{Actions: []Action{tt.a}}).WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("missing %s in\n%s", w, &buf)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(buf.String(), n) {
					t.Errorf("unexpected %s in\n%s", n, &buf)
				}
			}
		})
	}
}

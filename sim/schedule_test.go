package sim

import "testing"

// TestRecycled checks that a recycled schedule is empty, reuses the old
// Actions array only when it is large enough, and leaves the old Metrics
// and Warnings (which a caller may hold) alone.
func TestRecycled(t *testing.T) {
	if s := Recycled(nil, 4); s == nil || len(s.Actions) != 0 || cap(s.Actions) != 4 {
		t.Fatalf("Recycled(nil, 4) = %+v", s)
	}
	metrics := map[string]float64{"T": 2}
	old := &Schedule{Policy: "p", Claimed: 3, Metrics: metrics, Warnings: []string{"w"},
		Actions: []Action{{Kind: Compute, Amount: 1, Start: At(0), After: []int{0}}, {Kind: Compute}}}
	if s := Recycled(old, 3); s == old {
		t.Fatal("Recycled reused an array of 2 actions for 3")
	}
	array := &old.Actions[0]
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

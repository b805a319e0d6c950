package network_test

import (
	"math"
	"strings"
	"testing"

	"github.com/netsched/netsched/network"
)

func newSim(t *testing.T, links ...network.Link) *network.Sim {
	t.Helper()
	s, err := network.NewSim(&network.Network{Hosts: 4, Links: links}, network.MaxMin)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSimTieEndsTogether: two flows of one size on one link end in one
// event, reported by ID.
func TestSimTieEndsTogether(t *testing.T) {
	s := newSim(t, network.Link{Bandwidth: 3e8})
	for range 3 {
		if _, err := s.Add(network.Flow{Src: 0, Dst: 1, Size: 1e8, Route: []int{0}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Advance(s.Next()); len(got) != 0 {
		t.Fatalf("activation ended %v", got)
	}
	if r := s.Rate(1); r != 1e8 {
		t.Errorf("rate %v, want 1e8", r)
	}
	got := s.Advance(s.Next())
	want := []network.Ended{{ID: 0, Time: 1}, {ID: 1, Time: 1}, {ID: 2, Time: 1}}
	if len(got) != len(want) {
		t.Fatalf("ended %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ended %v, want %v", got, want)
		}
	}
	if !math.IsInf(s.Next(), 1) || s.Active() != 0 {
		t.Errorf("after the last end: Next %v, Active %d", s.Next(), s.Active())
	}
}

// TestSimMidway adds a flow after the clock moved, and reads Remaining,
// Rate and LinkLoads between events.
func TestSimMidway(t *testing.T) {
	s := newSim(t, network.Link{Bandwidth: 1e8}, network.Link{Bandwidth: 1e8, Latency: 0.5})
	a, _ := s.Add(network.Flow{Src: 0, Dst: 1, Size: 2e8, Route: []int{0}})
	s.Advance(0.5)
	if s.Now() != 0.5 || s.Remaining(a) != 1.5e8 {
		t.Fatalf("at %v: remaining %v, want 1.5e8", s.Now(), s.Remaining(a))
	}
	if _, err := s.Add(network.Flow{Src: 0, Dst: 1, Size: 1, Start: 0.25, Route: []int{0}}); err == nil || !strings.Contains(err.Error(), "before the simulation's clock") {
		t.Errorf("a start in the past: %v", err)
	}
	b, _ := s.Add(network.Flow{Src: 2, Dst: 3, Size: 5e7, Start: 0.5, Route: []int{1, 0}})
	s.Advance(0.75) // b activates at 1: a alone until then
	if got := s.Remaining(b); got != 5e7 || s.Rate(b) != 0 {
		t.Errorf("pending flow: remaining %v, rate %v", got, s.Rate(b))
	}
	s.Advance(1)
	if s.Rate(a) != 5e7 || s.Rate(b) != 5e7 {
		t.Errorf("shared: rates %v and %v, want 5e7", s.Rate(a), s.Rate(b))
	}
	if loads := s.LinkLoads(); loads[0] != 1e8 || loads[1] != 5e7 {
		t.Errorf("loads %v", loads)
	}
	ended := s.Advance(math.Inf(1))
	if len(ended) != 2 || ended[0] != (network.Ended{ID: b, Time: 2}) || ended[1] != (network.Ended{ID: a, Time: 2.5}) {
		t.Errorf("ended %v", ended)
	}
	if end, ok := s.End(a); !ok || end != 2.5 || s.Activation(b) != 1 {
		t.Errorf("End(a) = %v, %v; Activation(b) = %v", end, ok, s.Activation(b))
	}
	if s.Advance(math.NaN()) != nil {
		t.Error("Advance(NaN) did something")
	}
}

func TestSimAddErrors(t *testing.T) {
	s := newSim(t, network.Link{Bandwidth: 1e8})
	for _, tc := range []struct {
		f    network.Flow
		want string
	}{
		{network.Flow{Src: 0, Dst: 4, Size: 1, Route: []int{0}}, "flow[1]: host 4 does not exist"},
		{network.Flow{Src: 0, Dst: 1, Size: math.NaN(), Route: []int{0}}, "flow[2]: size must be"},
		{network.Flow{Src: 0, Dst: 1, Size: 1, Start: math.Inf(1), Route: []int{0}}, "flow[3]: start must be"},
		{network.Flow{Src: 0, Dst: 1, Size: 1}, "flow[4]: the route is empty"},
		{network.Flow{Src: 0, Dst: 1, Size: 1, Route: []int{1}}, "flow[4][0]: link 1 does not exist"},
	} {
		if _, err := s.Add(tc.f); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.f, err, tc.want)
		}
	}
	if _, err := network.NewSim(&network.Network{Links: []network.Link{{Bandwidth: 0}}}, network.MaxMin); err == nil {
		t.Error("a link of bandwidth 0 is accepted")
	}
}

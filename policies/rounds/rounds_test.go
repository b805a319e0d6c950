package rounds

import (
	"context"
	"errors"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/netsched/netsched/sim"
)

func TestNewLayout(t *testing.T) {
	placed := map[string]int{}
	kinds := []string{"first", "middle", "middle", "middle", "last"}
	length := map[string]float64{"first": 1, "middle": 2.5, "last": 0.5}
	l, err := NewLayout(3, len(kinds), func(k int) string { return kinds[k] },
		func(kind string) (float64, error) { placed[kind]++; return length[kind], nil },
		func(s float64) float64 { return s })
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 1, 3.5, 6, 8.5}; !slices.Equal(l.Starts, want) || l.Makespan != 9 {
		t.Errorf("starts %v makespan %g, want %v and 9", l.Starts, l.Makespan, want)
	}
	for kind, n := range placed {
		if n != 1 {
			t.Errorf("kind %s placed %d times, want once", kind, n)
		}
	}
	if l.Slot(2) != 2.5 {
		t.Errorf("slot 2 is %g, want 2.5", l.Slot(2))
	}
	bad := errors.New("no room")
	if _, err := NewLayout(1, 2, func(int) int { return 0 }, func(int) (int, error) { return 0, bad }, func(int) float64 { return 0 }); !errors.Is(err, bad) {
		t.Errorf("a placement error should come back, got %v", err)
	}
}

// TestBestRounds checks the choice against an exhaustive search of the
// model makespan T + dT/R + Rα, which is convex in R, and its edge cases.
func TestBestRounds(t *testing.T) {
	for _, c := range []Choice{
		{T: 100, AlphaRound: 1, Delay: 1, Comms: true, MaxRounds: 100},
		{T: 100, AlphaRound: 0.3, Delay: 2, Comms: true, MaxRounds: 100},
		{T: 100, AlphaRound: 0.3, Delay: 2, Comms: true, MaxRounds: 7},
		{T: 1, AlphaRound: 50, Delay: 1, Comms: true, MaxRounds: 100},
		{T: 12.5, AlphaRound: 0.02, Delay: 3, Comms: true, MaxRounds: 1000},
	} {
		span := func(R int) (float64, error) {
			return c.T + float64(c.Delay)*c.T/float64(R) + float64(R)*c.AlphaRound, nil
		}
		got, err := BestRounds(c, span)
		if err != nil {
			t.Fatal(err)
		}
		best, bestSpan := 0, math.Inf(1)
		for R := 1; R <= c.MaxRounds; R++ {
			if s, _ := span(R); s < bestSpan {
				best, bestSpan = R, s
			}
		}
		if s, _ := span(got); s != bestSpan {
			t.Errorf("%+v: R = %d (makespan %g), exhaustive R = %d (%g)", c, got, s, best, bestSpan)
		}
	}
	never := func(int) (float64, error) { t.Error("makespan evaluated"); return 0, nil }
	if R, _ := BestRounds(Choice{T: 1, AlphaRound: 1, MaxRounds: 9}, never); R != 1 {
		t.Errorf("without transfers R = %d, want 1", R)
	}
	if R, _ := BestRounds(Choice{T: 1, Comms: true, MaxRounds: 9}, never); R != 9 {
		t.Errorf("without start-up cost R = %d, want the cap 9", R)
	}
}

// TestEmitter checks that a slot's actions come out by planned start,
// ties in the order given, and that tags ≥ 0 report their index.
func TestEmitter(t *testing.T) {
	em := Emitter{S: &sim.Schedule{}}
	l := &Layout[int, int]{Starts: []float64{0, 10}, Makespan: 20}
	got := map[int]int{}
	err := Emit(context.Background(), l, em.S, func(k int, t0 float64) {
		for j, off := range []float64{3, 1, 3, 0} {
			em.Add(sim.Action{Kind: sim.Compute, Node: j, Amount: 1, Start: sim.Time(t0 + off)}, 10*k+j-1)
		}
		em.Flush(func(tag, idx int) { got[tag] = idx })
	})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []int
	for _, a := range em.S.Actions {
		nodes = append(nodes, a.Node)
	}
	if want := []int{3, 1, 0, 2, 3, 1, 0, 2}; !slices.Equal(nodes, want) {
		t.Errorf("nodes in order %v, want %v", nodes, want)
	}
	if want := map[int]int{0: 1, 1: 3, 2: 0, 9: 6, 10: 5, 11: 7, 12: 4}; !maps.Equal(got, want) || em.S.Claimed != 20 {
		t.Errorf("tags %v claim %g, want %v and 20", got, em.S.Claimed, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Emit(ctx, l, em.S, func(int, float64) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

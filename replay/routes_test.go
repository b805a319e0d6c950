package replay

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/netsched/netsched/models"
)

// Routes.Path agrees with models.Tree.Path (a breadth-first search of its
// own) on every pair of nodes of random trees.
func TestRoutesPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 50 {
		tr := randomTree(rng, 2+rng.IntN(10))
		r := NewRoutes(tr)
		for u := range tr.Nodes {
			for v := range tr.Nodes {
				if got, want := r.Path(u, v), tr.Path(u, v); !slices.Equal(got, want) {
					t.Fatalf("trial %d: path %d→%d = %v, want %v", trial, u, v, got, want)
				}
			}
		}
	}
}

func TestRoutesChannels(t *testing.T) {
	tr := &models.Tree{
		Nodes: []models.TreeNode{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Edges: []models.TreeEdge{
			{A: "a", B: "b", LinkParams: models.LinkParams{Bandwidth: 2, Latency: 1},
				Reverse: &models.LinkParams{Bandwidth: 3, Latency: 0.5}},
			{A: "b", B: "c", LinkParams: models.LinkParams{Bandwidth: 4, Latency: 2}, Duplex: models.HalfDuplex,
				Reverse: &models.LinkParams{Bandwidth: 5, Latency: 2}},
		},
	}
	r := NewRoutes(tr)
	if got, want := r.Capacities(), []float64{2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("capacities %v, want %v (full duplex: one per direction; half duplex: one, its a→b bandwidth)", got, want)
	}
	cb, bc := models.Link{Edge: 1, Forward: false}, models.Link{Edge: 1, Forward: true}
	if r.Channel(cb) != r.Channel(bc) {
		t.Errorf("the directions of a half-duplex edge use links %d and %d, want one", r.Channel(bc), r.Channel(cb))
	}
	if b := r.Bandwidth(cb); b != 4 {
		t.Errorf("c→b runs at %g, want the shared capacity 4", b)
	}
	// c→a: c→b (half duplex, 4 for its reverse 5, latency 2), then b→a
	// (reverse: bandwidth 3, latency 0.5).
	rt := r.Route(2, 0)
	if !slices.Equal(rt.Offsets, []float64{2, 2.5}) || rt.Bandwidth != 3 || rt.Latency != 2.5 || !slices.Equal(rt.Channels, []int{2, 1}) {
		t.Errorf("route c→a %+v", rt)
	}
	if d := rt.Duration(6); d != 4.5 {
		t.Errorf("duration of 6 units: %g, want 2.5 + 6/3", d)
	}
	if names := []string{r.LinkName(rt.Links[0]), r.LinkName(rt.Links[1])}; !slices.Equal(names, []string{"c→b", "b→a"}) {
		t.Errorf("link names %q", names)
	}
	if empty := r.Route(1, 1); len(empty.Links) != 0 || empty.Duration(5) != 0 {
		t.Errorf("route to itself %+v", empty)
	}
}

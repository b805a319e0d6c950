package bound

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/broadcast/internal/treegen"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// tracked is a state of the search space of paper 004 §2.1 as the
// search reaches it: transfers placed in time order, each at the earliest
// time at or after the last start at which it fits, with the bounder set
// up on its network.
type tracked struct {
	nw       *treenet.Network
	c        *treenet.Calendar
	b        *Bounder
	ready    []float64 // arrival per node, +Inf for non-holders
	st       State
	tLast    float64
	makespan float64
	missing  int
}

func newTracked(t *testing.T, nw *treenet.Network) *tracked {
	t.Helper()
	b, err := New(context.Background(), nw)
	if err != nil {
		t.Fatal(err)
	}
	k := &tracked{nw: nw, c: treenet.NewCalendar(nw), b: b, ready: make([]float64, nw.N),
		missing: len(nw.Parts) - len(nw.Roots)}
	for v := range k.ready {
		k.ready[v] = math.Inf(1)
	}
	for _, r := range nw.Roots {
		k.ready[r] = 0
	}
	k.st = State{Ready: make([]float64, nw.N), Windows: make([][]Window, nw.Channels),
		Fit: func(u, v int, t float64) float64 { return k.c.Earliest(u, v, t, nw.Size) }}
	return k
}

// place adds the transfer u→v at the earliest time it fits.
func (k *tracked) place(u, v int) {
	start := k.c.Earliest(u, v, math.Max(k.tLast, k.ready[u]), k.nw.Size)
	k.st.Reserve(k.c.RouteOf(u, v), start, k.nw.Size)
	k.ready[v] = k.c.Place(u, v, start, k.nw.Size, nil)
	k.tLast, k.makespan = start, math.Max(k.makespan, k.ready[v])
	k.missing--
}

// state is the state as the bounder reads it, with the given cutoff.
func (k *tracked) state(cutoff float64) *State {
	st := &k.st
	st.Holders, st.Missing, st.Makespan, st.TLast, st.Cutoff = len(k.nw.Parts)-k.missing, k.missing, k.makespan, k.tLast, cutoff
	for v, t := range k.ready {
		st.Ready[v] = t
		if !math.IsInf(t, 1) {
			st.Ready[v] = math.Max(t, k.tLast)
		}
	}
	return st
}

// bound is the lower bound of the state with the given cutoff.
func (k *tracked) bound(cutoff float64) float64 { return k.b.Lower(k.state(cutoff)) }

// starNetwork is x joined to a switch w over up, and w to every leaf over
// a link of bandwidth 1 and latency 0.1; x holds a message of 1.
func starNetwork(tb testing.TB, up models.LinkParams, leaves ...string) *treenet.Network {
	tb.Helper()
	tr := &models.Tree{
		Nodes: []models.TreeNode{{Name: "x"}, {Name: "w", Relay: true}},
		Edges: []models.TreeEdge{{A: "x", B: "w", LinkParams: up, Duplex: models.FullDuplex}},
	}
	for _, v := range leaves {
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: v})
		tr.Edges = append(tr.Edges, models.TreeEdge{A: "w", B: v, LinkParams: models.LinkParams{Bandwidth: 1, Latency: 0.1}, Duplex: models.FullDuplex})
	}
	nw, err := treenet.NewNetwork(context.Background(), treegen.Instance(tr, 1, "x"))
	if err != nil {
		tb.Fatal(err)
	}
	return nw
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

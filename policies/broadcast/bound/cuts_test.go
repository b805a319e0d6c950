package bound

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/internal/treegen"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// cutTrees are trees of every kind the bound is checked on, and random
// trees with relays of up to 40 participants.
func cutTrees(t *testing.T) []policies.Instance {
	var ins []policies.Instance
	for seed := range uint64(20) {
		in, err := treegen.Random(seed, 40)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in, treegen.Clustered(seed, 12), treegen.TwoSpeed(seed, 12), treegen.SMPMini(seed, 12),
			treegen.Symmetric(seed, 12))
	}
	return ins
}

// TestCutFiguresArePairwise checks the cut figures against their
// definitions, pair by pair, and the participants the bounder finds
// beyond each direction (side, by inBranch) against a walk of the tree, on
// every direction of every tree of cutTrees.
func TestCutFiguresArePairwise(t *testing.T) {
	for i, in := range cutTrees(t) {
		nw, err := treenet.NewNetwork(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := New(context.Background(), nw)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := newCutFigures(context.Background(), nw, 2*len(nw.Tree.Edges))
		if err != nil {
			t.Fatal(err)
		}
		for z := range nw.N {
			for _, h := range nw.Adj[z] {
				id := dirID(h.Link)
				beyond := walkBeyond(nw, z, h.To)
				far, in, rate, least := pairwiseCut(nw, beyond)
				name := fmt.Sprintf("tree %d, %s→%s", i, nw.Name(z), nw.Name(h.To))
				if !reflect.DeepEqual(cf.far[id], far) || !reflect.DeepEqual(cf.in[id], in) {
					t.Errorf("%s: far, in = %v, %v; pair by pair %v, %v", name, cf.far[id], cf.in[id], far, in)
				}
				if cf.inRate[id] != rate || cf.inMin[id] != least {
					t.Errorf("%s: inRate, inMin = %g, %g; pair by pair %g, %g", name, cf.inRate[id], cf.inMin[id], rate, least)
				}
				if side := b.side(id); !reflect.DeepEqual(side, beyond) {
					t.Errorf("%s: side %v, by a walk %v", name, side, beyond)
				}
			}
		}
	}
}

// pairwiseCut computes the cut figures of the branch whose participants are
// beyond from their definitions (see cutFigures).
func pairwiseCut(nw *treenet.Network, beyond []int) (far, in []float64, rate, least float64) {
	least = math.Inf(1)
	for _, p := range beyond {
		hi, lo := math.Inf(-1), math.Inf(1)
		for _, q := range beyond {
			if q != p {
				hi, lo = max(hi, nw.Cost[p][q]), min(lo, nw.Cost[q][p])
			}
		}
		far, in = append(far, hi), append(in, lo)
		for _, u := range nw.Parts {
			if !slices.Contains(beyond, u) {
				bw := nw.Routes.Route(u, p).Bandwidth
				rate, least = max(rate, bw), min(least, bw)
			}
		}
	}
	return far, in, rate, least
}

// walkBeyond lists the participants beyond z→w, in node order, by a walk
// of the tree from w that does not cross back to z.
func walkBeyond(nw *treenet.Network, z, w int) []int {
	seen := make([]bool, nw.N)
	seen[z], seen[w] = true, true
	for stack := []int{w}; len(stack) > 0; {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, h := range nw.Adj[u] {
			if !seen[h.To] {
				seen[h.To] = true
				stack = append(stack, h.To)
			}
		}
	}
	var beyond []int
	for _, p := range nw.Parts {
		if seen[p] && p != z {
			beyond = append(beyond, p)
		}
	}
	return beyond
}

package mpi

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/trees"
)

func TestBinomialChildren(t *testing.T) {
	tests := []struct {
		p, root int
		want    [][]int
	}{
		// MPICH's MPIR_Bcast: 0 sends to 4, 2, 1; 4 to 6, 5; 2 to 3; 6 to 7.
		{8, 0, [][]int{{4, 2, 1}, nil, {3}, nil, {6, 5}, nil, {7}, nil}},
		// Root 1 rotates the tree: relative rank vr is rank (vr+1) mod 8.
		{8, 1, [][]int{nil, {5, 3, 2}, nil, {4}, nil, {7, 6}, nil, {0}}},
		{5, 0, [][]int{{4, 2, 1}, nil, {3}, nil, nil}},
		{6, 2, [][]int{{1}, nil, {0, 4, 3}, nil, {5}, nil}},
	}
	for _, tt := range tests {
		if got := binomialChildren(tt.p, tt.root); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("binomial p=%d root=%d: %v, want %v", tt.p, tt.root, got, tt.want)
		}
	}
}

func TestLAMAndBinaryChildren(t *testing.T) {
	if got, want := lamChildren(4, 2), [][]int{nil, nil, {0, 1, 3}, nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("lam p=4 root=2: %v, want the linear %v", got, want)
	}
	if got, want := lamChildren(5, 1), binomialChildren(5, 1); !reflect.DeepEqual(got, want) {
		t.Errorf("lam p=5: %v, want the binomial %v", got, want)
	}
	// Relative ranks 0..5 are ranks 1..5, 0: 1 sends to 2, 3; 2 to 4, 5; 3 to 0.
	if got, want := binaryChildren(6, 1), [][]int{nil, {2, 3}, {4, 5}, {0}, nil, nil}; !reflect.DeepEqual(got, want) {
		t.Errorf("binary p=6 root=1: %v, want %v", got, want)
	}
}

func TestMPICHSelection(t *testing.T) {
	tests := []struct {
		rule     Rule
		nbytes   int
		p        int
		want     Algorithm
		scatterA Algorithm
	}{
		{Rule2004, 1000, 8, Binomial, ScatterRecursiveDoubling},
		{Rule2004, 1000, 9, ScatterRecursiveDoubling, ScatterRecursiveDoubling},
		{Rule2004, 1 << 20, 4, ScatterRecursiveDoubling, ScatterRecursiveDoubling},
		{Rule2004, 1 << 20, 12, ScatterRecursiveDoubling, ScatterRecursiveDoubling},
		{RuleCurrent, 1000, 64, Binomial, ScatterRecursiveDoubling},
		{RuleCurrent, 1 << 20, 7, Binomial, ScatterRing},
		{RuleCurrent, 100000, 16, ScatterRecursiveDoubling, ScatterRecursiveDoubling},
		{RuleCurrent, 100000, 12, ScatterRing, ScatterRing},
		{RuleCurrent, 1 << 20, 16, ScatterRing, ScatterRing},
	}
	for _, tt := range tests {
		if got := tt.rule.Select(tt.nbytes, tt.p); got != tt.want {
			t.Errorf("%s Select(%d bytes, %d procs) = %s, want %s", tt.rule, tt.nbytes, tt.p, got, tt.want)
		}
		if got := tt.rule.allgather(tt.nbytes, tt.p); got != tt.scatterA {
			t.Errorf("%s allgather(%d bytes, %d procs) = %s, want %s", tt.rule, tt.nbytes, tt.p, got, tt.scatterA)
		}
	}
}

// TestScatterAllgatherDelivers builds MPICH's long-message broadcast for
// every process count up to 20 and odd message sizes: every rank ends with
// every block and a send only carries blocks its sender holds (build checks
// both), and every rank receives at least the message (more where MPICH
// sends a block twice: a scatter node keeps the blocks it forwarded, and
// the allgather sends them back).
func TestScatterAllgatherDelivers(t *testing.T) {
	for p := 1; p <= 20; p++ {
		tr, err := trees.StarTree(p, models.LinkParams{Bandwidth: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, root := range []int{0, p / 2} {
			in := instanceOf(tr, 1, fmt.Sprint(root))
			nw, err := treenet.NewNetwork(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			for _, nbytes := range []int{1, 7, 100, 1 << 20} {
				for _, alg := range []Algorithm{ScatterRecursiveDoubling, ScatterRing} {
					sends, err := newScatterAllgather(nw, root, nbytes, 1).build(alg)
					if err != nil {
						t.Fatalf("p=%d root=%d %d bytes %s: %v", p, root, nbytes, alg, err)
					}
					got := make([]float64, nw.N)
					for _, s := range sends {
						got[s.To] += s.Amount
					}
					for _, v := range nw.Parts {
						if want := float64(nbytes); v != nw.Parts[root] && got[v] < want {
							t.Errorf("p=%d root=%d %d bytes %s: rank %d receives %g bytes", p, root, nbytes, alg, nw.Rank[v], got[v])
						}
					}
				}
			}
		}
	}
}

// instanceOf is a broadcast of size from roots on tree tr.
func instanceOf(tr *models.Tree, size float64, roots ...string) policies.Instance {
	return policies.Instance{
		Platform: &models.Platform{Tree: tr},
		Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: roots, Size: size}},
	}
}

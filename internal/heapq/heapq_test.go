package heapq

import (
	"container/heap"
	"math/rand/v2"
	"testing"
)

// pair is an element with a key that ties often, and its identity.
type pair struct{ key, id int }

// ref is the same heap through container/heap, the reference.
type ref []pair

func (h ref) Len() int           { return len(h) }
func (h ref) Less(i, j int) bool { return h[i].key < h[j].key }
func (h ref) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *ref) Push(x any)        { *h = append(*h, x.(pair)) }
func (h *ref) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TestSameAsContainerHeap runs random pushes, pops, fixes and inits on a
// Heap and on container/heap: every pop returns the same element, ties
// included, and the arrays stay equal.
func TestSameAsContainerHeap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	h := New(func(a, b pair) bool { return a.key < b.key })
	var want ref
	for step := range 20000 {
		switch op := r.IntN(10); {
		case op < 5 || h.Len() == 0:
			x := pair{r.IntN(20), step}
			h.Push(x)
			heap.Push(&want, x)
		case op < 8:
			if got, w := h.Pop(), heap.Pop(&want).(pair); got != w {
				t.Fatalf("step %d: Pop = %v, container/heap %v", step, got, w)
			}
		case op < 9:
			i, k := r.IntN(h.Len()), r.IntN(20)
			h.Items[i].key, want[i].key = k, k
			h.Fix(i)
			heap.Fix(&want, i)
		default:
			r.Shuffle(h.Len(), func(i, j int) { h.Items[i], h.Items[j] = h.Items[j], h.Items[i]; want[i], want[j] = want[j], want[i] })
			h.Init()
			heap.Init(&want)
		}
		for i := range want {
			if h.Items[i] != want[i] {
				t.Fatalf("step %d: arrays differ at %d", step, i)
			}
		}
	}
}

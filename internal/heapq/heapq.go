// Package heapq is a binary heap of any element type, ordered by a less
// function: container/heap's algorithms, step for step (so the same
// pushes and pops give the same order, ties included), without its
// interface, which boxes every element pushed or popped.
package heapq

// Heap is a heap of Items ordered by Less: Items[0] is the least. Items
// may be read, and an element changed in place and restored with Fix.
type Heap[T any] struct {
	Items []T
	Less  func(a, b T) bool
}

// New returns an empty heap ordered by less.
func New[T any](less func(a, b T) bool) *Heap[T] { return &Heap[T]{Less: less} }

// Len is the number of elements.
func (h *Heap[T]) Len() int { return len(h.Items) }

// Init orders Items into a heap, as heap.Init does.
func (h *Heap[T]) Init() {
	n := len(h.Items)
	for i := n/2 - 1; i >= 0; i-- {
		h.down(i, n)
	}
}

// Push adds x, as heap.Push does.
func (h *Heap[T]) Push(x T) {
	h.Items = append(h.Items, x)
	h.up(len(h.Items) - 1)
}

// Pop removes and returns the least element, as heap.Pop does.
func (h *Heap[T]) Pop() T {
	n := len(h.Items) - 1
	h.swap(0, n)
	h.down(0, n)
	x := h.Items[n]
	var zero T
	h.Items[n] = zero // let go of what it holds
	h.Items = h.Items[:n]
	return x
}

// Fix restores the order after Items[i] changed, as heap.Fix does.
func (h *Heap[T]) Fix(i int) {
	if !h.down(i, len(h.Items)) {
		h.up(i)
	}
}

func (h *Heap[T]) less(i, j int) bool { return h.Less(h.Items[i], h.Items[j]) }
func (h *Heap[T]) swap(i, j int)      { h.Items[i], h.Items[j] = h.Items[j], h.Items[i] }

func (h *Heap[T]) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !h.less(j, i) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

func (h *Heap[T]) down(i0, n int) bool {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 { // j1 < 0 after int overflow
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h.less(j2, j1) {
			j = j2 // right child
		}
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}

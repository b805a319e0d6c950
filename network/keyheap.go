package network

// keyHeap is a binary min-heap of indices 0..n-1 ordered by key[i], ties
// by index, with each index's position kept so that a changed key is
// restored in O(log n) (fix) and an index removed from anywhere.
type keyHeap struct {
	key   *[]float64 // key of each index, the owner's slice
	items []int32    // the heap of indices
	pos   []int32    // position of each index in items, -1 when absent
}

func (h *keyHeap) grow(n int) {
	for len(h.pos) < n {
		h.pos = append(h.pos, -1)
	}
}

func (h *keyHeap) len() int { return len(h.items) }

func (h *keyHeap) has(i int32) bool { return int(i) < len(h.pos) && h.pos[i] >= 0 }

func (h *keyHeap) top() int32 { return h.items[0] }

func (h *keyHeap) less(a, b int32) bool {
	ka, kb := (*h.key)[a], (*h.key)[b]
	return ka < kb || ka == kb && a < b
}

// push adds i, which must be absent.
func (h *keyHeap) push(i int32) {
	h.pos[i] = int32(len(h.items))
	h.items = append(h.items, i)
	h.up(len(h.items) - 1)
}

// fix restores the order after i's key changed.
func (h *keyHeap) fix(i int32) {
	j := int(h.pos[i])
	if !h.down(j) {
		h.up(j)
	}
}

// remove takes i out of the heap; i must be present.
func (h *keyHeap) remove(i int32) {
	j := int(h.pos[i])
	last := len(h.items) - 1
	if j != last {
		h.swap(j, last)
	}
	h.items = h.items[:last]
	h.pos[i] = -1
	if j != last {
		if !h.down(j) {
			h.up(j)
		}
	}
}

func (h *keyHeap) swap(a, b int) {
	h.items[a], h.items[b] = h.items[b], h.items[a]
	h.pos[h.items[a]] = int32(a)
	h.pos[h.items[b]] = int32(b)
}

func (h *keyHeap) up(j int) {
	for j > 0 {
		p := (j - 1) / 2
		if !h.less(h.items[j], h.items[p]) {
			break
		}
		h.swap(j, p)
		j = p
	}
}

// down sifts j down and reports whether it moved.
func (h *keyHeap) down(j0 int) bool {
	j, n := j0, len(h.items)
	for {
		l := 2*j + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h.less(h.items[r], h.items[l]) {
			c = r
		}
		if !h.less(h.items[c], h.items[j]) {
			break
		}
		h.swap(j, c)
		j = c
	}
	return j > j0
}

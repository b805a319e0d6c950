package network

import "math"

// group is the flows anchored at one link: those whose rate is set by
// the link's level, rate = level/penalty. Their progress is kept per
// group, not per flow: S is the integral of the level over time, and a
// flow ends when S reaches its target (S when it joined, plus its
// remaining bytes times its penalty). An event that changes the level
// touches the group, not its flows.
type group struct {
	level   float64 // +Inf while the link is no bottleneck
	s       float64 // ∫ level dt since the group was last empty
	sAt     float64 // the time s was brought to
	members []int32 // a heap of the member flows by target
}

// advance brings g's progress to now at its current level.
func (g *group) advance(now float64) {
	switch {
	case len(g.members) == 0:
		g.s = 0
	case now > g.sAt && !math.IsInf(g.level, 1):
		g.s += g.level * (now - g.sAt)
	}
	g.sAt = now
}

// memberHeap orders a group's members by target; pos[f] is f's index in
// its group's heap.
type memberHeap struct {
	target []float64
	pos    []int32
}

func (h memberHeap) less(items []int32, a, b int) bool {
	ta, tb := h.target[items[a]], h.target[items[b]]
	return ta < tb || ta == tb && items[a] < items[b]
}

func (h memberHeap) swap(items []int32, a, b int) {
	items[a], items[b] = items[b], items[a]
	h.pos[items[a]] = int32(a)
	h.pos[items[b]] = int32(b)
}

func (h memberHeap) push(items []int32, f int32) []int32 {
	h.pos[f] = int32(len(items))
	items = append(items, f)
	h.up(items, len(items)-1)
	return items
}

func (h memberHeap) remove(items []int32, f int32) []int32 {
	j := int(h.pos[f])
	last := len(items) - 1
	if j != last {
		h.swap(items, j, last)
	}
	items = items[:last]
	h.pos[f] = -1
	if j != last && !h.down(items, j) {
		h.up(items, j)
	}
	return items
}

func (h memberHeap) up(items []int32, j int) {
	for j > 0 {
		p := (j - 1) / 2
		if !h.less(items, j, p) {
			break
		}
		h.swap(items, j, p)
		j = p
	}
}

func (h memberHeap) down(items []int32, j0 int) bool {
	j, n := j0, len(items)
	for {
		l := 2*j + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h.less(items, r, l) {
			c = r
		}
		if !h.less(items, c, j) {
			break
		}
		h.swap(items, j, c)
		j = c
	}
	return j > j0
}

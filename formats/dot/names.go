package dot

import (
	"bytes"
	"hash/maphash"

	"github.com/netsched/netsched/models"
)

// dotNames numbers the IDs of a DOT file in order of first appearance: an
// open-addressing hash table over one byte array of every ID, with no
// pointers for the garbage collector to follow and one allocation per
// doubling instead of a string and a map entry per task.
type dotNames struct {
	text   []byte   // every ID as written, one after another
	end    []uint32 // ID i is text[end[i-1]:end[i]]
	quoted []bool   // whether ID i is a quoted string
	slots  []uint64 // hash<<32 | (ID+1), 0 when empty; a power of two long
	seed   maphash.Seed
}

// find returns the number of id, adding it when new (added).
func (t *dotNames) find(id []byte, quoted bool) (i int32, added bool) {
	if 2*(len(t.end)+1) > len(t.slots) {
		t.grow()
	}
	h := maphash.Bytes(t.seed, id)
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32 << 32
	for p := h & mask; ; p = (p + 1) & mask {
		slot := t.slots[p]
		if slot == 0 {
			i = int32(len(t.end))
			t.text = append(t.text, id...)
			t.end = append(t.end, uint32(len(t.text)))
			t.quoted = append(t.quoted, quoted)
			t.slots[p] = tag | uint64(i+1)
			return i, true
		}
		if slot>>32<<32 == tag {
			j := int32(uint32(slot) - 1)
			if bytes.Equal(t.at(j), id) {
				return j, false
			}
		}
	}
}

// at is ID i as written.
func (t *dotNames) at(i int32) []byte {
	start := uint32(0)
	if i > 0 {
		start = t.end[i-1]
	}
	return t.text[start:t.end[i]]
}

// grow doubles the table (first sizing it, with its seed).
func (t *dotNames) grow() {
	if t.slots == nil {
		t.seed = maphash.MakeSeed()
	}
	slots := make([]uint64, max(1024, 2*len(t.slots)))
	mask := uint64(len(slots) - 1)
	for _, slot := range t.slots {
		if slot == 0 {
			continue
		}
		j := int32(uint32(slot) - 1)
		h := maphash.Bytes(t.seed, t.at(j))
		p := h & mask
		for slots[p] != 0 {
			p = (p + 1) & mask
		}
		slots[p] = slot
	}
	t.slots = slots
}

// name gives every task its name: its ID, unquoted as gonum's decoder
// unquotes it, the bare ones sharing one string.
func (t *dotNames) name(tasks []models.Task) {
	all := string(t.text)
	start := uint32(0)
	for i := range tasks {
		id := all[start:t.end[i]]
		if t.quoted[i] {
			id = dotUnquote(id)
		}
		tasks[i].Name = id
		start = t.end[i]
	}
}

// dedupEdges keeps one edge per (from, to) pair, where gonum's builder
// keeps it: at the place of its first statement with the data of its last.
// It runs in O(n + e), grouping the edges by their source with a counting
// sort, and returns edges itself when no pair repeats. drops reports a
// repeated edge one of whose statements is marked in carries (an edge
// past its end is not); rep is the pair (from, to) of the first statement
// that repeats an earlier one, or {-1, -1}.
func dedupEdges(n int, edges []models.DAGEdge, carries []bool) (kept []models.DAGEdge, drops bool, rep [2]int) {
	rep = [2]int{-1, -1}
	var repAt int32
	marked := func(i int32) bool { return int(i) < len(carries) && carries[i] }
	start := make([]int32, n+1)
	for _, e := range edges {
		start[e.From+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	order := make([]int32, len(edges))
	fill := make([]int32, n)
	copy(fill, start[:n])
	for i, e := range edges {
		order[fill[e.From]] = int32(i)
		fill[e.From]++
	}
	seenFrom, firstAt := fill, make([]int32, n) // fill is free again: seenFrom[v] = u+1 when u -> v was seen
	clear(seenFrom)
	var dead []bool
	for u := range n {
		for _, i := range order[start[u]:start[u+1]] {
			v := edges[i].To
			if seenFrom[v] == int32(u)+1 {
				if rep[0] < 0 || i < repAt { // the first repeated statement, as gonum's decoder meets it
					rep, repAt = [2]int{u, v}, i
				}
				drops = drops || marked(i) || marked(firstAt[v])
				edges[firstAt[v]].Data = edges[i].Data
				if dead == nil {
					dead = make([]bool, len(edges))
				}
				dead[i] = true
				continue
			}
			seenFrom[v], firstAt[v] = int32(u)+1, i
		}
	}
	if dead == nil {
		return edges, false, rep
	}
	kept = edges[:0]
	for i, e := range edges {
		if !dead[i] {
			kept = append(kept, e)
		}
	}
	return kept, drops, rep
}

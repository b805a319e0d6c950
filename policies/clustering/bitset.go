package clustering

import "math/bits"

// bitset is a set of task indices, one bit per task.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) unset(i int)    { b[i>>6] &^= 1 << (uint(i) & 63) }

func (b bitset) reset() {
	for i := range b {
		b[i] = 0
	}
}

// intersects reports a common member of b and c.
func (b bitset) intersects(c bitset) bool {
	for i, w := range b {
		if w&c[i] != 0 {
			return true
		}
	}
	return false
}

// and sets b to x ∩ y.
func (b bitset) and(x, y bitset) {
	for i := range b {
		b[i] = x[i] & y[i]
	}
}

// andNot sets b to x ∖ y.
func (b bitset) andNot(x, y bitset) {
	for i := range b {
		b[i] = x[i] &^ y[i]
	}
}

// or adds the members of x to b.
func (b bitset) or(x bitset) {
	for i := range b {
		b[i] |= x[i]
	}
}

// remove takes the members of x out of b.
func (b bitset) remove(x bitset) {
	for i := range b {
		b[i] &^= x[i]
	}
}

// members appends the members of b to dst in increasing order.
func (b bitset) members(dst []int) []int {
	for wi, w := range b {
		for w != 0 {
			dst = append(dst, wi<<6|bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
	return dst
}

// first is the smallest member, or -1.
func (b bitset) first() int {
	for wi, w := range b {
		if w != 0 {
			return wi<<6 | bits.TrailingZeros64(w)
		}
	}
	return -1
}

// membersAt appends the members of the one-word set b, read as word i of a
// larger set.
func (b bitset) membersAt(dst []int, i int) []int {
	for w := b[0]; w != 0; w &= w - 1 {
		dst = append(dst, i<<6|bits.TrailingZeros64(w))
	}
	return dst
}

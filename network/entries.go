package network

// entries aggregates the active flows by pairs (link k, anchor m): how
// many flows cross link k with their bottleneck at link m, and the sum of
// their weights (1/penalty). The progressive filling works on these sums
// instead of on the flows, so that its cost per event grows with the
// number of pairs, not of flows: on a cluster where thousands of flows
// share a few bottlenecks there are far fewer pairs than flows.
type entries struct {
	list  []entry
	free  []int32
	index map[uint64]int32 // (k, m) → index in list
	rows  [][]int32        // per link k: its entries (k, ·)
	cols  [][]int32        // per anchor m: its entries (·, m)
	// per link k, the sums of its row: flows and weights (compensated)
	rowN       []int32
	rowW, rowC []float64
	anchored   []int32 // per link m: the flows anchored at it
}

// rowWeight is the sum of the weights of the flows crossing k.
func (es *entries) rowWeight(k int32) float64 { return es.rowW[k] + es.rowC[k] }

type entry struct {
	k, m         int32
	n            int32   // flows
	w, wc        float64 // Σ weights, compensated (Neumaier): the sum is w+wc
	rowAt, colAt int32   // index in rows[k] and cols[m]
}

func (e *entry) weight() float64 { return e.w + e.wc }

func (es *entries) grow(slots int) {
	if es.index == nil {
		es.index = make(map[uint64]int32)
	}
	for len(es.rows) < slots {
		es.rows = append(es.rows, nil)
		es.cols = append(es.cols, nil)
		es.rowN = append(es.rowN, 0)
		es.rowW = append(es.rowW, 0)
		es.rowC = append(es.rowC, 0)
		es.anchored = append(es.anchored, 0)
	}
}

func pairKey(k, m int32) uint64 { return uint64(uint32(k))<<32 | uint64(uint32(m)) }

// add counts a flow of weight w on link k anchored at m.
func (es *entries) add(k, m int32, w float64) {
	key := pairKey(k, m)
	i, ok := es.index[key]
	if !ok {
		if n := len(es.free); n > 0 {
			i = es.free[n-1]
			es.free = es.free[:n-1]
		} else {
			i = int32(len(es.list))
			es.list = append(es.list, entry{})
		}
		es.list[i] = entry{k: k, m: m, rowAt: int32(len(es.rows[k])), colAt: int32(len(es.cols[m]))}
		es.rows[k] = append(es.rows[k], i)
		es.cols[m] = append(es.cols[m], i)
		es.index[key] = i
	}
	e := &es.list[i]
	e.n++
	e.w, e.wc = neumaier(e.w, e.wc, w)
	es.count(k, m, 1, w)
}

// count adds n flows of weight w each to the sums of row k and anchor m.
func (es *entries) count(k, m, n int32, w float64) {
	es.rowN[k] += n
	if es.rowN[k] == 0 {
		es.rowW[k], es.rowC[k] = 0, 0
	} else {
		es.rowW[k], es.rowC[k] = neumaier(es.rowW[k], es.rowC[k], float64(n)*w)
	}
	if k == m {
		es.anchored[m] += n
	}
}

// sub takes away a flow of weight w on link k anchored at m.
func (es *entries) sub(k, m int32, w float64) {
	key := pairKey(k, m)
	i := es.index[key]
	e := &es.list[i]
	es.count(k, m, -1, w)
	e.n--
	if e.n > 0 {
		e.w, e.wc = neumaier(e.w, e.wc, -w)
		return
	}
	delete(es.index, key)
	es.rows[k] = removeAt(es.rows[k], e.rowAt, es.list, true)
	es.cols[m] = removeAt(es.cols[m], e.colAt, es.list, false)
	es.free = append(es.free, i)
}

// removeAt swap-removes index at from list, updating the moved entry's
// position (its rowAt, or its colAt).
func removeAt(list []int32, at int32, all []entry, row bool) []int32 {
	last := int32(len(list) - 1)
	if at != last {
		moved := list[last]
		list[at] = moved
		if row {
			all[moved].rowAt = at
		} else {
			all[moved].colAt = at
		}
	}
	return list[:last]
}

// neumaier adds x to the compensated sum (s, c).
func neumaier(s, c, x float64) (float64, float64) {
	t := s + x
	if abs(s) >= abs(x) {
		c += (s - t) + x
	} else {
		c += (x - t) + s
	}
	return t, c
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

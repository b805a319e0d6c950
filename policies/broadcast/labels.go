package broadcast

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// labeller computes canonical labels of the network in a search state by
// the tree-isomorphism algorithm of Aho, Hopcroft and Ullman (paper 004
// §4.1): leaves first, every node gets the number of the sorted list of
// its own key and its children's labels, so two nodes have equal labels
// exactly when their subtrees are isomorphic, keys included. The key of a
// node holds everything the search state says about it (§4.1's "link
// parameters turned into IDs", §4.4's holder marks): relay or participant,
// the bandwidth, latency and duplex of the edge to its parent in both
// directions, whether it holds the message and from when, and whether that
// edge still carries a reservation.
//
// The tree is rooted at its centre (a virtual root on the central edge
// when there are two centres), which every automorphism fixes, so labels
// also see the symmetry between a parent's side and a child's side (§4.2).
// Nodes are in one orbit of the automorphism group of the state when they
// and all their ancestors have pairwise equal labels.
type labeller struct {
	n        int     // tree nodes; the virtual root, if any, is node n
	root     int32   // centre, or n
	parent   []int32 // −1 at the root
	children [][]int32
	order    []int32 // breadth first from the root
	upCh     []int   // channel of the link to the parent (−1 at the root)
	downCh   []int   // channel of the link from the parent
	static   []int64 // per node: interned relay flag and parent-edge parameters

	// scratch, reused by every state
	own    []int64
	labels []int32
	orbits []int32
	dict   map[string]int32
	pairs  map[[2]int32]int32
	buf    []byte
	kids   []int32
	saved  []int32
}

// edgeSig is what makes two parent edges interchangeable: bandwidth and
// latency of the way up and down, and the capacity both share when half
// duplex.
type edgeSig struct {
	relay            bool
	upBW, upLat      float64
	downBW, downLat  float64
	sharedCap        float64 // 0 if full duplex
	root, virtualKid bool
}

func newLabeller(nw *treenet.Network) *labeller {
	lb := &labeller{n: nw.N, dict: map[string]int32{}, pairs: map[[2]int32]int32{}}
	centres := treenet.Centres(nw)
	size := nw.N
	if len(centres) == 2 {
		size++
	}
	lb.parent = make([]int32, size)
	lb.children = make([][]int32, size)
	lb.upCh = make([]int, size)
	lb.downCh = make([]int, size)
	link := make([]models.Link, size) // link from parent to node
	for i := range lb.parent {
		lb.parent[i], lb.upCh[i], lb.downCh[i] = -1, -1, -1
	}
	if len(centres) == 2 {
		lb.root = int32(nw.N)
		for _, h := range nw.Adj[centres[0]] {
			if h.To == centres[1] {
				link[centres[1]] = h.Link
				link[centres[0]] = models.Link{Edge: h.Link.Edge, Forward: !h.Link.Forward}
			}
		}
		for _, c := range centres {
			lb.parent[c] = lb.root
		}
		lb.children[lb.root] = []int32{int32(centres[0]), int32(centres[1])}
	} else {
		lb.root = int32(centres[0])
	}
	lb.order = []int32{lb.root}
	seen := make([]bool, size)
	seen[lb.root] = true
	for _, c := range lb.children[lb.root] {
		seen[c] = true
	}
	lb.order = append(lb.order, lb.children[lb.root]...)
	for k := 0; k < len(lb.order); k++ {
		u := lb.order[k]
		if int(u) == nw.N {
			continue
		}
		for _, h := range nw.Adj[u] {
			if !seen[h.To] {
				seen[h.To] = true
				lb.parent[h.To] = u
				link[h.To] = h.Link
				lb.children[u] = append(lb.children[u], int32(h.To))
				lb.order = append(lb.order, int32(h.To))
			}
		}
	}
	sigs := map[edgeSig]int64{}
	lb.static = make([]int64, size)
	for v := range size {
		var sig edgeSig
		switch {
		case int32(v) == lb.root:
			sig.root = true
			sig.relay = v == nw.N || nw.Tree.Nodes[v].Relay
		default:
			down := link[v]
			up := models.Link{Edge: down.Edge, Forward: !down.Forward}
			lb.upCh[v], lb.downCh[v] = nw.Routes.Channel(up), nw.Routes.Channel(down)
			sig = edgeSig{
				relay: nw.Tree.Nodes[v].Relay,
				upBW:  nw.Routes.Bandwidth(up), upLat: nw.Latency(up),
				downBW: nw.Routes.Bandwidth(down), downLat: nw.Latency(down),
				virtualKid: lb.parent[v] == int32(nw.N),
			}
			if lb.upCh[v] == lb.downCh[v] {
				sig.sharedCap = nw.Capacity[lb.upCh[v]]
			}
		}
		id, ok := sigs[sig]
		if !ok {
			id = int64(len(sigs))
			sigs[sig] = id
		}
		lb.static[v] = id
	}
	lb.own = make([]int64, size)
	lb.labels = make([]int32, size)
	lb.orbits = make([]int32, size)
	return lb
}

// labelState is what a state tells the labeller: for every node its ready
// class (0: does not hold the message; k > 0: holds it, class k of the
// holders' ready times) and, for every channel, whether a reservation on
// it is still live.
type labelState struct {
	class []int32
	live  []bool
}

// Key layout: static id, then the holder class; a live parent edge or a
// marked node gets a key of its own.
const classShift = 24

// setOwn computes every node's key from the state.
func (lb *labeller) setOwn(st labelState) {
	for v := range lb.own {
		if v == lb.n {
			lb.own[v] = -1
			continue
		}
		k := lb.static[v] | int64(st.class[v])<<classShift
		if up := lb.upCh[v]; up >= 0 && (st.live[up] || st.live[lb.downCh[v]]) {
			k = -int64(2 + v) // this edge carries traffic: the node is fixed
		}
		lb.own[v] = k
	}
}

// label computes the label of v from its key and its children's labels.
func (lb *labeller) label(v int32) int32 {
	lb.kids = lb.kids[:0]
	for _, c := range lb.children[v] {
		lb.kids = append(lb.kids, lb.labels[c])
	}
	slices.Sort(lb.kids)
	lb.buf = binary.LittleEndian.AppendUint64(lb.buf[:0], uint64(lb.own[v]))
	for _, l := range lb.kids {
		lb.buf = binary.LittleEndian.AppendUint32(lb.buf, uint32(l))
	}
	if id, ok := lb.dict[string(lb.buf)]; ok {
		return id
	}
	id := int32(len(lb.dict))
	lb.dict[string(lb.buf)] = id
	return id
}

// compute labels every node of the state, leaves first.
func (lb *labeller) compute(st labelState) {
	clear(lb.dict)
	lb.setOwn(st)
	for k := len(lb.order) - 1; k >= 0; k-- {
		v := lb.order[k]
		lb.labels[v] = lb.label(v)
	}
}

// computeOrbits numbers the orbits from the labels, root first.
func (lb *labeller) computeOrbits() []int32 {
	clear(lb.pairs)
	for _, v := range lb.order {
		key := [2]int32{-1, lb.labels[v]}
		if p := lb.parent[v]; p >= 0 {
			key[0] = lb.orbits[p]
		}
		id, ok := lb.pairs[key]
		if !ok {
			id = int32(len(lb.pairs))
			lb.pairs[key] = id
		}
		lb.orbits[v] = id
	}
	return lb.orbits
}

// orbitsFixing returns the orbits of the stabiliser of node s: s gets a
// key of its own and the labels of it and its ancestors are recomputed.
// The labels are restored afterwards; the returned slice is valid until
// the next call.
func (lb *labeller) orbitsFixing(s int) []int32 {
	lb.saved = lb.saved[:0]
	old := lb.own[s]
	lb.own[s] = math.MinInt64 + int64(s)
	for v := int32(s); v >= 0; v = lb.parent[v] {
		lb.saved = append(lb.saved, lb.labels[v])
		lb.labels[v] = lb.label(v)
	}
	orbits := lb.computeOrbits()
	lb.own[s] = old
	k := 0
	for v := int32(s); v >= 0; v = lb.parent[v] {
		lb.labels[v] = lb.saved[k]
		k++
	}
	return orbits
}

// staticClasses returns the orbits of the network with no holder and no
// traffic: classes every automorphism of every search state preserves.
func (lb *labeller) staticClasses(n int) []int32 {
	st := labelState{class: make([]int32, n+1), live: make([]bool, maxChannel(lb)+1)}
	lb.compute(st)
	return slices.Clone(lb.computeOrbits()[:n])
}

func maxChannel(lb *labeller) int {
	m := 0
	for v := range lb.upCh {
		m = max(m, lb.upCh[v], lb.downCh[v])
	}
	return m
}

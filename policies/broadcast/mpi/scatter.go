package mpi

import (
	"fmt"

	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// scatterAllgather builds MPICH's long-message MPI_Bcast (Thakur, Gropp
// et al.; MPICH-1 intra_fns_new.c and MPICH2 bcast.c): the root's buffer of
// nbytes is cut into p blocks of ⌈nbytes/p⌉ bytes, scattered over a
// binomial tree so that relative rank vr gets block vr, and gathered back
// to everyone by recursive doubling or by a ring. Each send carries a byte
// range; it follows the sends that delivered those bytes to its sender and
// starts after the sender's previous send. unit is bytes per model unit.
type scatterAllgather struct {
	nw     *treenet.Network
	p      int
	root   int     // rank
	nbytes int     // message in bytes
	block  int     // ⌈nbytes/p⌉
	unit   float64 // bytes per unit of the model
	sends  []treenet.Send
	from   [][]int // from[vr][b]: send that delivered block b to vr; −1 own; −2 missing
	last   []int   // last send of vr, for program order
	curr   []int   // MPICH's curr_size: bytes vr holds, from its tree root's offset
	recvSz []int   // MPICH's recv_size
}

const (
	ownBlock     = -1
	missingBlock = -2
)

func newScatterAllgather(nw *treenet.Network, root, nbytes int, unit float64) *scatterAllgather {
	p := len(nw.Parts)
	sa := &scatterAllgather{
		nw: nw, p: p, root: root, nbytes: nbytes, block: (nbytes + p - 1) / p, unit: unit,
		from: make([][]int, p), last: make([]int, p), curr: make([]int, p), recvSz: make([]int, p),
	}
	for vr := range p {
		sa.last[vr] = -1
		sa.from[vr] = make([]int, p)
		for b := range p {
			sa.from[vr][b] = missingBlock
			if vr == 0 {
				sa.from[vr][b] = ownBlock
			}
		}
	}
	sa.curr[0] = nbytes
	return sa
}

// emit adds a send of bytes [lo, lo+size) (clipped to the message) from
// relative rank a to b and returns the bytes sent.
func (sa *scatterAllgather) emit(a, b, lo, size int) (int, error) {
	hi := min(lo+size, sa.nbytes)
	if hi <= lo {
		return 0, nil
	}
	s := treenet.Send{
		From: sa.nw.Parts[fromRelative(a, sa.root, sa.p)], To: sa.nw.Parts[fromRelative(b, sa.root, sa.p)],
		Amount: float64(hi-lo) / sa.unit, Offset: float64(lo) / sa.unit, Prev: sa.last[a],
	}
	idx := len(sa.sends)
	for blk := lo / sa.block; blk*sa.block < hi; blk++ {
		switch d := sa.from[a][blk]; {
		case d == missingBlock:
			return 0, fmt.Errorf("rank %d sends block %d it does not hold", fromRelative(a, sa.root, sa.p), blk)
		case d >= 0 && (len(s.Deps) == 0 || s.Deps[len(s.Deps)-1] != d):
			s.Deps = append(s.Deps, d)
		}
		sa.from[b][blk] = idx
	}
	sa.sends = append(sa.sends, s)
	sa.last[a] = idx
	return hi - lo, nil
}

// scatter is the binomial scatter: relative rank vr forwards to vr+m, for
// m from half its lowest set bit down, everything beyond block vr+m−1 it
// holds.
func (sa *scatterAllgather) scatter() error {
	order := []int{0}
	for k := 0; k < len(order); k++ {
		vr := order[k]
		mask := 1
		for mask < sa.p && vr&mask == 0 {
			mask <<= 1
		}
		for mask >>= 1; mask > 0; mask >>= 1 {
			if vr+mask >= sa.p {
				continue
			}
			if size := sa.curr[vr] - sa.block*mask; size > 0 {
				sent, err := sa.emit(vr, vr+mask, sa.block*(vr+mask), size)
				if err != nil {
					return err
				}
				sa.curr[vr] -= sent
				sa.curr[vr+mask] = sent
			}
			order = append(order, vr+mask)
		}
	}
	return nil
}

// exchange is one lockstep step: every pair (a, b) sends what it must;
// the sends are computed from the state before the step.
type exchange struct{ a, b, lo, size int }

func (sa *scatterAllgather) apply(step []exchange) error {
	for _, x := range step {
		sent, err := sa.emit(x.a, x.b, x.lo, x.size)
		if err != nil {
			return err
		}
		sa.recvSz[x.b] = sent
	}
	for _, x := range step {
		sa.curr[x.b] += sa.recvSz[x.b]
	}
	return nil
}

// recursiveDoubling is MPICH's recursive-doubling allgather: in step i,
// vr exchanges everything it holds with vr XOR 2^i; when p is not a power
// of two, the processes whose partner is missing get the data by recursive
// halving inside their subtree (MPICH-1 rev. 1.21).
func (sa *scatterAllgather) recursiveDoubling() error {
	for mask, i := 1, 0; mask < sa.p; mask, i = mask<<1, i+1 {
		var step []exchange
		for vr := range sa.p {
			if dst := vr ^ mask; dst < sa.p {
				step = append(step, exchange{vr, dst, (vr >> i << i) * sa.block, sa.curr[vr]})
			}
		}
		if err := sa.apply(step); err != nil {
			return err
		}
		if err := sa.halving(mask, i); err != nil {
			return err
		}
	}
	return nil
}

// halving sends the data of step (mask, i) to the processes of a subtree
// whose partners did not exist.
func (sa *scatterAllgather) halving(mask, i int) error {
	type fix struct{ completed, offset int }
	fixes := make([]*fix, sa.p)
	for vr := range sa.p {
		myRoot, dstRoot := vr>>i<<i, (vr^mask)>>i<<i
		if dstRoot+mask > sa.p {
			fixes[vr] = &fix{completed: sa.p - myRoot - mask, offset: sa.block * (myRoot + mask)}
		}
	}
	k := i
	for tmp := mask >> 1; tmp > 0; tmp, k = tmp>>1, k-1 {
		var step []exchange
		for vr, f := range fixes {
			if f == nil {
				continue
			}
			dst, treeRoot := vr^tmp, vr>>k<<k
			if dst > vr && vr < treeRoot+f.completed && dst >= treeRoot+f.completed && dst < sa.p && fixes[dst] != nil {
				step = append(step, exchange{vr, dst, f.offset, sa.recvSz[vr]})
			}
		}
		if err := sa.apply(step); err != nil {
			return err
		}
	}
	return nil
}

// ring is MPICH's ring allgather: in step i, every process sends to its
// right neighbour the block it received in step i−1 (its own in step 1).
func (sa *scatterAllgather) ring() error {
	for i := 1; i < sa.p; i++ {
		var step []exchange
		for vr := range sa.p {
			blk := ((vr-(i-1))%sa.p + sa.p) % sa.p
			step = append(step, exchange{vr, (vr + 1) % sa.p, blk * sa.block, sa.block})
		}
		if err := sa.apply(step); err != nil {
			return err
		}
	}
	return nil
}

// build runs the scatter and the allgather and checks that every process
// ends with every byte.
func (sa *scatterAllgather) build(alg Algorithm) ([]treenet.Send, error) {
	if err := sa.scatter(); err != nil {
		return nil, err
	}
	var err error
	if alg == ScatterRing {
		err = sa.ring()
	} else {
		err = sa.recursiveDoubling()
	}
	if err != nil {
		return nil, err
	}
	for vr := range sa.p {
		for b := 0; b*sa.block < sa.nbytes; b++ {
			if sa.from[vr][b] == missingBlock {
				return nil, fmt.Errorf("%s: rank %d misses block %d", alg, fromRelative(vr, sa.root, sa.p), b)
			}
		}
	}
	return sa.sends, nil
}

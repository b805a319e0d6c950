// Package mpi holds the MPI_Bcast baselines of paper 004 §6.2 (Tables
// 5–6) as policies of the broadcast family: MPICH's binomial tree, its
// scatter-allgather and its selection rule (mpich-binomial,
// mpich-scatter-allgather, mpich), LAM/MPI 7's broadcast (lam) and the
// binary tree the paper attributes to LAM (binary-tree). Each builds its
// communication pattern over MPI ranks (participants in node order) and
// times it on the tree network as the optimal search places transfers
// (treenet.PlaceSends): every transfer at the earliest time it fits.
// It holds no search and no heuristic (package broadcast, package
// heuristic).
package mpi

import "math/bits"

// The MPI baselines of paper 004 §6.2 (Tables 5–6), as communication
// patterns over MPI ranks: participant k in node order is rank k, and every
// pattern is built on relative ranks vr = (rank − root) mod p, so moving
// the root rotates the pattern over the ranks (what §6.2 blames for
// MPICH's slow root-1 times).

// fromRelative maps a relative rank to a rank.
func fromRelative(vr, root, p int) int { return (vr + root) % p }

// binomialChildren is the binomial tree of MPICH's MPIR_Bcast (and of
// LAM/MPI 7's lam_basic bcast_log): relative rank vr receives from
// vr − lowbit(vr) and sends to vr + m for m = lowbit(vr)/2, ..., 1 (the
// root: from the largest power of two below p down), skipping ranks ≥ p.
func binomialChildren(p, root int) [][]int {
	children := make([][]int, p)
	for vr := range p {
		mask := 1
		for mask < p && vr&mask == 0 {
			mask <<= 1
		}
		for mask >>= 1; mask > 0; mask >>= 1 {
			if vr+mask < p {
				r := fromRelative(vr, root, p)
				children[r] = append(children[r], fromRelative(vr+mask, root, p))
			}
		}
	}
	return children
}

// linearChildren is LAM/MPI's bcast_lin: the root sends to every other
// rank, in rank order (not relative), all at once.
func linearChildren(p, root int) [][]int {
	children := make([][]int, p)
	for r := range p {
		if r != root {
			children[root] = append(children[root], r)
		}
	}
	return children
}

// lamMaxLinear is LAM_COLLMAXLIN: LAM/MPI broadcasts linearly up to this
// many processes, with the binomial tree above (paper 004 says a binary
// tree; the source says binomial, see ../shared/papers/README.md).
const lamMaxLinear = 4

// lamChildren is LAM/MPI 7's MPI_Bcast.
func lamChildren(p, root int) [][]int {
	if p <= lamMaxLinear {
		return linearChildren(p, root)
	}
	return binomialChildren(p, root)
}

// binaryChildren is the binary tree paper 004 §6.2 attributes to LAM:
// relative rank vr sends to 2vr+1, then 2vr+2.
func binaryChildren(p, root int) [][]int {
	children := make([][]int, p)
	for vr := range p {
		r := fromRelative(vr, root, p)
		for _, c := range []int{2*vr + 1, 2*vr + 2} {
			if c < p {
				children[r] = append(children[r], fromRelative(c, root, p))
			}
		}
	}
	return children
}

// MPICH's thresholds (bytes and processes) for MPI_Bcast.
const (
	mpichShortMsg = 12288  // MPIR_BCAST_SHORT_MSG
	mpichLongMsg  = 524288 // MPIR_BCAST_LONG_MSG
	mpichMinProcs = 8      // MPIR_BCAST_MIN_PROCS
)

// Rule names MPICH's choice of MPI_Bcast algorithm.
type Rule string

// The selection rules of MPICH.
const (
	// Rule2004 is MPICH-1's intra_fns_new.c of 2003–2004 (rev. 1.21, the
	// generation of MPICH/SCore that paper 004 measured): the binomial tree
	// for messages under 12288 bytes on at most 8 processes, otherwise a
	// binomial scatter and a recursive-doubling allgather, with its
	// recursive-halving fix-up when p is not a power of two.
	Rule2004 Rule = "2004"
	// RuleCurrent is MPICH since 2005 (MPICH-1 1.2.7, MPICH2, and the
	// MPIR_CVAR_BCAST_* defaults of MPICH 4): the binomial tree for
	// messages under 12288 bytes or fewer than 8 processes; otherwise a
	// scatter followed by a recursive-doubling allgather for messages under
	// 524288 bytes on a power-of-two number of processes, and by a ring
	// allgather in every other case.
	RuleCurrent Rule = "current"
)

// Algorithm is an MPI_Bcast algorithm.
type Algorithm string

// MPICH's broadcast algorithms.
const (
	Binomial                 Algorithm = "binomial"
	ScatterRecursiveDoubling Algorithm = "scatter-recursive-doubling"
	ScatterRing              Algorithm = "scatter-ring"
)

// Select is MPICH's choice for nbytes bytes on p processes under a rule.
func (r Rule) Select(nbytes, p int) Algorithm {
	pof2 := p > 0 && bits.OnesCount(uint(p)) == 1
	switch r {
	case Rule2004:
		if nbytes < mpichShortMsg && p <= mpichMinProcs {
			return Binomial
		}
		return ScatterRecursiveDoubling
	default:
		switch {
		case nbytes < mpichShortMsg || p < mpichMinProcs:
			return Binomial
		case nbytes < mpichLongMsg && pof2:
			return ScatterRecursiveDoubling
		}
		return ScatterRing
	}
}

// allgather is the allgather that follows the scatter under a rule (the
// choice Select makes when it does not pick the binomial tree).
func (r Rule) allgather(nbytes, p int) Algorithm {
	if r == Rule2004 {
		return ScatterRecursiveDoubling
	}
	if nbytes < mpichLongMsg && p > 0 && bits.OnesCount(uint(p)) == 1 {
		return ScatterRecursiveDoubling
	}
	return ScatterRing
}

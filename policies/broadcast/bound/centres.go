package bound

import (
	"context"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
)

// centres bounds the completion of a branch beyond a direction x→w that
// holds no copy, by where its feeds can land.
//
// Proof. A feed is a transfer that crosses x→w, so into the branch; in
// the search's space every transfer informs a non-holder, so the branch's
// feeds inform distinct participants p_1, p_2, ..., p_K (K ≥ 1, at most
// the branch's participants), numbered by the end T_j of their
// reservations on x→w. Feed j arrives at p_j at T_j + lat(w, p_j): the
// reservation on a link ends D/b after the transfer's start plus the
// latencies up to and including the link, and the transfer arrives D/b
// after its start plus all latencies. Follow back the transfers that
// informed a participant q of the branch: the first one that crossed x→w
// is some feed j, and every later one stays inside the branch (the path
// between two participants of a branch does), so q is informed at ≥ T_j +
// lat(w, p_j) + cost(p_j, q), cost being a metric (along a tree path the
// latencies add up and the least bandwidth of a path is at least the
// least of two paths covering it). When every feed takes the whole
// capacity of x→w (seq), feeds cannot overlap there and T_j ≥ T_1 +
// (j−1)·sp with sp = D/cap; otherwise sp = 0. So the branch is complete at
//
//	≥ T_K + lmin, lmin the least lat(w, p) over the branch, and
//	≥ T_1 + r_K, r_K the least over ordered p_1..p_K of the latest of
//	  (j−1)·sp + lat(w, p_j) (the feeds' own arrivals) and, for every
//	  other q, min over j of (j−1)·sp + lat(w, p_j) + cost(p_j, q),
//
// for the K of the schedule: at least the least over K of the larger of
// the two. K = 1 is the branch's cint, which is larger (it adds the
// spreading from one holder); for K ≥ 2 the radii are computed exactly by
// enumeration on branches small enough, and for K beyond them only the
// first bound is used, with T_K ≥ T_1 + (K−1)·sp.
type centres struct {
	lmin  float64
	sp    float64
	r     []float64 // r[K−2] for K = 2, 3, ...: the radius with K feeds
	parts int
}

// after bounds the completion of the branch, K ≥ 2 feeds, when its first
// feed ends at first and its K-th no earlier than later[K−2] (the last
// element for larger K): +Inf when it has a single participant.
func (c *centres) after(first float64, later []float64) float64 {
	best := math.Inf(1)
	for j, r := range c.r {
		if j+2 > c.parts {
			return best
		}
		e := later[min(j, len(later)-1)]
		best = math.Min(best, math.Max(e+c.lmin, first+r))
	}
	if K := len(c.r) + 2; K <= c.parts {
		e := later[min(K-2, len(later)-1)]
		best = math.Min(best, math.Max(e, first+float64(K-1)*c.sp)+c.lmin)
	}
	return best
}

// equal reports whether two branches' centres bound alike.
func (c *centres) equal(o *centres) bool {
	return c.lmin == o.lmin && c.sp == o.sp && c.parts == o.parts && slices.Equal(c.r, o.r)
}

// centreBudget caps the work of computing radii, over the whole tree, in
// evaluations of one participant's arrival.
const centreBudget = 3e6

// maxCentres is the largest K whose radius is computed.
const maxCentres = 3

// setCentres computes every direction's radii with K = 2, 3, ... feeds
// while the enumeration fits in the budget, smallest branches first (lmin
// and sp are branch's), then its kfill; beyond lists the participants
// beyond every direction.
func (b *Bounder) setCentres(ctx context.Context, beyond [][]int) error {
	ids := make([]int, len(b.dirs))
	for id := range ids {
		ids[id] = id
	}
	slices.SortFunc(ids, func(x, y int) int { return b.dirs[x].parts - b.dirs[y].parts })
	spent := 0.0
	for K := 2; K <= maxCentres; K++ {
		for _, id := range ids {
			if err := ctx.Err(); err != nil {
				return err
			}
			d := &b.dirs[id]
			if d.parts < K || len(d.centres.r) != K-2 {
				continue
			}
			cost := math.Pow(float64(d.parts), float64(K+1))
			if spent+cost > centreBudget {
				break
			}
			spent += cost
			_, w := b.ends(linkOf(id))
			d.centres.r = append(d.centres.r, b.radius(w, beyond[id], K, d.centres.sp))
		}
	}
	for id := range b.dirs {
		d := &b.dirs[id]
		later := make([]float64, len(d.centres.r)+1)
		for j := range later {
			later[j] = float64(j+1) * d.centres.sp
		}
		d.kfill = math.Min(d.cint, d.centres.after(0, later))
	}
	return nil
}

// linkOf is the link of a direction number (see dirID).
func linkOf(id int) models.Link { return models.Link{Edge: id / 2, Forward: id%2 == 0} }

// radius is r_K of the branch beyond a direction into w (see centres), by
// enumerating the feeds' receivers: ordered when sp > 0, as sets when
// feeds may overlap.
func (b *Bounder) radius(w int, beyond []int, K int, sp float64) float64 {
	nw := b.nw
	m := len(beyond)
	cur := make([][]float64, K+1) // cur[j][i]: arrival of beyond[i] from the first j feeds
	cur[0] = make([]float64, m)
	for i := range cur[0] {
		cur[0][i] = math.Inf(1)
	}
	for j := 1; j <= K; j++ {
		cur[j] = make([]float64, m)
	}
	isCentre := make([]bool, m)
	best := math.Inf(1)
	var pick func(j, from int, own float64)
	pick = func(j, from int, own float64) {
		if own >= best {
			return
		}
		if j == K {
			r := own
			for i, t := range cur[K] {
				if !isCentre[i] {
					r = math.Max(r, t)
				}
			}
			best = math.Min(best, r)
			return
		}
		off := float64(j) * sp
		start := 0
		if sp == 0 {
			start = from
		}
		for c := start; c < m; c++ {
			if isCentre[c] {
				continue
			}
			p := beyond[c]
			at := off + b.lat[w][p]
			for i, q := range beyond {
				cur[j+1][i] = math.Min(cur[j][i], at+nw.Cost[p][q])
			}
			isCentre[c] = true
			pick(j+1, c+1, math.Max(own, at))
			isCentre[c] = false
		}
	}
	pick(0, 0, math.Inf(-1))
	return best
}

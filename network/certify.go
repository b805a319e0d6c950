package network

import (
	"fmt"
	"math"
)

// Share is an active flow's part of an allocation.
type Share struct {
	ID      int     // the flow's ID in its Sim
	Route   []int   // the links it crosses
	Rate    float64 // bytes per second
	Penalty float64 // its sharing penalty (Sharing.Penalty)
	Bound   float64 // its rate bound, +Inf for none
}

// Allocation is the rates of the active flows of a network at one time.
type Allocation []Share

// Loads is the load of each of n links under a: the sum of the rates of
// the flows that cross it.
func (a Allocation) Loads(n int) []float64 {
	load := make([]float64, n)
	for _, f := range a {
		for _, l := range f.Route {
			load[l] += f.Rate
		}
	}
	return load
}

// CertTol is the relative tolerance of Certify: a load up to
// capacity×(1+CertTol) is within capacity, and a link loaded to
// capacity×(1−CertTol) is saturated.
const CertTol = 1e-12

// Certify checks that a is the max-min fair allocation of n's links
// (weighted by 1/penalty, within the bounds), without trusting whoever
// computed it: every rate is ≥ 0 and within its bound, no link carries
// more than its capacity, and every flow not at its bound has a bottleneck,
// a saturated link of its route on which its rate×penalty is the largest.
// Such an allocation is the unique max-min fair one (Bertsekas and
// Gallager, Data Networks, §6.5.2). Comparisons are to CertTol relative.
// The error names the first flow or link at fault.
func Certify(n *Network, a Allocation) error {
	load := a.Loads(len(n.Links))
	for l, x := range load {
		if c := n.Links[l].Bandwidth; x > c*(1+CertTol) {
			return fmt.Errorf("link %d carries %v, above its capacity %v", l, x, c)
		}
	}
	top := make([]float64, len(n.Links)) // the largest rate×penalty on each link
	for _, f := range a {
		if !(f.Rate >= 0) || f.Rate > f.Bound*(1+CertTol) {
			return fmt.Errorf("flow %d has rate %v, outside [0, %v]", f.ID, f.Rate, f.Bound)
		}
		for _, l := range f.Route {
			top[l] = max(top[l], f.Rate*f.Penalty)
		}
	}
	for _, f := range a {
		if f.Rate >= f.Bound*(1-CertTol) {
			continue
		}
		if !hasBottleneck(n, f, load, top) {
			return fmt.Errorf("flow %d (rate %v) has no bottleneck: no saturated link of its route %v where its share is the largest", f.ID, f.Rate, f.Route)
		}
	}
	return nil
}

// hasBottleneck reports whether f's route has a saturated link on which
// f's rate×penalty is the largest.
func hasBottleneck(n *Network, f Share, load, top []float64) bool {
	x := f.Rate * f.Penalty
	for _, l := range f.Route {
		saturated := load[l] >= n.Links[l].Bandwidth*(1-CertTol)
		if saturated && x >= top[l]*(1-CertTol) && !math.IsNaN(x) {
			return true
		}
	}
	return false
}

package network

import (
	"fmt"
	"math"
)

// Sharing is a bandwidth sharing model: it gives each flow, from its
// route's latency, a penalty and a bound. The solver equalises
// rate×penalty among the flows a saturated link freezes (so shares are
// weighted by 1/penalty) and never gives a flow more than its bound.
type Sharing interface {
	// Name is the model's name on the command line: "maxmin", "cm02".
	Name() string
	// Penalty is the sharing penalty of a flow whose route has latency
	// lat: a finite number > 0.
	Penalty(lat float64) float64
	// Bound is the largest rate of a flow whose route has latency lat,
	// +Inf for none.
	Bound(lat float64) float64
}

// MaxMin is unweighted max-min sharing: every flow has penalty 1 and no
// bound.
var MaxMin Sharing = maxMin{}

type maxMin struct{}

func (maxMin) Name() string            { return "maxmin" }
func (maxMin) Penalty(float64) float64 { return 1 }
func (maxMin) Bound(float64) float64   { return math.Inf(1) }

// DefaultGamma is SimGrid's default TCP window size, network/TCP-gamma,
// in bytes.
const DefaultGamma = 4194304

// CM02 is SimGrid's CM02 network model with correction factors 1 and
// weight-S 0 (SimGrid's network_cm02.cpp): a flow's penalty is its route's
// latency, so shares are weighted by 1/latency, and its rate is bounded by
// Gamma/(2·latency), the TCP window over the round-trip time. As in
// SimGrid, a flow whose route has latency 0 has penalty 1 and no bound.
type CM02 struct {
	Gamma float64 // TCP window in bytes; 0 turns the bound off
}

// Name is "cm02".
func (CM02) Name() string { return "cm02" }

// Penalty is lat, or 1 when lat is 0.
func (CM02) Penalty(lat float64) float64 {
	if lat > 0 {
		return lat
	}
	return 1
}

// Bound is Gamma/(2·lat), or +Inf when lat or Gamma is 0.
func (m CM02) Bound(lat float64) float64 {
	if lat > 0 && m.Gamma > 0 {
		return m.Gamma / (2 * lat)
	}
	return math.Inf(1)
}

// ParseSharing returns the model of a name: "maxmin", or "cm02" with
// DefaultGamma.
func ParseSharing(name string) (Sharing, error) {
	switch name {
	case "maxmin":
		return MaxMin, nil
	case "cm02":
		return CM02{Gamma: DefaultGamma}, nil
	}
	return nil, fmt.Errorf("unknown sharing model %q (want maxmin or cm02)", name)
}

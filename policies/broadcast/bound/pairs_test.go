package bound

import (
	"math"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestPairOfAStar checks pairBound by hand: x holds the message and
// reaches a and b through a switch w, every link of bandwidth 1 and
// latency 0.1 (cost 1.2 between any two participants). Each of a and b
// alone is informed at 1.2; both transfers from x cross x→w at its whole
// capacity, so one of them starts 1 after the other and arrives at 2.2,
// and the relay through a arrives at 1.2 + 1.2 = 2.4: the pair is
// complete at ≥ 2.2, the optimum.
func TestPairOfAStar(t *testing.T) {
	nw := starNetwork(t, models.LinkParams{Bandwidth: 1, Latency: 0.1}, "a", "b")
	k := newTracked(t, nw)
	b, st := k.b, k.state(math.Inf(1))
	b.chans.stamp++
	if got := b.arr.arrivalBound(st); !approx(got, 1.2) {
		t.Errorf("arrivalBound = %g, want 1.2", got)
	}
	if got := b.pairs.pairBound(st); !approx(got, 2.2) {
		t.Errorf("pairBound = %g, want 2.2", got)
	}
}

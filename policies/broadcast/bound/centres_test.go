package bound

import (
	"context"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestCentresOfAStar checks the centres of a branch by hand: x feeds a
// switch w over a link of bandwidth 1 and latency 0 (so feeds are
// exclusive on it, sp = 1), and w serves a, b and c over links of
// bandwidth 1 and latency 0.1 (cost 1.2 between any two of them). With
// two feeds the second lands 1 after the first, and the third participant
// is informed at ≥ 0.1 + 1.2 from the first: r_2 = 1.3. With three, the
// third feed lands at 2 + 0.1: r_3 = 2.1. One feed must inform two more
// from one holder whose uplink carries one transfer at a time: cint = 0.1
// + 1 + 1.2 = 2.3. So the branch is complete at ≥ 1.3 after its first feed.
func TestCentresOfAStar(t *testing.T) {
	nw := starNetwork(t, models.LinkParams{Bandwidth: 1}, "a", "b", "c")
	b, err := New(context.Background(), nw)
	if err != nil {
		t.Fatal(err)
	}
	d := b.dirs[dirID(models.Link{Edge: 0, Forward: true})]
	c := d.centres
	want := centres{lmin: 0.1, sp: 1, r: []float64{1.3, 2.1}, parts: 3}
	if !approx(c.lmin, want.lmin) || !approx(c.sp, want.sp) || c.parts != want.parts || len(c.r) != len(want.r) ||
		!approx(c.r[0], want.r[0]) || !approx(c.r[1], want.r[1]) {
		t.Errorf("centres %+v, want %+v", c, want)
	}
	if !approx(d.cint, 2.3) || !approx(d.kfill, 1.3) {
		t.Errorf("cint %g, kfill %g; want 2.3 and 1.3", d.cint, d.kfill)
	}
	// First feed at 5, the second and third no earlier than 6 and 7.5:
	// two feeds give ≥ max(6 + 0.1, 5 + 1.3), three ≥ max(7.5 + 0.1, 5 +
	// 2.1), and there is no fourth. With the second at 6.5, two give 6.6.
	if got := c.after(5, []float64{6, 7.5, 9}); !approx(got, 6.3) {
		t.Errorf("after(5, 6, 7.5, 9) = %g, want 6.3", got)
	}
	if got := c.after(5, []float64{6.5, 8}); !approx(got, 6.6) {
		t.Errorf("after(5, 6.5, 8) = %g, want 6.6", got)
	}
}

package multicluster

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
)

// randomSides draws a cluster's two sides for intraSchedule on [0, 1]: the
// tight side's busy times are consecutive pieces of one uplink (with idle
// gaps), each tight need fits beside its busy time (some exactly), and the
// free side carries the same total in needs of at most 1.
func randomSides(rng *rand.Rand) (tight, free []portUse) {
	nt := 1 + rng.IntN(8)
	t := 0.0
	total := 0.0
	for k := range nt {
		pu := portUse{proc: k}
		if rng.IntN(4) > 0 && t < 1 {
			for range 1 + rng.IntN(3) {
				t += rng.Float64() * 0.1 * float64(rng.IntN(2)) // idle gap, or none
				d := rng.Float64() * 0.3
				if t+d > 1 {
					d = 1 - t
				}
				if d > 0 {
					pu.busy = append(pu.busy, span{t, t + d})
					t += d
				}
			}
		}
		room := 1.0
		for _, b := range pu.busy {
			room -= b.t1 - b.t0
		}
		pu.need = room
		if rng.IntN(3) > 0 {
			pu.need = room * rng.Float64()
		}
		total += pu.need
		tight = append(tight, pu)
	}
	for k := 0; total > 1e-12; k++ {
		d := min(total, rng.Float64())
		if rng.IntN(3) == 0 {
			d = min(total, 1)
		}
		free = append(free, portUse{proc: 100 + k, need: d})
		total -= d
	}
	return tight, free
}

// checkSides checks intraSchedule's spans and pairUp's pairs.
func checkSides(tight, free []portUse, ts, fs [][]span, pairs []pairing) error {
	const tol = 1e-9
	for side, spans := range [2][][]span{ts, fs} {
		uses := [2][]portUse{tight, free}[side]
		for k, ss := range spans {
			sum := 0.0
			for n, s := range ss {
				if s.t0 < -tol || s.t1 > 1+tol || s.t1 < s.t0 || (n > 0 && s.t0 < ss[n-1].t1-tol) {
					return fmt.Errorf("side %d entity %d: bad spans %v", side, k, ss)
				}
				for _, b := range uses[k].busy {
					if math.Min(s.t1, b.t1)-math.Max(s.t0, b.t0) > tol {
						return fmt.Errorf("tight %d: span %v overlaps its busy time %v", k, s, b)
					}
				}
				sum += s.t1 - s.t0
			}
			if math.Abs(sum-uses[k].need) > tol {
				return fmt.Errorf("side %d entity %d: spans total %g, needs %g", side, k, sum, uses[k].need)
			}
		}
	}
	// The pairs: each entity in at most one pair at a time, and the pairs
	// of an entity cover its spans.
	var got [2][]float64
	got[0], got[1] = make([]float64, len(tight)), make([]float64, len(free))
	for a, p := range pairs {
		got[0][p.tight] += p.t1 - p.t0
		got[1][p.free] += p.t1 - p.t0
		for b := a + 1; b < len(pairs); b++ {
			q := pairs[b]
			if (p.tight == q.tight || p.free == q.free) && math.Min(p.t1, q.t1)-math.Max(p.t0, q.t0) > tol {
				return fmt.Errorf("pairs %v and %v overlap", p, q)
			}
		}
	}
	for side, uses := range [2][]portUse{tight, free} {
		for k := range uses {
			if math.Abs(got[side][k]-uses[k].need) > 1e-8 {
				return fmt.Errorf("side %d entity %d: paired %g of %g", side, k, got[side][k], uses[k].need)
			}
		}
	}
	return nil
}

func TestIntraSchedule(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 20000
	if testing.Short() || !slowtest.Enabled() {
		n = 2000
	}
	balanced := 0
	for k := range n {
		tight, free := randomSides(rng)
		ts, fs, bal, err := intraSchedule(1, tight, free)
		if err != nil {
			t.Fatalf("case %d: %v\ntight %+v\nfree %+v", k, err, tight, free)
		}
		if bal {
			balanced++
		}
		if err := checkSides(tight, free, ts, fs, pairUp(ts, fs, 1e-12)); err != nil {
			t.Fatalf("case %d: %v\ntight %+v\nfree %+v", k, err, tight, free)
		}
	}
	t.Logf("%d cases, %d needed placeTightBalanced", n, balanced)
}

// TestIntraScheduleGap is a case where the rule of §4.2.1 lets the
// parallelism of the tight side spread by 2. In order of busy time, P0
// (little to send) gives priority to the busy times of P1 and P2, P1 to
// those of P2 and P3; P2 and P3 have full ports and must take everything
// but their own busy times, and the part of P3's busy time that P1 left
// at the least parallelism stays two below the most. placeTightBalanced
// places the same side within 1.
func TestIntraScheduleGap(t *testing.T) {
	tight := []portUse{
		{proc: 0, need: 0.2091906523677017, busy: []span{{0.01498009922507495, 0.26286181064245084}}},
		{proc: 1, need: 0.2863294202161157, busy: []span{{0.3053507919775761, 0.46039271633476053}}},
		{proc: 2, need: 0.7174720316981413, busy: []span{{0.46039271633476053, 0.7429206846366192}}},
		{proc: 3, need: 0.8400516590101418, busy: []span{{0.8400516590101418, 1}}},
	}
	free := []portUse{{proc: 100, need: 0.6017801678679178}, {proc: 101, need: 1}, {proc: 102, need: 0.02913773376771045},
		{proc: 103, need: 0.026071116694192265}, {proc: 104, need: 0.3960547449622799}}
	if _, err := placeTightGreedy(1, tight); err == nil || !strings.Contains(err.Error(), "spreads from 1 to 3") {
		t.Fatalf("the rule of §4.2.1: %v; want the parallelism spread from 1 to 3", err)
	}
	ts, fs, bal, err := intraSchedule(1, tight, free)
	if err != nil || !bal {
		t.Fatalf("intraSchedule: %v (balanced %v)", err, bal)
	}
	if lo, hi := profile(1, ts, 1e-12).levels(); hi-lo > 1 {
		t.Errorf("balanced placement spreads %d..%d", lo, hi)
	}
	if err := checkSides(tight, free, ts, fs, pairUp(ts, fs, 1e-12)); err != nil {
		t.Error(err)
	}
}

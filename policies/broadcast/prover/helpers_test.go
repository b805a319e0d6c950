package prover

import (
	"context"
	"math"
	"testing"

	"github.com/netsched/netsched/internal/tooltest"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/heuristic"
	"github.com/netsched/netsched/policies/broadcast/internal/timeindexed"
	"github.com/netsched/netsched/policies/broadcast/internal/treegen"
	"github.com/netsched/netsched/policies/broadcast/treenet"
)

// cadicalPath returns the cadical command (see tooltest.Path).
func cadicalPath(t *testing.T) string { t.Helper(); return tooltest.Path(t, timeindexed.CaDiCaL) }

// hardInstance is treegen.RandomHard's tree.
func hardInstance(tb testing.TB, seed uint64, parts int) policies.Instance {
	tb.Helper()
	in, err := treegen.RandomHard(seed, parts)
	if err != nil {
		tb.Fatal(err)
	}
	return in
}

// networkOf is the tree network of in.
func networkOf(tb testing.TB, in policies.Instance) *treenet.Network {
	tb.Helper()
	nw, err := treenet.NewNetwork(context.Background(), in)
	if err != nil {
		tb.Fatal(err)
	}
	return nw
}

// firstSchedule is the schedule the optimal search shares with the prover
// first: the best of fnf's and ecef's, each in time order and with
// backfill, ecef's on a tie, a backfilled one only where it is faster
// (see package broadcast's search.ecef and search.reported).
func firstSchedule(tb testing.TB, nw *treenet.Network) []treenet.Placement {
	tb.Helper()
	best, back := math.Inf(1), math.Inf(1)
	var bestMoves, backMoves []treenet.Placement
	for _, h := range []struct {
		plan           func(context.Context, *heuristic.Greedy) error
		ties, backfill bool
	}{{heuristic.FNF, false, true}, {heuristic.FNF, false, false}, {heuristic.ECEF, true, true}, {heuristic.ECEF, true, false}} {
		g := heuristic.New(nw)
		g.Backfill = h.backfill
		if err := h.plan(context.Background(), g); err != nil {
			tb.Fatal(err)
		}
		m := treenet.Makespan(g.Calendar().Moves)
		switch {
		case h.backfill && (m < back || m == back && h.ties):
			g.Calendar().InStartOrder()
			back, backMoves = m, g.Calendar().Moves
		case !h.backfill && (m < best || m == best && h.ties):
			best, bestMoves = m, g.Calendar().Moves
		}
	}
	if back < best {
		return backMoves
	}
	return bestMoves
}

func approx(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

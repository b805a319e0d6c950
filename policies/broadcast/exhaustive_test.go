package broadcast

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// exhaustive is the reference for the optimal policy: it enumerates every
// sequence of transfers from a holder to a non-holder, each started at the
// earliest time ≥ the previous start at which it fits (paper 004 §2.1),
// with no pruning but dropping a sequence once it is no better than the
// best complete one. It shares nothing with the search but sim's routes and
// reservation calendar.
func exhaustive(tr *models.Tree, size float64, roots []string) float64 {
	routes := replay.NewRoutes(tr)
	resv := routes.NewReservations()
	ready := make([]float64, len(tr.Nodes))
	var parts []int
	for v, n := range tr.Nodes {
		ready[v] = math.Inf(1)
		if !n.Relay {
			parts = append(parts, v)
		}
	}
	for _, r := range roots {
		v, _ := tr.NodeIndex(r)
		ready[v] = 0
	}
	missing := len(parts) - len(roots)
	best := math.Inf(1)
	var rec func(tLast, makespan float64)
	rec = func(tLast, makespan float64) {
		if missing == 0 {
			best = math.Min(best, makespan)
			return
		}
		for _, u := range parts {
			if math.IsInf(ready[u], 1) {
				continue
			}
			for _, v := range parts {
				if !math.IsInf(ready[v], 1) {
					continue
				}
				rt := routes.Route(u, v)
				dur := size / rt.Bandwidth
				start := resv.EarliestFit(math.Max(tLast, ready[u]), rt.Channels, rt.Offsets, dur, rt.Bandwidth)
				arrive := start + rt.Latency + dur
				if math.Max(makespan, arrive) >= best {
					continue
				}
				resv.Reserve(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
				ready[v] = arrive
				missing--
				rec(start, math.Max(makespan, arrive))
				missing++
				ready[v] = math.Inf(1)
				resv.Release(start, rt.Channels, rt.Offsets, dur, rt.Bandwidth)
			}
		}
	}
	rec(0, 0)
	return best
}

// randomInstance draws a tree with up to maxParts participants and one or
// two roots.
func randomInstance(seed uint64, maxParts int) (policies.Instance, error) {
	r := rand.New(rand.NewPCG(seed, 4))
	parts := 2 + r.IntN(maxParts-1)
	tr, err := models.RandomTree(seed, models.DefaultRandomTreeConfig(parts, r.IntN(4)))
	if err != nil {
		return policies.Instance{}, err
	}
	roots := []string{fmt.Sprint(r.IntN(parts))}
	if parts > 3 && r.IntN(5) == 0 {
		if second := fmt.Sprint(r.IntN(parts)); second != roots[0] {
			roots = append(roots, second)
		}
	}
	return instanceOf(tr, 1, roots...), nil
}

// symmetricInstance draws a tree with repeated parts, to exercise RCut
// and SCut: a switch with 2–3 copies of a random small subtree (a relay
// with 1–2 participants, or a lone participant), the root hanging off the
// switch or off one copy, and random link parameters shared by the copies.
func symmetricInstance(seed uint64, maxParts int) policies.Instance {
	r := rand.New(rand.NewPCG(seed, 5))
	cfg := models.DefaultRandomTreeConfig(1, 0)
	draw := func() models.LinkParams {
		return models.LinkParams{Bandwidth: cfg.Bandwidths[r.IntN(len(cfg.Bandwidths))], Latency: cfg.Latencies[r.IntN(len(cfg.Latencies))]}
	}
	duplex := func() models.Duplex {
		if r.IntN(3) == 0 {
			return models.HalfDuplex
		}
		return models.FullDuplex
	}
	tr := &models.Tree{Nodes: []models.TreeNode{{Name: "sw", Relay: true}}}
	parts := 0
	addPart := func() string {
		name := fmt.Sprint(parts)
		parts++
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: name})
		return name
	}
	copies, inner := 2+r.IntN(2), 1+r.IntN(2)
	for copies*(inner+1)+1 > maxParts && inner > 1 {
		inner--
	}
	relay := r.IntN(2) == 0 || inner > 1
	up, upD, in, inD := draw(), duplex(), draw(), duplex()
	var firstCopy string
	for c := range copies {
		top := "sw"
		if relay {
			top = fmt.Sprintf("g%d", c)
			tr.Nodes = append(tr.Nodes, models.TreeNode{Name: top, Relay: true})
			tr.Edges = append(tr.Edges, models.TreeEdge{A: "sw", B: top, LinkParams: up, Duplex: upD})
		}
		for range inner {
			p := addPart()
			if c == 0 && firstCopy == "" {
				firstCopy = top
			}
			e := models.TreeEdge{A: top, B: p, LinkParams: in, Duplex: inD}
			if !relay {
				e.LinkParams, e.Duplex = up, upD
			}
			tr.Edges = append(tr.Edges, e)
		}
	}
	root := addPart()
	at := "sw"
	if r.IntN(2) == 0 && firstCopy != "" {
		at = firstCopy
	}
	tr.Edges = append(tr.Edges, models.TreeEdge{A: at, B: root, LinkParams: draw(), Duplex: duplex()})
	return instanceOf(tr, 1, root)
}

// clusteredInstance draws a tree of clusters whose links differ widely in
// speed, so that copies leave and enter branches through links slower or
// faster than the rest of their way, which the small random trees seldom
// do: a chain of switches s0–s1–s2; the root's cluster at s0 (the root
// alone, or a relay with the root and another participant) and 2–3
// clusters (a lone participant, or a relay with 1–2) at s2, or now and
// then at s1; every link with a bandwidth of 1, 4 or 16; at most maxParts
// participants in all.
func clusteredInstance(seed uint64, maxParts int) policies.Instance {
	r := rand.New(rand.NewPCG(seed, 6))
	tr := &models.Tree{}
	edge := func(a, b string) {
		l := models.LinkParams{Bandwidth: []float64{1, 4, 16}[r.IntN(3)], Latency: []float64{0, 0.05, 0.2}[r.IntN(3)]}
		d := models.FullDuplex
		if r.IntN(4) == 0 {
			d = models.HalfDuplex
		}
		tr.Edges = append(tr.Edges, models.TreeEdge{A: a, B: b, LinkParams: l, Duplex: d})
	}
	node := func(name string, relay bool) string {
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: name, Relay: relay})
		return name
	}
	for k := range 3 {
		node(fmt.Sprintf("s%d", k), true)
		if k > 0 {
			edge(fmt.Sprintf("s%d", k-1), fmt.Sprintf("s%d", k))
		}
	}
	parts := 0
	cluster := func(at string, n int) {
		if n > 1 || r.IntN(2) == 0 {
			top := node(fmt.Sprintf("c%d", len(tr.Nodes)), true)
			edge(at, top)
			at = top
		}
		for range n {
			edge(at, node(fmt.Sprint(parts), false))
			parts++
		}
	}
	cluster("s0", 1+r.IntN(2))
	for range 2 + r.IntN(2) {
		at := "s2"
		if r.IntN(4) == 0 {
			at = "s1"
		}
		if n := min(1+r.IntN(2), maxParts-parts); n > 0 {
			cluster(at, n)
		}
	}
	return instanceOf(tr, 1, "0")
}

// twoSpeedInstance draws a small tree of the SMP kind, to exercise the
// bound's split on a port (splitBound): a backbone switch joined to a fast
// switch and, over a slow link, to a slow switch; the root's node (a
// relay with the root and another participant) and 1–2 other nodes under
// the fast switch, 1–2 nodes under the slow one, each node a relay with
// 1–2 participants (7 at most in all); fast links of bandwidth 4, slow
// ones of 1, participants' links of 16, latencies drawn.
func twoSpeedInstance(seed uint64, maxParts int) policies.Instance {
	r := rand.New(rand.NewPCG(seed, 7))
	d := newSMPDraw(r, maxParts, 4, 16)
	d.cluster("fast", 4, 2)
	for range 1 + r.IntN(2) {
		d.cluster("fast", 4, 1+r.IntN(2))
	}
	for range 1 + r.IntN(2) {
		d.cluster("slow", 1, 1+r.IntN(2))
	}
	return instanceOf(d.tr, 1, "0")
}

// smpMiniInstance draws a small tree of the SMP kind whose slow side holds
// as many nodes as it may, to exercise due times (dueBound): as
// twoSpeedInstance, with fast links of bandwidth 2, 4 or 8, participants'
// links 16 times as fast, and nodes of 1–2 participants under the fast
// switch or of 1–3 under the slow one, drawn until maxParts.
func smpMiniInstance(seed uint64, maxParts int) policies.Instance {
	r := rand.New(rand.NewPCG(seed, 11))
	fast := []float64{2, 4, 8}[r.IntN(3)]
	d := newSMPDraw(r, maxParts, fast, 16*fast)
	d.cluster("fast", fast, 2)
	for d.parts < maxParts {
		if r.IntN(2) == 0 {
			d.cluster("fast", fast, 1+r.IntN(2))
		} else {
			d.cluster("slow", 1, 1+r.IntN(3))
		}
	}
	return instanceOf(d.tr, 1, "0")
}

// smpDraw builds the small trees of the SMP kind: a backbone switch "bb"
// joined to a switch "fast" and, over a link of bandwidth 1, to a switch
// "slow"; nodes (relays) under them with participants on links of
// bandwidth shared; every latency drawn.
type smpDraw struct {
	r               *rand.Rand
	tr              *models.Tree
	parts, maxParts int
	shared          float64
}

func newSMPDraw(r *rand.Rand, maxParts int, fast, shared float64) *smpDraw {
	d := &smpDraw{r: r, tr: &models.Tree{}, maxParts: maxParts, shared: shared}
	bb, f, s := d.node("bb", true), d.node("fast", true), d.node("slow", true)
	d.edge(bb, f, fast)
	d.edge(bb, s, 1)
	return d
}

func (d *smpDraw) node(name string, relay bool) string {
	d.tr.Nodes = append(d.tr.Nodes, models.TreeNode{Name: name, Relay: relay})
	return name
}

func (d *smpDraw) edge(a, b string, bw float64) {
	l := models.LinkParams{Bandwidth: bw, Latency: []float64{0, 0.01, 0.05}[d.r.IntN(3)]}
	d.tr.Edges = append(d.tr.Edges, models.TreeEdge{A: a, B: b, LinkParams: l, Duplex: models.FullDuplex})
}

// cluster adds a node under switch sw over a link of bandwidth bw, with n
// participants (fewer where maxParts is reached).
func (d *smpDraw) cluster(sw string, bw float64, n int) {
	top := d.node(fmt.Sprintf("n%d", len(d.tr.Nodes)), true)
	d.edge(sw, top, bw)
	for range min(n, d.maxParts-d.parts) {
		d.edge(top, d.node(fmt.Sprint(d.parts), false), d.shared)
		d.parts++
	}
}

// wholeMessage are the baselines that move the whole message: optimal is
// never worse than them.
var wholeMessage = []string{"mpich-binomial", "lam", "binary-tree", "fnf", "ecef"}

func TestOptimalEqualsExhaustive(t *testing.T) {
	trees, maxParts := slowtest.Pick(120, 320), slowtest.Pick(7, 8)
	for seed := range uint64(trees + trees/4) {
		in, err := randomInstance(seed, maxParts)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case seed >= uint64(trees) && seed%3 == 0:
			in = clusteredInstance(seed, maxParts)
		case seed >= uint64(trees) && seed%3 == 1:
			in = twoSpeedInstance(seed, maxParts)
		case seed >= uint64(trees):
			in = smpMiniInstance(seed, maxParts)
		case seed%3 == 2:
			in = symmetricInstance(seed, maxParts)
		}
		want := exhaustive(in.Platform.Tree, 1, in.Problem.Broadcast.Roots)
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got := res.Schedule.Claimed
		if !approx(got, want) || !res.Proven {
			t.Errorf("seed %d (%d nodes, roots %v): optimal %.12g (proven %v), exhaustive %.12g",
				seed, len(in.Platform.Tree.Nodes), in.Problem.Broadcast.Roots, got, res.Proven, want)
		}
		checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
		checkBroadcast(t, in, res.Schedule)
		for _, name := range wholeMessage {
			if len(in.Problem.Broadcast.Roots) > 1 && name != "fnf" && name != "ecef" {
				continue
			}
			s := mustPlan(t, name, in)
			checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
			checkBroadcast(t, in, s)
			if s.Claimed < got*(1-1e-9) {
				t.Errorf("seed %d: %s %.12g beats optimal %.12g", seed, name, s.Claimed, got)
			}
		}
	}
}

// TestOptimalPruningsAgree runs every combination of the prunings (the
// transposition table and deepening included) on small
// random trees: all must find the same optimum.
func TestOptimalPruningsAgree(t *testing.T) {
	trees := slowtest.Pick(30, 80)
	for seed := range uint64(trees) {
		in, err := randomInstance(1000+seed, 6)
		if err != nil {
			t.Fatal(err)
		}
		if seed%2 == 1 {
			in = symmetricInstance(seed, 7)
		}
		want := math.NaN()
		for mask := range 128 {
			opt := Options{RCut: mask&1 != 0, SCut: mask&2 != 0, Bound: mask&4 != 0, Ties: mask&8 != 0, ECEF: mask&16 != 0,
				Transpose: mask&32 != 0, Deepen: mask&64 != 0}
			res, err := Optimal(context.Background(), in, opt)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(want) {
				want = res.Schedule.Claimed
			}
			if !approx(res.Schedule.Claimed, want) || !res.Proven {
				t.Errorf("seed %d options %+v: %.12g (proven %v), all off: %.12g", 1000+seed, opt, res.Schedule.Claimed, res.Proven, want)
			}
		}
	}
}

// TestTranspositionsAgree runs the search with the transposition table on
// random heterogeneous trees with relays of 8 participants (the hard
// family of issue 21, small enough for the exhaustive search): it must
// prove the exhaustive optimum, and the table must close states.
func TestTranspositionsAgree(t *testing.T) {
	trees := slowtest.Pick(8, 40)
	var hits int64
	for seed := range uint64(trees) {
		in, err := randomHardInstance(9000+seed, 8)
		if err != nil {
			t.Fatal(err)
		}
		want := exhaustive(in.Platform.Tree, 1, in.Problem.Broadcast.Roots)
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !approx(res.Schedule.Claimed, want) || !res.Proven {
			t.Errorf("seed %d: optimal %.12g (proven %v, %d transpositions), exhaustive %.12g", 9000+seed, res.Schedule.Claimed, res.Proven, res.Transposed, want)
		}
		hits += res.Transposed
	}
	if hits == 0 {
		t.Error("the transposition table closed no state")
	}
	t.Logf("%d states closed by the table", hits)
}

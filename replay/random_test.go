package replay

import (
	"context"
	"fmt"
	"github.com/netsched/netsched/internal/fixture"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"

	"github.com/netsched/netsched/internal/reservetest"
)

// randomActions makes up to 30 random actions on n nodes; each follows up
// to two earlier ones. kinds says which action kinds to draw.
func randomActions(rng *rand.Rand, n int, kinds []sim.ActionKind, node func() int) []sim.Action {
	acts := make([]sim.Action, 1+rng.IntN(30))
	for j := range acts {
		a := sim.Action{Kind: kinds[rng.IntN(len(kinds))], Amount: math.Round(rng.Float64()*50) / 10}
		if a.Kind == sim.Compute {
			a.Node = node()
		} else {
			a.From = rng.IntN(n)
			a.To = (a.From + 1 + rng.IntN(n-1)) % n
		}
		for range rng.IntN(3) {
			if j > 0 {
				if i := rng.IntN(j); !slices.Contains(a.After, i) {
					a.After = append(a.After, i)
				}
			}
		}
		acts[j] = a
	}
	return acts
}

// fullOverlap returns n processors whose compute rate communication does
// not change, so computations take Amount·γ: the fixed durations the
// reference recurrence needs.
func fullOverlap(rng *rand.Rand, n int, kinds []string) []models.Processor {
	ps := make([]models.Processor, n)
	for i := range ps {
		ps[i].Gamma = 0.5 + rng.Float64()
		ps[i].Overlap = map[string]float64{}
		for _, k := range kinds {
			ps[i].Overlap[k] = ps[i].Gamma
		}
	}
	return ps
}

// listReference computes ordered replay in closed form when durations are
// fixed and every action follows only earlier ones: in schedule order,
// each starts when what it follows has ended (+ lag) and the previous user
// of each of its resources has ended.
func listReference(acts []sim.Action, resources func(a *sim.Action) []string, dur func(a *sim.Action) float64, lag func(i, j int) float64) (starts, ends []float64) {
	starts, ends = make([]float64, len(acts)), make([]float64, len(acts))
	free := map[string]float64{}
	for j := range acts {
		a := &acts[j]
		t := 0.0
		for _, i := range a.After {
			t = max(t, ends[i]+lag(i, j))
		}
		rs := resources(a)
		for _, r := range rs {
			t = max(t, free[r])
		}
		starts[j], ends[j] = t, t+dur(a)
		for _, r := range rs {
			free[r] = ends[j]
		}
	}
	return starts, ends
}

func noLag(i, j int) float64 { return 0 }

// TestReplayOrderedMatchesReference checks ordered replay on crossbars,
// multi-clusters and the delay platform against listReference.
func TestReplayOrderedMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := 2 + rng.IntN(4)
		var p *models.Platform
		var res func(a *sim.Action) []string
		var dur func(a *sim.Action) float64
		lag := noLag
		kinds := []sim.ActionKind{sim.Compute, sim.Transfer}
		node := func() int { return rng.IntN(n) }
		switch trial % 4 {
		case 0, 1:
			duplex := []models.Duplex{models.HalfDuplex, models.FullDuplex}[trial%2]
			p = fixture.Crossbar(duplex, 0.1+rng.Float64(), rng.Float64()/4, fullOverlap(rng, n, models.CrossbarKinds)...)
			c := p.Crossbar
			res = func(a *sim.Action) []string {
				if a.Kind == sim.Compute {
					return []string{fmt.Sprint("proc", a.Node)}
				}
				if duplex == models.HalfDuplex {
					return []string{fmt.Sprint("port", a.From), fmt.Sprint("port", a.To)}
				}
				return []string{fmt.Sprint("send", a.From), fmt.Sprint("recv", a.To)}
			}
			dur = func(a *sim.Action) float64 {
				if a.Kind == sim.Compute {
					return a.Amount * c.Processors[a.Node].Gamma
				}
				return c.Alpha + a.Amount*c.Beta
			}
		case 2:
			ps := fullOverlap(rng, n+2, models.MultiClusterKinds)
			n += 2
			split := 1 + rng.IntN(n-1)
			mc := &models.MultiCluster{Beta: 2, Alpha: 0.1, Clusters: []models.Cluster{
				{Beta: 0.5, Processors: ps[:split]}, {Beta: 1, Processors: ps[split:]},
			}}
			p = &models.Platform{MultiCluster: mc}
			cl := func(i int) int { c, _, _ := mc.Locate(i); return c }
			res = func(a *sim.Action) []string {
				if a.Kind == sim.Compute {
					return []string{fmt.Sprint("proc", a.Node)}
				}
				r := []string{fmt.Sprint("send", a.From), fmt.Sprint("recv", a.To)}
				if cf, ct := cl(a.From), cl(a.To); cf != ct {
					r = append(r, fmt.Sprint("out", cf), fmt.Sprint("in", ct))
				}
				return r
			}
			dur = func(a *sim.Action) float64 {
				if a.Kind == sim.Compute {
					return a.Amount * ps[a.Node].Gamma
				}
				if cf := cl(a.From); cf == cl(a.To) {
					return mc.Alpha + a.Amount*mc.Clusters[cf].Beta
				}
				return mc.Alpha + a.Amount*mc.Beta
			}
		case 3:
			rho := rng.Float64() * 3
			p = &models.Platform{Delay: &models.Delay{Rho: rho}}
			kinds = []sim.ActionKind{sim.Compute}
			node = func() int { return rng.IntN(n) * 3 }
			res = func(a *sim.Action) []string { return []string{fmt.Sprint("proc", a.Node)} }
			dur = func(a *sim.Action) float64 { return a.Amount }
		}
		acts := randomActions(rng, n, kinds, node)
		if p.Delay != nil {
			lag = func(i, j int) float64 {
				if acts[i].Node != acts[j].Node {
					return p.Delay.Rho
				}
				return 0
			}
		}
		starts, ends := listReference(acts, res, dur, lag)
		r := mustReplay(t, p, &sim.Schedule{Actions: acts}, sim.Ordered)
		if len(r.Violations) != 0 {
			t.Fatalf("trial %d (%s): violations %v", trial, p.Kind(), r.Violations)
		}
		for j := range acts {
			if !fixture.Near(r.Starts[j], starts[j]) || !fixture.Near(r.Ends[j], ends[j]) {
				t.Fatalf("trial %d (%s): action %d %+v: replay [%g, %g], reference [%g, %g]",
					trial, p.Kind(), j, acts[j], r.Starts[j], r.Ends[j], starts[j], ends[j])
			}
		}
	}
}

// treeReference computes ordered replay on a tree independently of
// Reservations and Routes: in schedule order, each transfer starts at the
// first candidate time (its ready time, or a booking's end minus one of
// its offsets) at which usage, summed over the bookings and sampled inside
// every piece of each window, leaves room for its rate, and not before an
// earlier transfer sharing a link.
func treeReference(tr *models.Tree, acts []sim.Action) (starts, ends []float64) {
	type booking struct {
		link     [2]int // edge, direction (0 on a half-duplex edge)
		from, to float64
		bw       float64
	}
	var books []booking
	lastStart := map[[2]int]float64{}
	starts, ends = make([]float64, len(acts)), make([]float64, len(acts))
	for j, a := range acts {
		path := tr.Path(a.From, a.To)
		keys := make([][2]int, len(path))
		offs := make([]float64, len(path))
		caps := make([]float64, len(path))
		bw, lat := math.Inf(1), 0.0
		for i, l := range path {
			e := tr.Edges[l.Edge]
			keys[i], caps[i] = [2]int{l.Edge, 0}, e.Bandwidth
			if !l.Forward && e.Duplex != models.HalfDuplex {
				keys[i] = [2]int{l.Edge, 1}
				caps[i] = tr.Params(l).Bandwidth
			}
			lat += tr.Params(l).Latency
			offs[i] = lat
			bw = min(bw, tr.Params(l).Bandwidth, caps[i])
		}
		d := a.Amount / bw
		t0 := 0.0
		for _, i := range a.After {
			t0 = max(t0, ends[i])
		}
		for _, k := range keys {
			if s, ok := lastStart[k]; ok {
				t0 = max(t0, s)
			}
		}
		fits := func(s float64) bool {
			for i, k := range keys {
				lo, hi := s+offs[i], s+offs[i]+d
				cuts := []float64{lo, hi}
				for _, b := range books {
					cuts = append(cuts, b.from, b.to)
				}
				slices.Sort(cuts)
				for c := 0; c+1 < len(cuts); c++ {
					mid := (cuts[c] + cuts[c+1]) / 2
					if mid <= lo || mid >= hi || cuts[c+1]-cuts[c] < 1e-9 {
						continue
					}
					used := 0.0
					for _, b := range books {
						if b.link == k && b.from <= mid && mid < b.to {
							used += b.bw
						}
					}
					if used+bw > caps[i]*(1+1e-9) {
						return false
					}
				}
			}
			return true
		}
		s := reservetest.EarliestCandidate(t0, reservetest.BookingEnds(books, func(b booking) float64 { return b.to }), offs, fits)
		for i, k := range keys {
			books = append(books, booking{link: k, from: s + offs[i], to: s + offs[i] + d, bw: bw})
			lastStart[k] = s
		}
		starts[j], ends[j] = s, s+lat+d
	}
	return starts, ends
}

// randomTree makes a random tree of n nodes: node i > 0 hangs below a
// random earlier node; bandwidths 1–3, latencies 0–1, some edges half
// duplex or with a different reverse direction. Node 1 is a relay when
// n > 3.
func randomTree(rng *rand.Rand, n int) *models.Tree {
	tr := &models.Tree{}
	for i := range n {
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: fmt.Sprint("n", i), Relay: i == 1 && n > 3})
	}
	for i := 1; i < n; i++ {
		e := models.TreeEdge{A: fmt.Sprint("n", rng.IntN(i)), B: fmt.Sprint("n", i),
			LinkParams: models.LinkParams{Bandwidth: float64(1 + rng.IntN(3)), Latency: math.Round(rng.Float64()*10) / 10}}
		switch rng.IntN(3) {
		case 0:
			e.Duplex = models.HalfDuplex
		case 1:
			e.Reverse = &models.LinkParams{Bandwidth: float64(1 + rng.IntN(3)), Latency: 0.5}
		}
		tr.Edges = append(tr.Edges, e)
	}
	return tr
}

func TestReplayTreeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 300 {
		tr := randomTree(rng, 3+rng.IntN(5))
		var parts []int
		for i, nd := range tr.Nodes {
			if !nd.Relay {
				parts = append(parts, i)
			}
		}
		acts := randomActions(rng, len(parts), []sim.ActionKind{sim.Transfer}, nil)
		for j := range acts {
			acts[j].From, acts[j].To = parts[acts[j].From], parts[acts[j].To]
		}
		starts, ends := treeReference(tr, acts)
		r := mustReplay(t, &models.Platform{Tree: tr}, &sim.Schedule{Actions: acts}, sim.Ordered)
		for j := range acts {
			if !fixture.Near(r.Starts[j], starts[j]) || !fixture.Near(r.Ends[j], ends[j]) {
				t.Fatalf("trial %d: action %d %+v: replay [%g, %g], reference [%g, %g]\ntree %+v\nactions %+v",
					trial, j, acts[j], r.Starts[j], r.Ends[j], starts[j], ends[j], tr, acts)
			}
		}
	}
}

// TestReplayTimedReproducesOrdered replays random schedules in ordered
// mode, plans them at the simulated starts and ends, and replays them
// timed: every platform kind, with overlap-dependent compute rates, must
// give the same times and no violation.
func TestReplayTimedReproducesOrdered(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 300 {
		p, acts := randomPlatformActions(rng, trial)
		ord := mustReplay(t, p, &sim.Schedule{Actions: acts}, sim.Ordered)
		if len(ord.Violations) != 0 {
			t.Fatalf("trial %d (%s): ordered violations %v", trial, p.Kind(), ord.Violations)
		}
		plan := timed(ord.Starts, acts...)
		for j := range plan {
			plan[j].End = sim.Time(ord.Ends[j])
		}
		tim := mustReplay(t, p, &sim.Schedule{Actions: plan, Claimed: ord.Makespan}, sim.Timed)
		if !tim.OK() {
			t.Fatalf("trial %d (%s): timed replay of the ordered result: makespan %g vs %g, violations %v",
				trial, p.Kind(), tim.Makespan, ord.Makespan, tim.Violations)
		}
		checkTimesEqual(t, "end", tim.Ends, ord.Ends)
	}
}

// ratedProcessors returns n processors whose compute rate drops, each by
// a random factor, under most of the given communication kinds.
func ratedProcessors(rng *rand.Rand, n int, kinds []string) []models.Processor {
	ps := make([]models.Processor, n)
	for i := range ps {
		ps[i] = models.Processor{Gamma: 0.5 + rng.Float64(), Overlap: map[string]float64{}}
		for _, k := range kinds {
			if rng.IntN(3) > 0 {
				ps[i].Overlap[k] = ps[i].Gamma * (1 + 3*rng.Float64())
			}
		}
	}
	return ps
}

// randomPlatformActions draws a platform of each kind in turn (crossbar
// and multi-cluster with overlap-dependent rates, a tree, the delay
// platform) and random actions on it.
func randomPlatformActions(rng *rand.Rand, trial int) (*models.Platform, []sim.Action) {
	n := 2 + rng.IntN(4)
	kinds := []sim.ActionKind{sim.Compute, sim.Transfer}
	node := func() int { return rng.IntN(n) }
	var p *models.Platform
	switch trial % 4 {
	case 0:
		duplex := []models.Duplex{models.HalfDuplex, models.FullDuplex}[rng.IntN(2)]
		p = fixture.Crossbar(duplex, 0.5, 0.1, ratedProcessors(rng, n, models.CrossbarKinds)...)
	case 1:
		ps := ratedProcessors(rng, n+1, models.MultiClusterKinds)
		p = &models.Platform{MultiCluster: &models.MultiCluster{Beta: 2, Clusters: []models.Cluster{
			{Beta: 1, Processors: ps[:1]}, {Beta: 0.5, Processors: ps[1:]},
		}}}
		n++
	case 2:
		p, kinds, n = &models.Platform{Tree: randomTree(rng, 3)}, []sim.ActionKind{sim.Transfer}, 3
	case 3:
		p, kinds = &models.Platform{Delay: &models.Delay{Rho: 1.5}}, []sim.ActionKind{sim.Compute}
	}
	return p, randomActions(rng, n, kinds, node)
}

// Replays share no state: the same schedules replayed side by side in
// goroutines give the same results as one after another (run with -race).
func TestReplayConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	p := fixture.Crossbar(models.HalfDuplex, 0.5, 0.1, fullOverlap(rng, 4, models.CrossbarKinds)...)
	var scheds []*sim.Schedule
	for range 8 {
		scheds = append(scheds, &sim.Schedule{Actions: randomActions(rng, 4, []sim.ActionKind{sim.Compute, sim.Transfer}, func() int { return rng.IntN(4) })})
	}
	want := make([]*sim.Result, len(scheds))
	for i, s := range scheds {
		want[i] = mustReplay(t, p, s, sim.Ordered)
	}
	got := make([]*sim.Result, len(scheds))
	errs := make([]error, len(scheds))
	var wg sync.WaitGroup
	for i, s := range scheds {
		wg.Go(func() { got[i], errs[i] = Replay(context.Background(), p, s, sim.Ordered) })
	}
	wg.Wait()
	for i := range scheds {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !slices.Equal(got[i].Ends, want[i].Ends) || !slices.Equal(got[i].Trace.Intervals, want[i].Trace.Intervals) {
			t.Errorf("schedule %d: concurrent replay differs", i)
		}
	}
}

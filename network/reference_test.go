package network_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/internal/slowtest"
	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/flowgen"
)

// refReplay is the independent check of Replay: a deliberately plain
// simulation that recomputes every rate from scratch at every event with
// refRates, and advances every flow, with nothing incremental.
func refReplay(n *network.Network, flows []network.Flow, m network.Sharing) []float64 {
	type state int
	const (
		pending state = iota
		active
		done
	)
	st := make([]state, len(flows))
	act := make([]float64, len(flows))
	rem := make([]float64, len(flows))
	end := make([]float64, len(flows))
	for i, f := range flows {
		act[i] = f.Start + n.RouteLatency(f.Route)
		rem[i] = f.Size
	}
	t := 0.0
	for {
		for i := range flows {
			if st[i] == pending && act[i] <= t {
				st[i] = active
				if flows[i].Size == 0 {
					st[i], end[i] = done, t
				}
			}
		}
		var on []int
		for i := range flows {
			if st[i] == active {
				on = append(on, i)
			}
		}
		rates := refRates(n, flows, on, m)
		next := math.Inf(1)
		for i := range flows {
			if st[i] == pending {
				next = math.Min(next, act[i])
			}
		}
		for k, i := range on {
			next = math.Min(next, t+rem[i]/rates[k])
		}
		if math.IsInf(next, 1) {
			return end
		}
		for k, i := range on {
			finish := t + rem[i]/rates[k]
			rem[i] -= rates[k] * (next - t)
			if finish <= next*(1+1e-13) {
				st[i], end[i] = done, next
			}
		}
		t = next
	}
}

// refRates is textbook progressive filling: raise the level of every
// unfrozen flow by the largest step no link and no bound refuses, freeze
// the flows of the links that are then full and those at their bounds,
// and start again.
func refRates(n *network.Network, flows []network.Flow, on []int, m network.Sharing) []float64 {
	rate := make([]float64, len(on))
	frozen := make([]bool, len(on))
	pen := make([]float64, len(on))
	bound := make([]float64, len(on))
	for k, i := range on {
		lat := n.RouteLatency(flows[i].Route)
		pen[k], bound[k] = m.Penalty(lat), m.Bound(lat)
	}
	for {
		used := make([]float64, len(n.Links))
		weight := make([]float64, len(n.Links))
		left := 0
		for k, i := range on {
			for _, l := range flows[i].Route {
				used[l] += rate[k]
				if !frozen[k] {
					weight[l] += 1 / pen[k]
				}
			}
			if !frozen[k] {
				left++
			}
		}
		if left == 0 {
			return rate
		}
		step := math.Inf(1)
		for l, w := range weight {
			if w > 0 {
				step = math.Min(step, (n.Links[l].Bandwidth-used[l])/w)
			}
		}
		for k := range on {
			if !frozen[k] {
				step = math.Min(step, (bound[k]-rate[k])*pen[k])
			}
		}
		for k := range on {
			if !frozen[k] {
				rate[k] += step / pen[k]
			}
		}
		used = make([]float64, len(n.Links))
		for k, i := range on {
			for _, l := range flows[i].Route {
				used[l] += rate[k]
			}
		}
		for k, i := range on {
			if frozen[k] {
				continue
			}
			if rate[k] >= bound[k]*(1-1e-12) {
				frozen[k] = true
			}
			for _, l := range flows[i].Route {
				if used[l] >= n.Links[l].Bandwidth*(1-1e-12) {
					frozen[k] = true
				}
			}
		}
	}
}

// TestAgainstReference compares Replay with refReplay on generated
// stars, clusters, trees and dumbbells, under both models, to 1e-9
// relative: 300 instances of up to 40 flows, 3,000 of up to 150 under
// NETSCHED_SLOW=1.
func TestAgainstReference(t *testing.T) {
	seeds, maxFlows := slowtest.Pick(300, 3000), slowtest.Pick(40, 150)
	if testing.Short() {
		seeds = 60
	}
	models := []network.Sharing{network.MaxMin, network.CM02{Gamma: network.DefaultGamma}, network.CM02{Gamma: 1e4}}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 38))
		in := flowgen.Random(rng, maxFlows)
		for _, m := range models {
			times, err := network.Replay(context.Background(), &in.Network, in.Flows, m)
			if err != nil {
				t.Fatal(err)
			}
			want := refReplay(&in.Network, in.Flows, m)
			for i, tm := range times {
				if !closeRel(tm.End, want[i], 1e-9) {
					t.Fatalf("seed %d, %s (gamma %v), %d flows: flow %d ends at %v, the reference says %v",
						seed, m.Name(), gammaOf(m), len(in.Flows), i, tm.End, want[i])
				}
			}
		}
	}
}

func gammaOf(m network.Sharing) float64 {
	if c, ok := m.(network.CM02); ok {
		return c.Gamma
	}
	return 0
}

// TestAgainstReferenceLarge compares Replay with refReplay on instances
// of a few hundred flows, long enough for the solver to measure its
// components and use both ways of finding them: stars of many hosts where
// flows fall into many small components, and clusters where they form one.
func TestAgainstReferenceLarge(t *testing.T) {
	for seed := range slowtest.Pick(4, 20) {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		traffic := flowgen.Traffic{Flows: 200, Bursts: 50, Horizon: 2, MinSize: 1e5, MaxSize: 1e8, Sizes: seed % 2 * 3}
		for _, topo := range []flowgen.Topology{flowgen.Star(rng, 150), flowgen.RandomCluster(rng, 3, 6)} {
			in := flowgen.Generate(rng, topo, traffic)
			times, err := network.Replay(context.Background(), &in.Network, in.Flows, network.MaxMin)
			if err != nil {
				t.Fatal(err)
			}
			want := refReplay(&in.Network, in.Flows, network.MaxMin)
			for i, tm := range times {
				if !closeRel(tm.End, want[i], 1e-9) {
					t.Fatalf("seed %d, %s: flow %d ends at %v, the reference says %v", seed, topo.Name, i, tm.End, want[i])
				}
			}
		}
	}
}

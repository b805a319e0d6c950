package network_test

import (
	"math/rand/v2"
	"testing"

	"github.com/netsched/netsched/network"
	"github.com/netsched/netsched/network/flowgen"
)

// simulate drives a Sim over in's flows, calling check with the Sim
// between every two events.
func simulate(t *testing.T, in *network.Instance, m network.Sharing, check func(s *network.Sim)) {
	t.Helper()
	s, err := network.NewSim(&in.Network, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range in.Flows {
		if _, err := s.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	for next := s.Next(); next < 1e300; next = s.Next() {
		s.Advance(next)
		check(s)
	}
}

// TestCertifyEveryEvent certifies the allocation after every event of
// generated instances under both models.
func TestCertifyEveryEvent(t *testing.T) {
	for seed := range 40 {
		in := flowgen.Random(rand.New(rand.NewPCG(uint64(seed), 7)), 40)
		for _, m := range []network.Sharing{network.MaxMin, network.CM02{Gamma: network.DefaultGamma}} {
			events := 0
			simulate(t, in, m, func(s *network.Sim) {
				events++
				if err := network.Certify(&in.Network, s.Allocation()); err != nil {
					t.Fatalf("seed %d, %s, event %d: %v", seed, m.Name(), events, err)
				}
				loads := s.LinkLoads()
				want := s.Allocation().Loads(len(in.Links))
				for l := range loads {
					if !closeRel(loads[l], want[l], 1e-12) && loads[l] != want[l] {
						t.Fatalf("seed %d: LinkLoads[%d] = %v, the allocation's load is %v", seed, l, loads[l], want[l])
					}
				}
			})
		}
	}
}

// TestCertifyCatchesPerturbation perturbs one rate of correct allocations
// by 1e-9 relative, up or down: Certify must refuse every one.
func TestCertifyCatchesPerturbation(t *testing.T) {
	checked := 0
	for seed := range 20 {
		in := flowgen.Random(rand.New(rand.NewPCG(uint64(seed), 11)), 30)
		for _, m := range []network.Sharing{network.MaxMin, network.CM02{Gamma: network.DefaultGamma}} {
			simulate(t, in, m, func(s *network.Sim) {
				a := s.Allocation()
				for i := range a {
					for _, factor := range []float64{1 + 1e-9, 1 - 1e-9} {
						rate := a[i].Rate
						a[i].Rate *= factor
						if network.Certify(&in.Network, a) == nil {
							t.Fatalf("seed %d, %s: flow %d's rate %v times %v is certified", seed, m.Name(), a[i].ID, rate, factor)
						}
						a[i].Rate = rate
						checked++
					}
				}
			})
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d perturbations checked", checked)
	}
}

// TestCertifyHandMade checks Certify on allocations written by hand: two
// flows on a link of 10, one also on a link of 3.
func TestCertifyHandMade(t *testing.T) {
	n := &network.Network{Hosts: 3, Links: []network.Link{{Bandwidth: 10}, {Bandwidth: 3}}}
	share := func(id int, rate float64, route ...int) network.Share {
		return network.Share{ID: id, Route: route, Rate: rate, Penalty: 1, Bound: 1e300}
	}
	for _, tc := range []struct {
		a    network.Allocation
		fail bool
	}{
		{network.Allocation{share(0, 7, 0), share(1, 3, 0, 1)}, false},
		{network.Allocation{share(0, 5, 0), share(1, 5, 0, 1)}, true},  // link 1 above capacity
		{network.Allocation{share(0, 5, 0), share(1, 3, 0, 1)}, true},  // flow 0 has no bottleneck
		{network.Allocation{share(0, 6, 0), share(1, 3, 0, 1)}, true},  // nor here: link 0 not full
		{network.Allocation{share(0, 7, 0), share(1, 2, 0, 1)}, true},  // link 1 is not full
		{network.Allocation{share(0, 7, 0), share(1, -1, 0, 1)}, true}, // a negative rate
	} {
		err := network.Certify(n, tc.a)
		if (err != nil) != tc.fail {
			t.Errorf("%+v: got %v, want failure %v", tc.a, err, tc.fail)
		}
	}
}

package network_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/network"
)

// A flow of 2e8 bytes has a link of 1e8 bytes/s to itself until a flow of
// 5e7 bytes starts at 1: then they share it at 5e7 bytes/s each.
func ExampleReplay() {
	n := &network.Network{Hosts: 3, Links: []network.Link{{Bandwidth: 1e8, Latency: 0}}}
	flows := []network.Flow{
		{Src: 0, Dst: 2, Size: 2e8, Start: 0, Route: []int{0}},
		{Src: 1, Dst: 2, Size: 5e7, Start: 1, Route: []int{0}},
	}
	times, err := network.Replay(context.Background(), n, flows, network.MaxMin)
	if err != nil {
		panic(err)
	}
	for i, t := range times {
		fmt.Println(i, t.Start, t.Activation, t.End)
	}
	// Output:
	// 0 0 0 2.5
	// 1 1 1 2
}

// A calendar of its own drives a Sim: here a flow that starts when
// another ends, with the allocation certified at every event.
func ExampleSim() {
	n := &network.Network{Hosts: 3, Links: []network.Link{{Bandwidth: 1e8, Latency: 0.5}, {Bandwidth: 5e7, Latency: 0}}}
	s, err := network.NewSim(n, network.MaxMin)
	if err != nil {
		panic(err)
	}
	first, _ := s.Add(network.Flow{Src: 0, Dst: 1, Size: 5e7, Start: 0, Route: []int{0}})
	s.Add(network.Flow{Src: 1, Dst: 2, Size: 1e8, Start: 0, Route: []int{0, 1}})
	for t := s.Next(); t < 1e300; t = s.Next() {
		for _, e := range s.Advance(t) {
			fmt.Printf("flow %d ended at %v\n", e.ID, e.Time)
			if e.ID == first {
				s.Add(network.Flow{Src: 0, Dst: 2, Size: 5e7, Start: e.Time, Route: []int{1}})
			}
		}
		if err := network.Certify(n, s.Allocation()); err != nil {
			panic(err)
		}
	}
	// Output:
	// flow 0 ended at 1.5
	// flow 1 ended at 3.5
	// flow 2 ended at 3.5
}

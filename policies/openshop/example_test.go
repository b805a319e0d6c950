package openshop_test

import (
	"fmt"

	"github.com/netsched/netsched/policies/openshop"
)

// Two senders and two receivers, every node busy exactly 3: the four
// transfers fit in 3 without a node on two at once.
func ExampleSchedule() {
	edges := []openshop.Edge{{L: 0, R: 0, W: 1}, {L: 0, R: 1, W: 2}, {L: 1, R: 0, W: 2}, {L: 1, R: 1, W: 1}}
	pieces, err := openshop.Schedule(2, 2, edges, 3)
	if err != nil {
		panic(err)
	}
	for _, p := range pieces {
		e := edges[p.Edge]
		fmt.Printf("%d→%d during [%g, %g]\n", e.L, e.R, p.Start, p.End)
	}
	// Output:
	// 0→0 during [0, 1]
	// 1→1 during [0, 1]
	// 0→1 during [1, 3]
	// 1→0 during [1, 3]
}

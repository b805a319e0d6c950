package replay_test

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/replay"
)

// Two transfers on the chain a —(bandwidth 1, latency 1)— b —(1, 1)— c:
// b→c first, then a→c as early as it fits. a→c reserves a→b from s+1 and
// b→c from s+2, so it can start at 1, while b→c is still busy.
func ExampleRoutes() {
	lp := models.LinkParams{Bandwidth: 1, Latency: 1}
	tree := &models.Tree{
		Nodes: []models.TreeNode{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Edges: []models.TreeEdge{{A: "a", B: "b", LinkParams: lp}, {A: "b", B: "c", LinkParams: lp}},
	}
	routes := replay.NewRoutes(tree)
	resv := routes.NewReservations()
	const size = 2.0
	for _, tr := range [][2]int{{1, 2}, {0, 2}} {
		rt := routes.Route(tr[0], tr[1])
		d := size / rt.Bandwidth
		s := resv.EarliestFit(0, rt.Channels, rt.Offsets, d, rt.Bandwidth)
		resv.Reserve(s, rt.Channels, rt.Offsets, d, rt.Bandwidth)
		fmt.Printf("%s→%s starts at %g, arrives at %g\n", tree.Nodes[tr[0]].Name, tree.Nodes[tr[1]].Name, s, s+rt.Duration(size))
	}
	// Output:
	// b→c starts at 0, arrives at 3
	// a→c starts at 1, arrives at 5
}

package baseline

import (
	"context"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// pathTime is how long a transfer of size D takes from u to v on a tree
// (paper 004 §2): the latencies of the path plus D over its narrowest link.
func pathTime(t *models.Tree, u, v int, size float64) float64 {
	lat, bw := 0.0, math.Inf(1)
	for _, l := range t.Path(u, v) {
		p := t.Params(l)
		lat += p.Latency
		bw = min(bw, p.Bandwidth)
	}
	return lat + size/bw
}

// planFlatSequential has the first root send the message to every other
// participant that does not hold it yet, in node order, each transfer
// starting when the previous one has arrived. Only one transfer is ever in
// flight, so no link is shared and the claim is Σ_v (Σd + D/min b) over the
// paths from the root.
func planFlatSequential(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	if err := ctx.Err(); err != nil { // the registry admitted the instance
		return nil, err
	}
	t, b := in.Platform.Tree, in.Problem.Broadcast
	holds := map[int]bool{}
	for _, r := range b.Roots {
		i, _ := t.NodeIndex(r)
		holds[i] = true
	}
	root, _ := t.NodeIndex(b.Roots[0])
	s := sim.Recycled(in.Recycle, len(t.Nodes))
	s.Policy = "flat-sequential"
	prev := -1
	for v, node := range t.Nodes {
		if node.Relay || holds[v] {
			continue
		}
		a := sim.Action{Kind: sim.Transfer, From: root, To: v, Amount: b.Size, Start: s.Time(s.Claimed), Label: node.Name}
		if prev >= 0 {
			a.After = []int{prev}
		}
		prev = s.Add(a)
		s.Claimed += pathTime(t, root, v, b.Size)
	}
	return s, nil
}

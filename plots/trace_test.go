package plots

import (
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/sim"
)

// synthTrace builds a multi-round master–worker trace on procs processor
// lanes and links link lanes: P0 sends a chunk to every worker each round
// (one send at a time), a worker computes a chunk once it has it and
// receives the next chunk while computing, and every transfer reserves a
// link, so links carry several reservations at once. Deterministic in seed.
func synthTrace(procs, links, rounds int, seed uint64) *sim.Trace {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	tr := &sim.Trace{}
	for i := range procs {
		tr.AddLane(fmt.Sprintf("P%d", i))
	}
	linkLane := make([]int, links)
	for l := range links {
		linkLane[l] = tr.AddLane(fmt.Sprintf("link %d→%d", l, l+1))
	}
	free := make([]float64, procs) // when each worker's compute is free
	t := 0.0
	action := 0
	for r := range rounds {
		for w := 1; w < procs; w++ {
			size := 1 + rng.Float64()
			comm := 0.15 * size
			label := fmt.Sprintf("T%d.%d", r, w)
			tr.Record(sim.Interval{Lane: 0, Kind: sim.KindSend, Start: t, End: t + comm, Amount: size, Label: label, Round: r, Action: action})
			tr.Record(sim.Interval{Lane: w, Kind: sim.KindRecv, Start: t, End: t + comm, Amount: size, Label: label, Round: r, Action: action})
			if links > 0 {
				l := linkLane[w%links]
				tr.Record(sim.Interval{Lane: l, Kind: sim.KindLink, Start: t + 0.05, End: t + 0.05 + 3*comm, Amount: size, Label: label, Round: r, Action: action})
			}
			action++
			start := max(t+comm, free[w])
			work := size * (0.8 + 0.4*rng.Float64()) * float64(procs) * 0.15
			tr.Record(sim.Interval{Lane: w, Kind: sim.KindCompute, Start: start, End: start + work, Amount: size, Label: label, Round: r, Action: action})
			action++
			free[w] = start + work
			t += comm
		}
	}
	return tr
}

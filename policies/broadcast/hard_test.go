package broadcast

import (
	"fmt"
	"strconv"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// randomHardInstance is a random heterogeneous tree with relays (issue 21):
// parts participants and parts/4 relays drawn by models.RandomTree with
// its default configuration (bandwidths 1, 2, 4; latencies 0–0.25;
// asymmetric and half-duplex links), a message of 1 from participant 0.
func randomHardInstance(seed uint64, parts int) (policies.Instance, error) {
	tr, err := models.RandomTree(seed, models.DefaultRandomTreeConfig(parts, parts/4))
	if err != nil {
		return policies.Instance{}, fmt.Errorf("random tree %d: %w", seed, err)
	}
	return instanceOf(tr, 1, "0"), nil
}

// smpTree is the three-level heterogeneous SMP tree of issue 21 with parts
// participants (a multiple of 8): a backbone switch "bb" joined by Gigabit
// to a Gigabit cluster switch "ge" and by Fast Ethernet to a Fast Ethernet
// cluster switch "fe"; half of the CPUs are on dual-CPU SMP nodes under
// "ge", half on quad-CPU nodes under "fe", every CPU on shared memory.
// Participant 0 is the first CPU under "ge".
func smpTree(parts int) (*models.Tree, error) {
	if parts < 8 || parts%8 != 0 {
		return nil, fmt.Errorf("SMP tree: participants must be a positive multiple of 8, got %d", parts)
	}
	p := models.DefaultNetParams()
	tr := &models.Tree{}
	node := func(name string, relay bool) string {
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: name, Relay: relay})
		return name
	}
	edge := func(a, b string, l models.LinkParams) {
		tr.Edges = append(tr.Edges, models.TreeEdge{A: a, B: b, LinkParams: l, Duplex: models.FullDuplex})
	}
	bb, ge, fe := node("bb", true), node("ge", true), node("fe", true)
	edge(bb, ge, p.Gigabit)
	edge(bb, fe, p.FastEthernet)
	rank := 0
	for _, c := range []struct {
		sw   string
		cpus int
		link models.LinkParams
	}{{ge, 2, p.Gigabit}, {fe, 4, p.FastEthernet}} {
		for k := range parts / 2 / c.cpus {
			smp := node(c.sw+"-smp"+strconv.Itoa(k), true)
			edge(c.sw, smp, c.link)
			for range c.cpus {
				edge(smp, node(strconv.Itoa(rank), false), p.SharedMemory)
				rank++
			}
		}
	}
	return tr, nil
}

// Package treegen draws the trees the broadcast wing's tests and
// benchmarks run on: small random trees with relays (Random), trees with
// repeated parts (Symmetric), trees of clusters with links of widely
// different speeds (Clustered), small trees of the SMP kind (TwoSpeed,
// SMPMini), the random heterogeneous trees of issue 21 (RandomHard) and
// issue 21's SMP tree (SMP), each as a broadcast instance (Instance). Every
// draw takes a seed. It holds no policy and no check.
package treegen

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/trees"
)

// Instance is a broadcast of size from roots on a tree.
func Instance(tr *models.Tree, size float64, roots ...string) policies.Instance {
	return policies.Instance{
		Platform: &models.Platform{Tree: tr},
		Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: roots, Size: size}},
	}
}

// Random draws a tree with up to maxParts participants and one or
// two roots.
func Random(seed uint64, maxParts int) (policies.Instance, error) {
	r := rand.New(rand.NewPCG(seed, 4))
	parts := 2 + r.IntN(maxParts-1)
	tr, err := trees.RandomTree(seed, trees.DefaultRandomTreeConfig(parts, r.IntN(4)))
	if err != nil {
		return policies.Instance{}, err
	}
	roots := []string{fmt.Sprint(r.IntN(parts))}
	if parts > 3 && r.IntN(5) == 0 {
		if second := fmt.Sprint(r.IntN(parts)); second != roots[0] {
			roots = append(roots, second)
		}
	}
	return Instance(tr, 1, roots...), nil
}

// Symmetric draws a tree with repeated parts, to exercise RCut
// and SCut: a switch with 2–3 copies of a random small subtree (a relay
// with 1–2 participants, or a lone participant), the root hanging off the
// switch or off one copy, and random link parameters shared by the copies.
func Symmetric(seed uint64, maxParts int) policies.Instance {
	r := rand.New(rand.NewPCG(seed, 5))
	cfg := trees.DefaultRandomTreeConfig(1, 0)
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
	return Instance(tr, 1, root)
}

// Clustered draws a tree of clusters whose links differ widely in
// speed, so that copies leave and enter branches through links slower or
// faster than the rest of their way, which the small random trees seldom
// do: a chain of switches s0–s1–s2; the root's cluster at s0 (the root
// alone, or a relay with the root and another participant) and 2–3
// clusters (a lone participant, or a relay with 1–2) at s2, or now and
// then at s1; every link with a bandwidth of 1, 4 or 16; at most maxParts
// participants in all.
func Clustered(seed uint64, maxParts int) policies.Instance {
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
	return Instance(tr, 1, "0")
}

// TwoSpeed draws a small tree of the SMP kind, to exercise the
// bound's split on a port (splitBound): a backbone switch joined to a fast
// switch and, over a slow link, to a slow switch; the root's node (a
// relay with the root and another participant) and 1–2 other nodes under
// the fast switch, 1–2 nodes under the slow one, each node a relay with
// 1–2 participants (7 at most in all); fast links of bandwidth 4, slow
// ones of 1, participants' links of 16, latencies drawn.
func TwoSpeed(seed uint64, maxParts int) policies.Instance {
	r := rand.New(rand.NewPCG(seed, 7))
	d := newSMPDraw(r, maxParts, 4, 16)
	d.cluster("fast", 4, 2)
	for range 1 + r.IntN(2) {
		d.cluster("fast", 4, 1+r.IntN(2))
	}
	for range 1 + r.IntN(2) {
		d.cluster("slow", 1, 1+r.IntN(2))
	}
	return Instance(d.tr, 1, "0")
}

// SMPMini draws a small tree of the SMP kind whose slow side holds
// as many nodes as it may, to exercise due times (dueBound): as
// TwoSpeed, with fast links of bandwidth 2, 4 or 8, participants'
// links 16 times as fast, and nodes of 1–2 participants under the fast
// switch or of 1–3 under the slow one, drawn until maxParts.
func SMPMini(seed uint64, maxParts int) policies.Instance {
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
	return Instance(d.tr, 1, "0")
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

// RandomHard is a random heterogeneous tree with relays (issue 21):
// parts participants and parts/4 relays drawn by trees.RandomTree with
// its default configuration (bandwidths 1, 2, 4; latencies 0–0.25;
// asymmetric and half-duplex links), a message of 1 from participant 0.
func RandomHard(seed uint64, parts int) (policies.Instance, error) {
	tr, err := trees.RandomTree(seed, trees.DefaultRandomTreeConfig(parts, parts/4))
	if err != nil {
		return policies.Instance{}, fmt.Errorf("random tree %d: %w", seed, err)
	}
	return Instance(tr, 1, "0"), nil
}

// SMP is the three-level heterogeneous SMP tree of issue 21 with parts
// participants (a multiple of 8): a backbone switch "bb" joined by Gigabit
// to a Gigabit cluster switch "ge" and by Fast Ethernet to a Fast Ethernet
// cluster switch "fe"; half of the CPUs are on dual-CPU SMP nodes under
// "ge", half on quad-CPU nodes under "fe", every CPU on shared memory.
// Participant 0 is the first CPU under "ge".
func SMP(parts int) (*models.Tree, error) {
	if parts < 8 || parts%8 != 0 {
		return nil, fmt.Errorf("SMP tree: participants must be a positive multiple of 8, got %d", parts)
	}
	p := trees.DefaultNetParams()
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

// RandomHards are RandomHard's trees of seeds 0 to seeds−1 with each
// number of participants.
func RandomHards(seeds uint64, parts ...int) ([]policies.Instance, error) {
	var ins []policies.Instance
	for seed := range seeds {
		for _, p := range parts {
			in, err := RandomHard(seed, p)
			if err != nil {
				return nil, err
			}
			ins = append(ins, in)
		}
	}
	return ins, nil
}

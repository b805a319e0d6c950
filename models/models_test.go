package models

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestProcessorRate(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name   string
		p      Processor
		active []string
		want   float64
	}{
		{"idle", Processor{Gamma: 2}, nil, 0.5},
		{"no overlap stops computing", Processor{Gamma: 1}, []string{KindSend}, 0},
		{"explicit infinity stops computing", Processor{Gamma: 1, Overlap: map[string]float64{KindSend: inf}}, []string{KindSend}, 0},
		{"overlap gamma", Processor{Gamma: 1, Overlap: map[string]float64{KindSend: 2}}, []string{KindSend}, 0.5},
		// consistent degradation: 1/1 - (1 - 1/2) - (1 - 1/4) = -0.25 -> floored at 0
		{"losses add and floor at 0", Processor{Gamma: 1, Overlap: map[string]float64{KindSend: 2, KindRecv: 4}}, []string{KindSend, KindRecv}, 0},
		// 1/1 - (1 - 1/1.25) - (1 - 1/2) = 1 - 0.2 - 0.5 = 0.3
		{"losses add", Processor{Gamma: 1, Overlap: map[string]float64{KindSend: 1.25, KindRecv: 2}}, []string{KindSend, KindRecv}, 0.3},
		{"combined overrides", Processor{Gamma: 1, Overlap: map[string]float64{KindSend: 1.25, KindRecv: 2},
			Combined: []CombinedRate{{Active: []string{KindRecv, KindSend}, Gamma: 5}}}, []string{KindSend, KindRecv}, 0.2},
		{"alias intra covers both directions", Processor{Gamma: 1, Overlap: map[string]float64{"intra": 4}}, []string{KindIntraRecv}, 0.25},
		// 001 erratum: 1/γD = 1/γI + 1/γX − 1/γ = 1/2 + 1/4 − 1 < 0 -> 0; use milder rates
		{"001 gamma D rule", Processor{Gamma: 1, Overlap: map[string]float64{"intra": 1.25, "inter": 1.6}}, []string{KindIntraRecv, KindInterSend}, 0.8 + 0.625 - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Rate(tt.active); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Rate(%v) = %v, want %v", tt.active, got, tt.want)
			}
		})
	}
}

func TestConsistentlyDegrading(t *testing.T) {
	p := Processor{Gamma: 1, Overlap: map[string]float64{KindSend: 1.25, KindRecv: 2},
		Combined: []CombinedRate{{Active: []string{KindSend, KindRecv}, Gamma: 1 / 0.3}}}
	if !p.ConsistentlyDegrading() {
		t.Error("combined rate equal to the rule is reported as inconsistent")
	}
	p.Combined[0].Gamma = 5
	if p.ConsistentlyDegrading() {
		t.Error("combined rate off the rule is reported as consistent")
	}
	if p.Combined[0].Gamma != 5 {
		t.Error("ConsistentlyDegrading changed the processor")
	}
}

func crossbar(mod func(*Crossbar)) *Platform {
	c := &Crossbar{Beta: 0.1, Duplex: HalfDuplex, Processors: []Processor{{Gamma: 1, Load: 10}, {Gamma: 2}}}
	mod(c)
	return &Platform{Crossbar: c}
}

func TestPlatformValidate(t *testing.T) {
	tests := []struct {
		name     string
		p        *Platform
		wantPath string // "" for valid
	}{
		{"valid crossbar", crossbar(func(*Crossbar) {}), ""},
		{"beta zero", crossbar(func(c *Crossbar) { c.Beta = 0 }), "platform.crossbar.beta"},
		{"beta NaN", crossbar(func(c *Crossbar) { c.Beta = math.NaN() }), "platform.crossbar.beta"},
		{"bad duplex", crossbar(func(c *Crossbar) { c.Duplex = "both" }), "platform.crossbar.duplex"},
		{"gamma zero", crossbar(func(c *Crossbar) { c.Processors[1].Gamma = 0 }), "platform.crossbar.processors[1].gamma"},
		{"negative load", crossbar(func(c *Crossbar) { c.Processors[0].Load = -1 }), "platform.crossbar.processors[0].load"},
		{"faster while communicating", crossbar(func(c *Crossbar) { c.Processors[1].Overlap = map[string]float64{KindSend: 1} }),
			"platform.crossbar.processors[1].overlap.send"},
		{"unknown kind", crossbar(func(c *Crossbar) { c.Processors[1].Overlap = map[string]float64{"intra": 3} }),
			"platform.crossbar.processors[1].overlap.intra"},
		{"no processors", crossbar(func(c *Crossbar) { c.Processors = nil }), "platform.crossbar.processors"},
		{"no kind", &Platform{}, "platform"},
		{"two kinds", &Platform{Delay: &Delay{Rho: 1}, Crossbar: &Crossbar{}}, "platform"},
		{"delay", &Platform{Delay: &Delay{Rho: 3}}, ""},
		{"negative rho", &Platform{Delay: &Delay{Rho: -3}}, "platform.delay.rho"},
		{"multicluster", &Platform{MultiCluster: &MultiCluster{Beta: 1, Clusters: []Cluster{{Beta: 0.5, Processors: []Processor{{Gamma: 1}}}}}}, ""},
		{"multicluster bad beta_j", &Platform{MultiCluster: &MultiCluster{Beta: 1, Clusters: []Cluster{{Beta: -1, Processors: []Processor{{Gamma: 1}}}}}},
			"platform.multicluster.clusters[0].beta"},
		{"tree", &Platform{Tree: sampleTree()}, ""},
		{"tree with a cycle", &Platform{Tree: func() *Tree {
			tr := sampleTree()
			tr.Nodes = append(tr.Nodes, TreeNode{Name: "x"})
			tr.Edges = append(tr.Edges, TreeEdge{A: "a", B: "b", LinkParams: LinkParams{Bandwidth: 1}})
			return tr
		}()}, "platform.tree.edges[3]"},
		{"tree bad bandwidth", &Platform{Tree: func() *Tree { tr := sampleTree(); tr.Edges[1].Bandwidth = 0; return tr }()},
			"platform.tree.edges[1].bandwidth"},
		{"tree unknown node", &Platform{Tree: func() *Tree { tr := sampleTree(); tr.Edges[2].B = "zz"; return tr }()},
			"platform.tree.edges[2].b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkFieldError(t, tt.p.Validate(), tt.wantPath)
		})
	}
}

// checkFieldError requires err to be nil when wantPath is "", and else a
// *FieldError at wantPath.
func checkFieldError(t *testing.T, err error, wantPath string) {
	t.Helper()
	if wantPath == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Path != wantPath {
		t.Fatalf("error %v, want a *FieldError at %s", err, wantPath)
	}
}

// sampleTree: a - s - b, s - c, with s a relay.
func sampleTree() *Tree {
	return &Tree{
		Nodes: []TreeNode{{Name: "a"}, {Name: "s", Relay: true}, {Name: "b"}, {Name: "c"}},
		Edges: []TreeEdge{
			{A: "a", B: "s", LinkParams: LinkParams{Bandwidth: 10, Latency: 1}},
			{A: "s", B: "b", LinkParams: LinkParams{Bandwidth: 5, Latency: 2}, Reverse: &LinkParams{Bandwidth: 1, Latency: 3}},
			{A: "c", B: "s", LinkParams: LinkParams{Bandwidth: 2, Latency: 0}},
		},
	}
}

func TestTreePath(t *testing.T) {
	tr := sampleTree()
	if err := tr.Validate("t"); err != nil {
		t.Fatal(err)
	}
	path := tr.Path(2, 3) // b -> s -> c
	want := []Link{{Edge: 1, Forward: false}, {Edge: 2, Forward: false}}
	if len(path) != len(want) || path[0] != want[0] || path[1] != want[1] {
		t.Fatalf("Path(b, c) = %v, want %v", path, want)
	}
	if got := tr.Params(path[0]); got.Bandwidth != 1 || got.Latency != 3 {
		t.Errorf("reverse params = %+v, want {1 3}", got)
	}
	if got := tr.Params(path[1]); got.Bandwidth != 2 {
		t.Errorf("params of c-s reversed = %+v, want bandwidth 2", got)
	}
	if p := tr.Path(1, 1); p != nil {
		t.Errorf("Path(s, s) = %v, want nil", p)
	}
}

func TestDAG(t *testing.T) {
	g := &DAG{Tasks: make([]Task, 4), Edges: []DAGEdge{{From: 0, To: 1}, {From: 0, To: 2}, {From: 1, To: 3}, {From: 2, To: 3}}}
	order, err := g.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	pos := make([]int, 4)
	for i, v := range order {
		pos[v] = i
	}
	for _, e := range g.Edges {
		if pos[e.From] > pos[e.To] {
			t.Errorf("edge %v out of order in %v", e, order)
		}
	}
	g.Edges = append(g.Edges, DAGEdge{From: 3, To: 0})
	err = g.Validate("problem.dag")
	if err == nil || !strings.Contains(err.Error(), "acyclic") {
		t.Errorf("cycle not reported: %v", err)
	}
	g.Edges = []DAGEdge{{From: 0, To: 9}}
	if err := g.Validate("problem.dag"); err == nil || !strings.Contains(err.Error(), "edges[0].to") {
		t.Errorf("bad edge end not reported by field: %v", err)
	}
}

func TestProblemValidate(t *testing.T) {
	tree := &Platform{Tree: sampleTree()}
	cb := crossbar(func(*Crossbar) {})
	tests := []struct {
		name string
		pr   Problem
		pl   *Platform
		want string // substring of the error, "" for valid
	}{
		{"broadcast", Problem{Broadcast: &Broadcast{Roots: []string{"a"}, Size: 1}}, tree, ""},
		{"relay root", Problem{Broadcast: &Broadcast{Roots: []string{"s"}, Size: 1}}, tree, "roots[0]: \"s\" is a relay"},
		{"unknown root", Problem{Broadcast: &Broadcast{Roots: []string{"q"}, Size: 1}}, tree, "no node is named"},
		{"broadcast on crossbar", Problem{Broadcast: &Broadcast{Roots: []string{"a"}, Size: 1}}, cb, "runs on a tree"},
		{"divisible", Problem{Divisible: &Divisible{Rounds: 3}}, cb, ""},
		{"divisible on tree", Problem{Divisible: &Divisible{}}, tree, "crossbar or multicluster"},
		{"none", Problem{}, cb, "exactly one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.pr.Validate(tt.pl)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestDAGAdjacencyRandom checks Preds, Succs, TopoOrder and Topology on
// random graphs (with repeated edges) against their definitions: every
// edge listed once per occurrence, in edge order, and every edge forward
// in the order.
func TestDAGAdjacencyRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(12)
		g := &DAG{Tasks: make([]Task, n)}
		for range rng.IntN(3 * n) {
			u, v := rng.IntN(n), rng.IntN(n)
			if u == v {
				continue
			}
			g.Edges = append(g.Edges, DAGEdge{From: min(u, v), To: max(u, v)})
		}
		wantPreds, wantSuccs := make([][]int, n), make([][]int, n)
		for _, e := range g.Edges {
			wantPreds[e.To] = append(wantPreds[e.To], e.From)
			wantSuccs[e.From] = append(wantSuccs[e.From], e.To)
		}
		same := func(a, b [][]int) bool {
			return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
		}
		if got := g.Preds(); !same(got, wantPreds) {
			t.Fatalf("trial %d: Preds = %v, want %v", trial, got, wantPreds)
		}
		if got := g.Succs(); !same(got, wantSuccs) {
			t.Fatalf("trial %d: Succs = %v, want %v", trial, got, wantSuccs)
		}
		order, err := g.TopoOrder()
		if err != nil || len(order) != n {
			t.Fatalf("trial %d: TopoOrder = %v, %v", trial, order, err)
		}
		pos := make([]int, n)
		for i, v := range order {
			pos[v] = i
		}
		for _, e := range g.Edges {
			if pos[e.From] > pos[e.To] {
				t.Fatalf("trial %d: edge %v out of order in %v", trial, e, order)
			}
		}
		topo, err := g.Topology()
		if err != nil || !slices.Equal(topo.Order, order) {
			t.Fatalf("trial %d: Topology order %v, %v; TopoOrder %v", trial, topo.Order, err, order)
		}
		for v := range n {
			if !slices.Equal(topo.Preds(v), wantPreds[v]) || !slices.Equal(topo.Succs(v), wantSuccs[v]) {
				t.Fatalf("trial %d: task %d: Topology preds %v succs %v, want %v and %v",
					trial, v, topo.Preds(v), topo.Succs(v), wantPreds[v], wantSuccs[v])
			}
		}
	}
}

// TestDefaultNames checks the names of unnamed nodes and tasks, from the
// table and past it, against their definition.
func TestDefaultNames(t *testing.T) {
	g := &DAG{Tasks: make([]Task, 5000)}
	p := &Platform{Delay: &Delay{}}
	for _, i := range []int{0, 9, 10, 1023, 1024, 4095, 4096, 4999} {
		if got, want := p.NodeName(i), fmt.Sprintf("P%d", i); got != want {
			t.Errorf("NodeName(%d) = %q, want %q", i, got, want)
		}
		if got, want := g.TaskName(i), fmt.Sprintf("t%d", i); got != want {
			t.Errorf("TaskName(%d) = %q, want %q", i, got, want)
		}
	}
	if n := testing.AllocsPerRun(10, func() { _, _ = p.NodeName(700), g.TaskName(3000) }); n != 0 {
		t.Errorf("naming an unnamed node and task allocates %v times", n)
	}
}

// TestNodeIndex checks that NodeIndex inverts NodeName on every platform
// kind: given names, the default names of unnamed nodes, and no others.
func TestNodeIndex(t *testing.T) {
	crossbar := &Platform{Crossbar: &Crossbar{Processors: []Processor{{Name: "fast"}, {}, {Name: "P0"}, {Name: "fast"}}}}
	multi := &Platform{MultiCluster: &MultiCluster{Clusters: []Cluster{
		{Processors: []Processor{{Name: "a0"}, {}}}, {Processors: []Processor{{}, {Name: "b1"}}}}}}
	tree := &Platform{Tree: &Tree{Nodes: []TreeNode{{Name: "root"}, {Name: "sw", Relay: true}, {Name: "leaf"}}}}
	ws := &Platform{Workstations: &Workstations{Processors: []Workstation{{Name: "host0"}, {}, {Name: "P7"}}}}
	tests := []struct {
		name  string
		p     *Platform
		node  string
		want  int
		found bool
	}{
		{"crossbar given name", crossbar, "fast", 0, true},
		{"crossbar default name", crossbar, "P1", 1, true},
		{"crossbar node given the name P0", crossbar, "P0", 2, true},
		{"crossbar default name of a named node", crossbar, "P3", 0, false},
		{"crossbar past the end", crossbar, "P4", 0, false},
		{"crossbar leading zero", crossbar, "P01", 0, false},
		{"multicluster given name", multi, "b1", 3, true},
		{"multicluster default name", multi, "P2", 2, true},
		{"multicluster unknown", multi, "b0", 0, false},
		{"tree leaf", tree, "leaf", 2, true},
		{"tree relay", tree, "sw", 1, true},
		{"tree default name of a named node", tree, "P0", 0, false},
		{"workstations given name", ws, "host0", 0, true},
		{"workstations default name", ws, "P1", 1, true},
		{"workstations P-name given", ws, "P7", 2, true},
		{"workstations default of a named node", ws, "P2", 0, false},
		{"bounded delay", &Platform{Delay: &Delay{Processors: 3}}, "P2", 2, true},
		{"bounded delay past the end", &Platform{Delay: &Delay{Processors: 3}}, "P3", 0, false},
		{"unbounded delay", &Platform{Delay: &Delay{}}, "P5000", 5000, true},
		{"unbounded delay other name", &Platform{Delay: &Delay{}}, "x", 0, false},
		{"empty name", crossbar, "", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := tt.p.NodeIndex(tt.node)
			if got != tt.want || found != tt.found {
				t.Errorf("NodeIndex(%q) = %d, %v; want %d, %v", tt.node, got, found, tt.want, tt.found)
			}
		})
	}
	for _, p := range []*Platform{multi, tree, ws} { // names unique: NodeIndex(NodeName(i)) = i
		for i := range p.NumNodes() {
			if got, ok := p.NodeIndex(p.NodeName(i)); got != i || !ok {
				t.Errorf("%s: NodeIndex(NodeName(%d) = %q) = %d, %v", p.Kind(), i, p.NodeName(i), got, ok)
			}
		}
	}
}

package models

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// crossbar64 is a 64-processor crossbar whose processors overlap both
// directions and give a combined rate: every path the validator could
// name is there to be built.
func crossbar64() *Platform {
	ps := make([]Processor, 64)
	for i := range ps {
		g := 1 + float64(i%4)
		ps[i] = Processor{Name: fmt.Sprintf("p%d", i), Gamma: g, Load: float64(i),
			Overlap:  map[string]float64{KindSend: 2 * g, KindRecv: 3 * g},
			Combined: []CombinedRate{{Active: []string{KindSend, KindRecv}, Gamma: 20}}}
	}
	return &Platform{Crossbar: &Crossbar{Beta: 0.01, Alpha: 0.001, Duplex: HalfDuplex, Processors: ps}}
}

// multiCluster3 is three clusters of eight processors that overlap
// through the aliases "intra" and "inter".
func multiCluster3() *Platform {
	m := &MultiCluster{Beta: 1, Alpha: 0.1}
	for c := range 3 {
		cl := Cluster{Name: fmt.Sprintf("c%d", c), Beta: 0.5}
		for range 8 {
			cl.Processors = append(cl.Processors, Processor{Gamma: 1,
				Overlap:  map[string]float64{"intra": 2, KindInterSend: 3},
				Combined: []CombinedRate{{Active: []string{"intra", KindInterRecv}, Gamma: 9}}})
		}
		m.Clusters = append(m.Clusters, cl)
	}
	return &Platform{MultiCluster: m}
}

// workstations16 is sixteen processors, every other one named (so the
// others are "P<i>"), two load profiles with steps, and explicit edges
// naming processors both ways.
func workstations16() *Platform { return workstationsN(16) }

// workstationsN is workstations16 with n processors.
func workstationsN(n int) *Platform {
	w := &Workstations{Latency: 0.01, PerTask: 0.1, Profiles: []LoadProfile{
		{Name: "busy", Share: 0.5, Steps: []LoadStep{{At: 1, Share: 0.2}, {At: 4, Share: 0.7}}},
		{Name: "idle", Share: 0},
	}}
	for i := range n {
		ws := Workstation{Speed: 1 + float64(i%3), Share: 0.1}
		if i%2 == 1 {
			ws.Name = fmt.Sprintf("host%d", i)
		}
		if i%5 == 0 {
			ws.Share, ws.Profile = 0, w.Profiles[i%2].Name
		}
		w.Processors = append(w.Processors, ws)
	}
	for i := 1; i < n; i++ {
		w.Edges = append(w.Edges, InfoEdge{From: w.Name(i - 1), To: w.Name(i), Both: i%2 == 0})
	}
	return &Platform{Workstations: w}
}

// starTree128 is paper 004's star of 128 participants.
func starTree128(t testing.TB) *Platform { return starTree(t, 128) }

// starTree is paper 004's star of n participants on Gigabit links
// (package trees draws it too; models' own tests cannot import it).
func starTree(t testing.TB, n int) *Platform {
	tr := &Tree{Nodes: []TreeNode{{Name: "sw", Relay: true}}}
	for i := range n {
		name := fmt.Sprint(i)
		tr.Nodes = append(tr.Nodes, TreeNode{Name: name})
		tr.Edges = append(tr.Edges, TreeEdge{A: "sw", B: name, LinkParams: LinkParams{Bandwidth: 125, Latency: 5e-5}})
	}
	return &Platform{Tree: tr}
}

// mixedTree is a tree of parts participants hung round-robin on a chain of
// relays, its edges of three bandwidths, every third with its own reverse
// parameters and every fourth half duplex: each path of the tree's
// validation is taken.
func mixedTree(parts, relays int) *Tree {
	tr := &Tree{}
	for r := range relays {
		tr.Nodes = append(tr.Nodes, TreeNode{Name: fmt.Sprintf("r%d", r), Relay: true})
		if r > 0 {
			tr.Edges = append(tr.Edges, TreeEdge{A: fmt.Sprintf("r%d", r-1), B: fmt.Sprintf("r%d", r), LinkParams: LinkParams{Bandwidth: 10}})
		}
	}
	for i := range parts {
		e := TreeEdge{A: fmt.Sprintf("r%d", i%relays), B: fmt.Sprint(i), LinkParams: LinkParams{Bandwidth: float64(1 + i%3), Latency: 0.01}}
		if i%3 == 0 {
			e.Reverse = &LinkParams{Bandwidth: 2, Latency: 0.02}
		}
		if i%4 == 0 {
			e.Duplex = HalfDuplex
		}
		tr.Nodes = append(tr.Nodes, TreeNode{Name: fmt.Sprint(i)})
		tr.Edges = append(tr.Edges, e)
	}
	return tr
}

// bundledScenario reads the platform and problem of a bundled scenario,
// skipping the test if the scenarios directory is not there.
func bundledScenario(t testing.TB, name string) (*Platform, *Problem) {
	data, err := os.ReadFile(filepath.Join("..", "scenarios", "bundled", name+".yaml"))
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("bundled scenario %s not found: %v", name, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Platform Platform `yaml:"platform"`
		Problem  Problem  `yaml:"problem"`
	}
	if err := yaml.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &s.Platform, &s.Problem
}

// validCase is a valid input and the allocations validating it may make.
type validCase struct {
	name     string
	validate func() error
	allocs   float64
}

// validCases lists a valid platform of every kind and a valid problem of
// every family. Validation must not allocate, except that a graph whose
// topological order needs more than scratchLen ints (3 per task, 1 per
// edge), a tree of more than scratchLen/2 nodes or more than scratchLen
// workstations allocates its one index buffer.
func validCases(t *testing.T) []validCase {
	cb, mc, ws, star := crossbar64(), multiCluster3(), workstations16(), starTree128(t)
	random := mixedTree(40, 6)
	fft, err := FFT(16)
	if err != nil {
		t.Fatal(err)
	}
	bigFFT, err := FFT(64)
	if err != nil {
		t.Fatal(err)
	}
	paper := &Platform{Workstations: paperCluster()}
	sample := &Platform{Tree: sampleTree()}
	delay := &Platform{Delay: &Delay{Rho: 2, Processors: 8}}
	counts16 := make([]int, 16)
	counts16[3] = 7
	problem := func(pr Problem, pl *Platform) func() error { return func() error { return pr.Validate(pl) } }
	return []validCase{
		{"crossbar 64 with overlap and combined rates", cb.Validate, 0},
		{"multicluster", mc.Validate, 0},
		{"tree with a reverse link", sample.Validate, 0},
		{"tree star of 128", star.Validate, 0},
		{"random tree", (&Platform{Tree: random}).Validate, 0},
		{"delay", delay.Validate, 0},
		{"workstations with profiles and edges", ws.Validate, 0},
		{"workstations of paper 003", paper.Validate, 0},
		{"tree star of 300 (one index buffer)", starTree(t, 300).Validate, 1},
		{"workstations 600 (one index buffer)", workstationsN(600).Validate, 1},
		{"divisible", problem(Problem{Divisible: &Divisible{Rounds: 3, CollectResults: true, ResultSize: 0.5}}, cb), 0},
		{"divisible on multicluster", problem(Problem{Divisible: &Divisible{}}, mc), 0},
		{"broadcast", problem(Problem{Broadcast: &Broadcast{Roots: []string{"0", "127"}, Size: 1}}, star), 0},
		{"balance", problem(Problem{Balance: &Balance{Counts: counts16, Tasks: 5, Work: 1, Interval: 2, Jitter: 0.1}}, ws), 0},
		{"balance by tasks", problem(Problem{Balance: &Balance{Tasks: 5, Work: 1, Interval: 2}}, ws), 0},
		{"dag", problem(Problem{DAG: fft}, delay), 0},
		{"dag of 511 tasks (one order buffer)", problem(Problem{DAG: bigFFT}, delay), 1},
	}
}

// TestValidateAllocs checks that valid input validates without
// allocating, since sweeps validate every point three times.
func TestValidateAllocs(t *testing.T) {
	for _, tc := range validCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.validate(); err != nil {
				t.Fatalf("valid input rejected: %v", err)
			}
			if got := testing.AllocsPerRun(20, func() { _ = tc.validate() }); got != tc.allocs {
				t.Errorf("%v allocations per Validate, want %v", got, tc.allocs)
			}
		})
	}
}

// TestValidateBundledAllocs validates the bundled crossbar-hetero
// scenario's platform and problem without allocating.
func TestValidateBundledAllocs(t *testing.T) {
	pl, pr := bundledScenario(t, "crossbar-hetero")
	both := func() error {
		if err := pl.Validate(); err != nil {
			return err
		}
		return pr.Validate(pl)
	}
	if err := both(); err != nil {
		t.Fatal(err)
	}
	if got := testing.AllocsPerRun(20, func() { _ = both() }); got != 0 {
		t.Errorf("%v allocations per validation of crossbar-hetero, want 0", got)
	}
}

// TestValidateErrorPaths checks that errors deep in a model still name
// the full path and say what is wrong, word for word.
func TestValidateErrorPaths(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string // the whole error
	}{
		{"overlap below gamma", func() error {
			pl := crossbar64()
			pl.Crossbar.Processors[2].Overlap[KindSend] = 0.5
			return pl.Validate()
		}, "platform.crossbar.processors[2].overlap.send: γ_send = 0.5 is below γ = 3: a processor cannot compute faster while communicating"},
		{"least bad overlap kind first", func() error {
			pl := crossbar64()
			pl.Crossbar.Processors[5].Overlap = map[string]float64{KindSend: 0.1, KindRecv: 0.1, "inter": 9}
			return pl.Validate()
		}, `platform.crossbar.processors[5].overlap.inter: unknown communication kind "inter" (this platform has send, recv)`},
		{"combined kind", func() error {
			pl := crossbar64()
			pl.Crossbar.Processors[63].Combined[0].Active[1] = "intra"
			return pl.Validate()
		}, `platform.crossbar.processors[63].combined[0].active: unknown communication kind "intra" (this platform has send, recv)`},
		{"combined gamma", func() error {
			pl := crossbar64()
			pl.Crossbar.Processors[7].Combined = append(pl.Crossbar.Processors[7].Combined, CombinedRate{Active: []string{KindRecv}, Gamma: 1})
			return pl.Validate()
		}, "platform.crossbar.processors[7].combined[1].gamma: must be >= γ = 4, got 1"},
		{"cluster processor", func() error {
			pl := multiCluster3()
			pl.MultiCluster.Clusters[1].Processors[3].Gamma = -1
			return pl.Validate()
		}, "platform.multicluster.clusters[1].processors[3].gamma: must be a finite number > 0, got -1"},
		{"reverse bandwidth", func() error {
			pl := &Platform{Tree: sampleTree()}
			pl.Tree.Edges[1].Reverse.Bandwidth = 0
			return pl.Validate()
		}, "platform.tree.edges[1].reverse.bandwidth: must be a finite number > 0, got 0"},
		{"duplicate tree node", func() error {
			pl := starTree128(t)
			pl.Tree.Nodes[90].Name, pl.Tree.Nodes[100].Name = "7", "7"
			return pl.Validate()
		}, `platform.tree.nodes[90].name: "7" is also the name of nodes[8]`},
		{"tree cycle", func() error {
			pl := &Platform{Tree: sampleTree()}
			pl.Tree.Edges[2].A, pl.Tree.Edges[2].B = "b", "a"
			return pl.Validate()
		}, "platform.tree.edges[2]: edge b–a closes a cycle: the network must be a tree"},
		{"tree edge duplex", func() error {
			pl := starTree128(t)
			pl.Tree.Edges[64].Duplex = "simplex"
			return pl.Validate()
		}, `platform.tree.edges[64].duplex: must be "half" or "full", got "simplex"`},
		{"workstation named like another's default", func() error {
			pl := workstations16()
			pl.Workstations.Processors[5].Name = "P2"
			return pl.Validate()
		}, `platform.workstations.processors[5].name: "P2" is also the name of processors[2]`},
		{"workstation default name repeats a given one", func() error {
			pl := workstations16()
			pl.Workstations.Processors[1].Name = "P12"
			return pl.Validate()
		}, `platform.workstations.processors[12].name: "P12" is also the name of processors[1]`},
		{"load step", func() error {
			pl := workstations16()
			pl.Workstations.Profiles[0].Steps[1].At = 1
			return pl.Validate()
		}, "platform.workstations.profiles[0].steps[1].at: must be a finite time after 1 (steps in increasing time, after 0), got 1"},
		{"information edge", func() error {
			pl := workstations16()
			pl.Workstations.Edges[3].To = "P03"
			return pl.Validate()
		}, `platform.workstations.edges[3].to: no processor is named "P03"`},
		{"dag edge", func() error {
			g, err := FFT(4)
			if err != nil {
				return err
			}
			g.Edges[2].To = len(g.Tasks)
			return (&Problem{DAG: g}).Validate(&Platform{Delay: &Delay{}})
		}, "problem.dag.edges[2].to: task 15 does not exist (15 tasks)"},
		{"dag task", func() error {
			return (&DAG{Tasks: []Task{{Weight: 1}, {Weight: -2}}}).Validate("x.y")
		}, "x.y.tasks[1].weight: must be a finite number >= 0, got -2"},
		{"balance count", func() error {
			pl := workstations16()
			counts := make([]int, 16)
			counts[1] = -3
			return (&Problem{Balance: &Balance{Counts: counts, Work: 1, Interval: 1}}).Validate(pl)
		}, "problem.balance.counts[1]: must be a whole number >= 0, got -3"},
		{"broadcast root", func() error {
			return (&Problem{Broadcast: &Broadcast{Roots: []string{"0", "s"}, Size: 1}}).Validate(&Platform{Tree: sampleTree()})
		}, `problem.broadcast.roots[0]: no node is named "0"`},
		{"duplicate in a tree beyond the stack scratch", func() error {
			pl := starTree(t, 300)
			pl.Tree.Nodes[299].Name = "sw"
			return pl.Validate()
		}, `platform.tree.nodes[299].name: "sw" is also the name of nodes[0]`},
		{"repeat in workstations beyond the stack scratch", func() error {
			pl := workstationsN(600)
			pl.Workstations.Processors[599].Name = "host597"
			return pl.Validate()
		}, `platform.workstations.processors[599].name: "host597" is also the name of processors[597]`},
		{"root path from the caller", func() error {
			return (&Crossbar{Beta: 1, Duplex: FullDuplex, Processors: []Processor{{Gamma: 1, Load: -1}}}).Validate("")
		}, "processors[0].load: must be a finite number >= 0, got -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			var fe *FieldError
			if !errors.As(err, &fe) || err.Error() != tt.want {
				t.Errorf("error\n  %v\nwant a *FieldError\n  %s", err, tt.want)
			}
		})
	}
}

// BenchmarkValidate validates, reporting allocations, a 64-processor
// crossbar with overlap and combined rates and a divisible load on it, and
// the bundled crossbar-hetero scenario's platform and problem.
func BenchmarkValidate(b *testing.B) {
	hetero, heteroLoad := bundledScenario(b, "crossbar-hetero")
	for _, bc := range []struct {
		name string
		pl   *Platform
		pr   *Problem
	}{
		{"crossbar64", crossbar64(), &Problem{Divisible: &Divisible{Rounds: 3}}},
		{"crossbar-hetero", hetero, heteroLoad},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.pl.Validate(); err != nil {
					b.Fatal(err)
				}
				if err := bc.pr.Validate(bc.pl); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestFieldPathString checks the joined paths against the rule of the
// dotted paths: a field after a dot, except at the start; an index in
// brackets, right after what it indexes.
func TestFieldPathString(t *testing.T) {
	join := func(root string, build func(*fieldPath) string) string {
		p := rootPath(root)
		return build(&p)
	}
	tests := []struct {
		got, want string
	}{
		{join("", func(p *fieldPath) string { return p.String() }), ""},
		{join("platform", func(p *fieldPath) string { return p.String() }), "platform"},
		{join("", func(p *fieldPath) string { q := p.field("beta"); return q.String() }), "beta"},
		{join("", func(p *fieldPath) string { q := p.index(3); return q.String() }), "[3]"},
		{join("", func(p *fieldPath) string { q := p.elem("edges", 0); return q.String() }), "edges[0]"},
		{join("a.b", func(p *fieldPath) string { q := p.index(12); r := q.index(0); return r.String() }), "a.b[12][0]"},
		{join("a", func(p *fieldPath) string {
			q := p.elem("x", 1)
			r := q.field("overlap")
			u := r.field("")
			return u.String()
		}), "a.x[1].overlap."},
		{join("x", func(p *fieldPath) string { q := p.field("y"); r := q.elem("z", 2); return r.String() }), "x.y.z[2]"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("path %q, want %q", tt.got, tt.want)
		}
	}
}

// TestWorkstationsNodeIndex checks NodeIndex, which compares names without
// formatting the default ones, against its definition: the first
// processor whose Name is the name.
func TestWorkstationsNodeIndex(t *testing.T) {
	w := &Workstations{Processors: []Workstation{
		{}, {Name: "P0"}, {}, {Name: "x"}, {Name: "P01"}, {}, {Name: "P7"}, {Name: "P"}, {}, {Name: "P-1"},
	}}
	queries := []string{"P0", "P1", "P2", "P3", "P5", "P01", "P7", "P8", "P", "x", "", "P-1", "p2", "P 2",
		"P+2", "P99999999999999999999", "P10"}
	for _, name := range queries {
		want, wantOK := 0, false
		for i := range w.Processors {
			if w.Name(i) == name {
				want, wantOK = i, true
				break
			}
		}
		if got, ok := w.NodeIndex(name); got != want || ok != wantOK {
			t.Errorf("NodeIndex(%q) = %d, %v, want %d, %v", name, got, ok, want, wantOK)
		}
	}
}

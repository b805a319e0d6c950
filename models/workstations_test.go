package models

import (
	"math"
	"slices"
	"testing"
)

// paperCluster is paper 003's cluster as ../shared/papers/README.md
// decides: seven equal processors on a binary tree, P1, P3 and P6 under
// the profile "busy" (65 % external load).
func paperCluster() *Workstations {
	ps := make([]Workstation, 7)
	for i := range ps {
		ps[i].Speed = 1
	}
	for _, i := range []int{1, 3, 6} {
		ps[i].Profile = "busy"
	}
	return &Workstations{Processors: ps, Topology: TopologyTree,
		Profiles: []LoadProfile{{Name: "busy", Share: 0.65}}, Latency: 0.005, PerTask: 0.01}
}

func TestWorkstationsValidate(t *testing.T) {
	tests := []struct {
		name     string
		mod      func(w *Workstations)
		wantPath string // "" for valid
	}{
		{"paper cluster", func(*Workstations) {}, ""},
		{"ring", func(w *Workstations) { w.Topology = TopologyRing }, ""},
		{"explicit edges", func(w *Workstations) {
			w.Topology, w.Edges = "", []InfoEdge{{From: "P0", To: "P1", Both: true}, {From: "P2", To: "P0"}}
		}, ""},
		{"one processor needs no topology", func(w *Workstations) { w.Processors, w.Topology = w.Processors[:1], "" }, ""},
		{"no processors", func(w *Workstations) { w.Processors = nil }, "platform.workstations.processors"},
		{"speed zero", func(w *Workstations) { w.Processors[2].Speed = 0 }, "platform.workstations.processors[2].speed"},
		{"share one", func(w *Workstations) { w.Processors[0].Share = 1 }, "platform.workstations.processors[0].share"},
		{"share negative", func(w *Workstations) { w.Processors[0].Share = -0.1 }, "platform.workstations.processors[0].share"},
		{"share NaN", func(w *Workstations) { w.Processors[0].Share = math.NaN() }, "platform.workstations.processors[0].share"},
		{"profile share one", func(w *Workstations) { w.Profiles[0].Share = 1 }, "platform.workstations.profiles[0].share"},
		{"missing profile", func(w *Workstations) { w.Processors[4].Profile = "idle" }, "platform.workstations.processors[4].profile"},
		{"share and profile", func(w *Workstations) { w.Processors[1].Share = 0.2 }, "platform.workstations.processors[1].share"},
		{"duplicate name", func(w *Workstations) { w.Processors[0].Name = "P3" }, "platform.workstations.processors[3].name"},
		{"duplicate profile", func(w *Workstations) { w.Profiles = append(w.Profiles, w.Profiles[0]) }, "platform.workstations.profiles[1].name"},
		{"unnamed profile", func(w *Workstations) { w.Profiles[0].Name = "" }, "platform.workstations.profiles[0].name"},
		{"step at 0", func(w *Workstations) { w.Profiles[0].Steps = []LoadStep{{At: 0, Share: 0.1}} },
			"platform.workstations.profiles[0].steps[0].at"},
		{"steps out of order", func(w *Workstations) { w.Profiles[0].Steps = []LoadStep{{At: 5, Share: 0.1}, {At: 3, Share: 0}} },
			"platform.workstations.profiles[0].steps[1].at"},
		{"step share", func(w *Workstations) { w.Profiles[0].Steps = []LoadStep{{At: 5, Share: 1.5}} },
			"platform.workstations.profiles[0].steps[0].share"},
		{"unknown topology", func(w *Workstations) { w.Topology = "star" }, "platform.workstations.topology"},
		{"no topology", func(w *Workstations) { w.Topology = "" }, "platform.workstations.topology"},
		{"edges beside a named topology", func(w *Workstations) { w.Edges = []InfoEdge{{From: "P0", To: "P1"}} },
			"platform.workstations.edges"},
		{"edge to a missing node", func(w *Workstations) {
			w.Topology, w.Edges = TopologyEdges, []InfoEdge{{From: "P0", To: "P1"}, {From: "P2", To: "P9"}}
		}, "platform.workstations.edges[1].to"},
		{"edge from a missing node", func(w *Workstations) { w.Topology, w.Edges = "", []InfoEdge{{From: "x", To: "P1"}} },
			"platform.workstations.edges[0].from"},
		{"self edge", func(w *Workstations) { w.Topology, w.Edges = "", []InfoEdge{{From: "P1", To: "P1"}} },
			"platform.workstations.edges[0]"},
		{"negative latency", func(w *Workstations) { w.Latency = -1 }, "platform.workstations.latency"},
		{"infinite per-task time", func(w *Workstations) { w.PerTask = math.Inf(1) }, "platform.workstations.per_task"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := paperCluster()
			tt.mod(w)
			checkFieldError(t, (&Platform{Workstations: w}).Validate(), tt.wantPath)
		})
	}
}

func TestWorkstationsPlatform(t *testing.T) {
	p := &Platform{Workstations: paperCluster()}
	p.Workstations.Processors[2].Name = "host2"
	if p.Kind() != KindWorkstations || p.NumNodes() != 7 || p.NodeName(2) != "host2" || p.NodeName(3) != "P3" {
		t.Errorf("Kind %q, NumNodes %d, names %q %q", p.Kind(), p.NumNodes(), p.NodeName(2), p.NodeName(3))
	}
	if i, ok := p.Workstations.NodeIndex("host2"); !ok || i != 2 {
		t.Errorf("NodeIndex(host2) = %d, %v", i, ok)
	}
	if got := p.Workstations.MigrationTime(3); math.Abs(got-0.035) > 1e-15 {
		t.Errorf("MigrationTime(3) = %v, want 0.005 + 3·0.01", got)
	}
}

func TestInfoGraph(t *testing.T) {
	w := paperCluster()
	tests := []struct {
		name  string
		mod   func()
		graph [][]int
	}{
		// Paper 003 Fig. 2 as decided: P0 root, P1 and P2 its children, P3,
		// P4 under P1, P5, P6 under P2; information flows both ways.
		{"tree", func() {}, [][]int{{1, 2}, {0, 3, 4}, {0, 5, 6}, {1}, {1}, {2}, {2}}},
		{"ring", func() { w.Topology = TopologyRing }, [][]int{{1, 6}, {0, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {0, 5}}},
		{"complete", func() { w.Topology, w.Processors = TopologyComplete, w.Processors[:3] }, [][]int{{1, 2}, {0, 2}, {0, 1}}},
		{"ring of two", func() { w.Topology, w.Processors = TopologyRing, w.Processors[:2] }, [][]int{{1}, {0}}},
		{"directed edges", func() {
			w.Topology, w.Processors = "", w.Processors[:3]
			w.Edges = []InfoEdge{{From: "P0", To: "P1"}, {From: "P2", To: "P1", Both: true}, {From: "P0", To: "P1"}}
		}, [][]int{{1}, {2}, {1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w = paperCluster()
			tt.mod()
			if err := w.Validate("w"); err != nil {
				t.Fatal(err)
			}
			if got := w.InfoGraph(); !slices.EqualFunc(got, tt.graph, slices.Equal) {
				t.Errorf("InfoGraph = %v, want %v", got, tt.graph)
			}
		})
	}
}

func TestLoadFinish(t *testing.T) {
	// ½ until 2, 0 until 5, ¾ from 5 on.
	l := Load{{0, 0.5}, {2, 0}, {5, 0.75}}
	tests := []struct {
		speed, start, work, want float64
	}{
		{1, 0, 0.5, 1},
		{1, 0, 3, 4},   // 1 by 2, then 2 at rate 1
		{1, 0, 4, 5},   // ends on the step
		{1, 0, 4.5, 7}, // 0.5 left at ¼
		{2, 0, 4, 3},   // 2 by 2, then 2 at rate 2
		{1, 2, 1, 3},   // a step holds from its own time on
		{1, 6, 1, 10},
		{1, 1, 0, 1},
	}
	for _, tt := range tests {
		if got := l.Finish(tt.speed, tt.start, tt.work); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Finish(speed %v, start %v, work %v) = %v, want %v", tt.speed, tt.start, tt.work, got, tt.want)
		}
	}
	for _, c := range []struct{ t, share float64 }{{0, 0.5}, {1.9, 0.5}, {2, 0}, {4.99, 0}, {5, 0.75}, {100, 0.75}} {
		if got := l.ShareAt(c.t); got != c.share {
			t.Errorf("ShareAt(%v) = %v, want %v", c.t, got, c.share)
		}
	}
}

func TestIdealBound(t *testing.T) {
	w := paperCluster()
	// 700 tasks of 0.45: 315 units at 4·1 + 3·0.35 = 5.05 per time unit.
	if got, want := w.IdealBound(700*0.45), 315/5.05; math.Abs(got-want) > 1e-9 {
		t.Errorf("constant shares: IdealBound = %v, want %v", got, want)
	}
	// Two processors of speed 1: P0 unloaded, P1 under ½ until 2, then 0.
	// Capacity 1.5 per time unit until 2 (3 units), then 2.
	two := &Workstations{Processors: []Workstation{{Speed: 1}, {Speed: 1, Profile: "b"}}, Topology: TopologyRing,
		Profiles: []LoadProfile{{Name: "b", Share: 0.5, Steps: []LoadStep{{At: 2, Share: 0}}}}}
	for _, c := range []struct{ work, want float64 }{{1.5, 1}, {3, 2}, {7, 4}, {0, 0}} {
		if got := two.IdealBound(c.work); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("profile: IdealBound(%v) = %v, want %v", c.work, got, c.want)
		}
	}
}

func TestBalanceValidate(t *testing.T) {
	ws := &Platform{Workstations: paperCluster()}
	good := func() *Balance { return &Balance{Tasks: 100, Work: 0.45, Interval: 1} }
	tests := []struct {
		name     string
		mod      func(tp *Balance)
		pl       *Platform
		wantPath string
	}{
		{"paper workload", func(*Balance) {}, ws, ""},
		{"counts", func(tp *Balance) { tp.Tasks, tp.Counts = 0, []int{1, 0, 0, 0, 0, 0, 9} }, ws, ""},
		{"on a crossbar", func(*Balance) {}, crossbar(func(*Crossbar) {}), "problem.balance"},
		{"negative tasks", func(tp *Balance) { tp.Tasks = -1 }, ws, "problem.balance.tasks"},
		{"no tasks at all", func(tp *Balance) { tp.Tasks = 0 }, ws, "problem.balance.tasks"},
		{"counts too short", func(tp *Balance) { tp.Counts = []int{1, 2} }, ws, "problem.balance.counts"},
		{"negative count", func(tp *Balance) { tp.Counts = []int{1, 2, 3, -4, 5, 6, 7} }, ws, "problem.balance.counts[3]"},
		{"work zero", func(tp *Balance) { tp.Work = 0 }, ws, "problem.balance.work"},
		{"interval zero", func(tp *Balance) { tp.Interval = 0 }, ws, "problem.balance.interval"},
		{"interval negative", func(tp *Balance) { tp.Interval = -1 }, ws, "problem.balance.interval"},
		{"jitter one", func(tp *Balance) { tp.Jitter = 1 }, ws, "problem.balance.jitter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := Problem{Balance: good()}
			tt.mod(pr.Balance)
			if pr.Family() != FamilyBalance {
				t.Fatalf("Family = %q", pr.Family())
			}
			checkFieldError(t, pr.Validate(tt.pl), tt.wantPath)
		})
	}
	if n := (&Balance{Tasks: 5, Counts: []int{1, 2}}).Count(1); n != 2 {
		t.Errorf("Count(1) = %d, want the count 2", n)
	}
}

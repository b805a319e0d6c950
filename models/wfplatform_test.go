package models

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkflowPlatform builds the platform of the tiny instance: a
// cluster per machine, n1's eight cores at its 2400 MHz (the first speed
// recorded, so γ = 1), n2's one core of unknown speed (γ = 1), n3's two at
// 1200 MHz (γ = 2); the network at 50 bytes/s, memory at 1000.
func TestWorkflowPlatform(t *testing.T) {
	w, err := ReadWfCommons(strings.NewReader(wfDoc15), "tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Machines = append(w.Machines, WorkflowMachine{Name: "n3", Cores: 2, SpeedMHz: 1200})
	m, err := WorkflowPlatform(w, 50, 1000, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if m.Beta != 0.02 || m.Alpha != 0.5 || len(m.Clusters) != 3 || m.NumProcessors() != 11 {
		t.Fatalf("platform %+v", m)
	}
	for c, want := range []struct {
		name  string
		cores int
	}{{"n1", 8}, {"n2", 1}, {"n3", 2}} {
		cl := m.Clusters[c]
		if cl.Name != want.name || len(cl.Processors) != want.cores || cl.Beta != 0.001 {
			t.Errorf("cluster %d: %s, %d cores, β %g; want %s, %d, 0.001", c, cl.Name, len(cl.Processors), cl.Beta, want.name, want.cores)
		}
	}
	all := allProcessorsOf(m)
	for i, want := range map[int]struct {
		name  string
		gamma float64
	}{0: {"n1/0", 1}, 7: {"n1/7", 1}, 8: {"n2/0", 1}, 9: {"n3/0", 2}, 10: {"n3/1", 2}} {
		p := all[i]
		if p.Name != want.name || p.Gamma != want.gamma || p.Rate(MultiClusterKinds) != 1/want.gamma {
			t.Errorf("processor %d: %+v, want %s at γ %g computing while it communicates", i, p, want.name, want.gamma)
		}
	}
	if got := MachineCores(w)["n3"]; len(got) != 2 || got[0] != 9 || got[1] != 10 {
		t.Errorf("cores of n3: %v", got)
	}
	if err := (&Platform{MultiCluster: m}).Validate(); err != nil {
		t.Error(err)
	}
}

// allProcessorsOf lists a multi-cluster's processors in global order.
func allProcessorsOf(m *MultiCluster) []Processor {
	var ps []Processor
	for _, c := range m.Clusters {
		ps = append(ps, c.Processors...)
	}
	return ps
}

// TestPlatformResolve builds a platform from a file and names the field of
// each mistake.
func TestPlatformResolve(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tiny.json"), []byte(wfDoc15), 0o644); err != nil {
		t.Fatal(err)
	}
	p := Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 10}}
	if err := p.Resolve(dir); err != nil || p.MultiCluster == nil || p.From != nil || p.MultiCluster.NumProcessors() != 9 ||
		p.MultiCluster.Clusters[0].Beta != 1/DefaultMemoryBandwidth {
		t.Fatalf("%v %+v", err, p)
	}
	for _, tc := range []struct {
		p     Platform
		field string
	}{
		{Platform{From: &PlatformSource{WfCommons: "tiny.json"}}, "platform.from.bandwidth"},
		{Platform{From: &PlatformSource{Bandwidth: 1}}, "platform.from.wfcommons"},
		{Platform{From: &PlatformSource{WfCommons: "none.json", Bandwidth: 1}}, "platform.from.wfcommons"},
		{Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 1, Alpha: -1}}, "platform.from.alpha"},
		{Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 1, Memory: new(0.0)}}, "platform.from.memory"},
		{Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 1}, Delay: &Delay{}}, "platform.from"},
	} {
		err := tc.p.Resolve(dir)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tc.field {
			t.Errorf("%+v: %v, want an error at %s", tc.p.From, err, tc.field)
		}
	}
	if err := (&Platform{From: &PlatformSource{}}).Validate(); err == nil {
		t.Error("an unresolved platform validates")
	}
}

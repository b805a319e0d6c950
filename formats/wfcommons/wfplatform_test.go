package wfcommons

import (
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
)

// TestWorkflowPlatform builds the platform of the tiny instance: a
// cluster per machine, n1's eight cores at its 2400 MHz (the first speed
// recorded, so γ = 1), n2's one core of unknown speed (γ = 1), n3's two at
// 1200 MHz (γ = 2); the network at 50 bytes/s, memory at 1000.
func TestWorkflowPlatform(t *testing.T) {
	w, err := Read(strings.NewReader(wfDoc15), "tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Machines = append(w.Machines, Machine{Name: "n3", Cores: 2, SpeedMHz: 1200})
	m, err := MultiCluster(w, 50, 1000, 0.5)
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
		if p.Name != want.name || p.Gamma != want.gamma || p.Rate(models.MultiClusterKinds) != 1/want.gamma {
			t.Errorf("processor %d: %+v, want %s at γ %g computing while it communicates", i, p, want.name, want.gamma)
		}
	}
	if got := MachineCores(w)["n3"]; len(got) != 2 || got[0] != 9 || got[1] != 10 {
		t.Errorf("cores of n3: %v", got)
	}
	if err := (&models.Platform{MultiCluster: m}).Validate(); err != nil {
		t.Error(err)
	}
}

// allProcessorsOf lists a multi-cluster's processors in global order.
func allProcessorsOf(m *models.MultiCluster) []models.Processor {
	var ps []models.Processor
	for _, c := range m.Clusters {
		ps = append(ps, c.Processors...)
	}
	return ps
}

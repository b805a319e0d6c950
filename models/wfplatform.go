package models

import (
	"fmt"
	"path/filepath"

	"github.com/netsched/netsched/internal/budget"
)

// PlatformSource says where a platform comes from when it is not written
// out in the scenario: the recorded machines of a WfCommons workflow
// instance (a path relative to the scenario file), made a multi-cluster of
// one cluster per machine by WorkflowPlatform.
type PlatformSource struct {
	WfCommons string `yaml:"wfcommons" json:"wfcommons"`
	// Bandwidth is the network's bandwidth between two machines in bytes
	// per second (β = 1/Bandwidth seconds per byte, the unit of the
	// edges' data).
	Bandwidth float64 `yaml:"bandwidth" json:"bandwidth"`
	// Memory is the bandwidth of data between two cores of one machine in
	// bytes per second; nil means DefaultMemoryBandwidth.
	Memory *float64 `yaml:"memory,omitempty" json:"memory,omitempty"`
	// Alpha is the start-up latency of every transfer, in seconds.
	Alpha float64 `yaml:"alpha,omitempty" json:"alpha,omitempty"`
}

// DefaultMemoryBandwidth is the bandwidth between two cores of one machine
// when none is given: 10^10 bytes/s, what one core copies in memory on a
// server of the instances' time (the Chameleon machines' Xeons), a hundred
// times a 1 Gbit/s network.
const DefaultMemoryBandwidth = 1e10

// Resolve builds a platform given by From into its MultiCluster; dir is
// where a relative path starts. The file is read whole, up to
// MaxWfCommonsSize, as for a task graph from WfCommons; the platform it
// makes is checked against the memory budget with the rest of the
// scenario. From is then cleared, so that the platform is a multi-cluster
// like any other. Errors are *FieldError below "platform.from".
func (p *Platform) Resolve(dir string) error { return p.ResolveWithin(dir, budget.Default()) }

// ResolveWithin is Resolve within the memory budget b: a WfCommons file
// whose reading would need more is refused before it is read.
func (p *Platform) ResolveWithin(dir string, b budget.Bytes) error {
	if p.From == nil {
		return nil
	}
	root := rootPath("platform")
	from := root.field("from")
	if p.Kind() != "" {
		return fieldErr(from, "give either a platform kind or from, not both")
	}
	s := p.From
	if s.WfCommons == "" {
		return fieldErr(from.field("wfcommons"), "must name a WfCommons instance")
	}
	if err := positive(from.field("bandwidth"), s.Bandwidth); err != nil {
		return err
	}
	memory := DefaultMemoryBandwidth
	if s.Memory != nil {
		memory = *s.Memory
	}
	if err := positive(from.field("memory"), memory); err != nil {
		return err
	}
	if err := nonNegative(from.field("alpha"), s.Alpha); err != nil {
		return err
	}
	file := s.WfCommons
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	w, err := ReadWfCommonsFileWithin(file, b)
	if err != nil {
		return fieldErr(from.field("wfcommons"), "%v", err)
	}
	m, err := WorkflowPlatform(w, s.Bandwidth, memory, s.Alpha)
	if err != nil {
		return fieldErr(from.field("wfcommons"), "%v", err)
	}
	p.MultiCluster, p.From = m, nil
	return nil
}

// WorkflowPlatform is the platform of a workflow's recorded machines: a
// multi-cluster of one cluster per machine, named as the machine, in the
// document's order, with one processor per core (one for a machine whose
// cores are not recorded), named "<machine>/<core>". Cores of one machine
// share its memory: data between them takes alpha + data/memory seconds
// for data bytes, holding the ports of both cores only. Data between
// machines takes alpha + data/bandwidth and also holds the sending
// machine's uplink-out and the receiving machine's uplink-in (its network
// interface, one transfer each way at a time), so the cores of a machine
// share its bandwidth. A core computes while it communicates. A core's
// time per unit is γ = S/s of its machine's speed s in MHz, S the speed of
// the first machine with a recorded speed, so that a task weighing its
// recorded runtime takes that long on such a machine; a machine whose
// speed is not recorded has γ = 1.
func WorkflowPlatform(w *Workflow, bandwidth, memory, alpha float64) (*MultiCluster, error) {
	if len(w.Machines) == 0 {
		return nil, fmt.Errorf("the instance records no machine (workflow.execution.machines)")
	}
	ref := 0.0
	for _, m := range w.Machines {
		if m.SpeedMHz > 0 {
			ref = m.SpeedMHz
			break
		}
	}
	mc := &MultiCluster{Beta: 1 / bandwidth, Alpha: alpha}
	for _, m := range w.Machines {
		gamma := 1.0
		if m.SpeedMHz > 0 {
			gamma = ref / m.SpeedMHz
		}
		c := Cluster{Name: m.Name, Beta: 1 / memory}
		for core := range max(m.Cores, 1) {
			overlap := make(map[string]float64, len(MultiClusterKinds))
			for _, k := range MultiClusterKinds {
				overlap[k] = gamma
			}
			c.Processors = append(c.Processors, Processor{Name: fmt.Sprintf("%s/%d", m.Name, core), Gamma: gamma, Overlap: overlap})
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	return mc, nil
}

// MachineCores returns, for each machine of w by name, the processors of
// WorkflowPlatform(w, ...) that are its cores, in the global numbering.
func MachineCores(w *Workflow) map[string][]int {
	cores := make(map[string][]int, len(w.Machines))
	next := 0
	for _, m := range w.Machines {
		for range max(m.Cores, 1) {
			cores[m.Name] = append(cores[m.Name], next)
			next++
		}
	}
	return cores
}

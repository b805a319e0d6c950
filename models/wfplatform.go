package models

import (
	"fmt"
	"path/filepath"
)

// PlatformSource says where a platform comes from when it is not written
// out in the scenario: the recorded machines of a WfCommons workflow
// instance (a path relative to the scenario file), made a crossbar by
// WorkflowCrossbar.
type PlatformSource struct {
	WfCommons string `yaml:"wfcommons" json:"wfcommons"`
	// Bandwidth is every link's bandwidth in bytes per second (β =
	// 1/Bandwidth seconds per byte, the unit of the edges' data).
	Bandwidth float64 `yaml:"bandwidth" json:"bandwidth"`
	// Alpha is the start-up latency of every transfer, in seconds.
	Alpha float64 `yaml:"alpha,omitempty" json:"alpha,omitempty"`
}

// Resolve builds a platform given by From into its Crossbar; dir is where
// a relative path starts. The file is read whole, up to MaxWfCommonsSize,
// as for a task graph from WfCommons; the crossbar it makes is checked
// against the memory budget with the rest of the scenario. From is then
// cleared, so that the platform is a crossbar like any other. Errors are
// *FieldError below "platform.from".
func (p *Platform) Resolve(dir string) error {
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
	if err := nonNegative(from.field("alpha"), s.Alpha); err != nil {
		return err
	}
	file := s.WfCommons
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	w, err := ReadWfCommonsFile(file)
	if err != nil {
		return fieldErr(from.field("wfcommons"), "%v", err)
	}
	c, err := WorkflowCrossbar(w, s.Bandwidth, s.Alpha)
	if err != nil {
		return fieldErr(from.field("wfcommons"), "%v", err)
	}
	p.Crossbar, p.From = c, nil
	return nil
}

// WorkflowCrossbar is the platform of a workflow's recorded machines: a
// full-duplex crossbar with one processor per core of each machine (one
// for a machine whose cores are not recorded), named "<machine>/<core>",
// in the document's order; transfers take alpha + data/bandwidth seconds
// for data bytes, and a core computes while it communicates. A core's
// time per unit is γ = S/s of its machine's speed s in MHz, S the speed of
// the first machine with a recorded speed, so that a task weighing its
// recorded runtime takes that long on such a machine; a machine whose
// speed is not recorded has γ = 1.
func WorkflowCrossbar(w *Workflow, bandwidth, alpha float64) (*Crossbar, error) {
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
	c := &Crossbar{Beta: 1 / bandwidth, Alpha: alpha, Duplex: FullDuplex}
	for _, m := range w.Machines {
		gamma := 1.0
		if m.SpeedMHz > 0 {
			gamma = ref / m.SpeedMHz
		}
		for core := range max(m.Cores, 1) {
			c.Processors = append(c.Processors, Processor{Name: fmt.Sprintf("%s/%d", m.Name, core), Gamma: gamma,
				Overlap: map[string]float64{KindSend: gamma, KindRecv: gamma}})
		}
	}
	return c, nil
}

// MachineCores returns, for each machine of w by name, the processors of
// WorkflowCrossbar(w, ...) that are its cores.
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

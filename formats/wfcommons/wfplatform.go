package wfcommons

import (
	"fmt"

	"github.com/netsched/netsched/models"
)

// MultiCluster is the platform of a workflow's recorded machines: a
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
func MultiCluster(w *Workflow, bandwidth, memory, alpha float64) (*models.MultiCluster, error) {
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
	mc := &models.MultiCluster{Beta: 1 / bandwidth, Alpha: alpha}
	for _, m := range w.Machines {
		gamma := 1.0
		if m.SpeedMHz > 0 {
			gamma = ref / m.SpeedMHz
		}
		c := models.Cluster{Name: m.Name, Beta: 1 / memory}
		for core := range max(m.Cores, 1) {
			overlap := make(map[string]float64, len(models.MultiClusterKinds))
			for _, k := range models.MultiClusterKinds {
				overlap[k] = gamma
			}
			c.Processors = append(c.Processors, models.Processor{Name: fmt.Sprintf("%s/%d", m.Name, core), Gamma: gamma, Overlap: overlap})
		}
		mc.Clusters = append(mc.Clusters, c)
	}
	return mc, nil
}

// MachineCores returns, for each machine of w by name, the processors of
// MultiCluster(w, ...) that are its cores, in the global numbering.
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

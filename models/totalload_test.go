package models

import (
	"strings"
	"testing"
)

// TestTotalLoadFinite: loads that are each finite but whose total is not
// are refused at the processor where the total passes the largest
// number, across the clusters of a multi-cluster too.
func TestTotalLoadFinite(t *testing.T) {
	procs := func(loads ...float64) []Processor {
		ps := make([]Processor, len(loads))
		for i, l := range loads {
			ps[i] = Processor{Gamma: 1, Load: l}
		}
		return ps
	}
	for _, tc := range []struct {
		p    Platform
		want string
	}{
		{Platform{Crossbar: &Crossbar{Beta: 1, Duplex: HalfDuplex, Processors: procs(1, 1e308, 1e308)}},
			"platform.crossbar.processors[2].load: the loads up to this one add up to more than 1.8e+308"},
		{Platform{MultiCluster: &MultiCluster{Beta: 1, Clusters: []Cluster{{Beta: 1, Processors: procs(1e308)}, {Beta: 1, Processors: procs(0, 1e308)}}}},
			"platform.multicluster.clusters[1].processors[1].load: the loads up to this one"},
	} {
		err := tc.p.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.p.Kind(), err, tc.want)
		}
	}
	ok := Platform{Crossbar: &Crossbar{Beta: 1, Duplex: HalfDuplex, Processors: procs(8e307, 8e307)}}
	if err := ok.Validate(); err != nil {
		t.Errorf("a finite total: %v", err)
	}
}

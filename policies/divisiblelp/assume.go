package divisiblelp

import (
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
)

// assumes are the model the program of package optround is written in.
var assumes = []policies.Assumption{consistentDegradation, noResultsAcrossClusters}

// consistentDegradation: the program's work rows are linear in the
// communication times, the loss of each kind added up.
var consistentDegradation = policies.Assumption{
	Name: "consistent degradation",
	Doc: "that a processor communicating in several ways at once computes at its rate less the sum of each one's loss " +
		"(consistent degradation taken as linear), so that the round's work is linear in its communication times",
	Source: "paper 000 §4.3, paper 001 §2; the linear program of package optround",
	Contradicted: func(pl *models.Platform, _ *models.Problem) string {
		var procs []models.Processor
		switch {
		case pl.Crossbar != nil:
			procs = pl.Crossbar.Processors
		case pl.MultiCluster != nil:
			procs = allProcessors(pl.MultiCluster)
		}
		n := 0
		for _, p := range procs {
			if !p.ConsistentlyDegrading() { // p is a copy: ConsistentlyDegrading swaps Combined while it looks
				n++
			}
		}
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("%d processors have combined rates that break it (processors[].combined): the round is optimal for the rule's rates, "+
			"and the replay shows how far the platform's rates move the schedule from its claim", n)
	},
}

// noResultsAcrossClusters: the multi-cluster expansion has no result
// phase.
var noResultsAcrossClusters = policies.Assumption{
	Name:     "no result collection on a multi-cluster",
	Doc:      "that the results of a multi-cluster's load stay where they are computed (the multi-cluster expansion has no result phase)",
	Source:   "paper 001 §2",
	Required: true,
	Contradicted: func(pl *models.Platform, pr *models.Problem) string {
		if d := pr.Divisible; pl.MultiCluster != nil && d != nil && d.CollectResults && d.ResultSize > 0 {
			return "problem.divisible.collect_results is true on a multicluster platform: set it false, or use a crossbar"
		}
		return ""
	},
}

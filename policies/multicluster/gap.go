package multicluster

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies/optround"
	"github.com/netsched/netsched/sim"
)

// MaxLPProcessors is the largest platform on which the policies, planning
// an instance that breaks the paper's assumptions (force), also compute
// the optimal round by LP (optround.MultiCluster) to report their gap to
// it: its cost grows about as P³ (results/benchmarks.md, "divisible-lp").
const MaxLPProcessors = 100

// reportGap sets the metrics lp_T, the optimal round time of every round
// the platform allows (relays, and clusters both sending and receiving
// across clusters, allowed), and gap_to_lp, how far T is above it
// (T/lp_T − 1), when the platform has at most MaxLPProcessors processors.
// A failure of the LP is a warning, not an error: the schedule stands;
// the error is ctx's, when it is done.
func reportGap(ctx context.Context, pl *models.Platform, s *sim.Schedule) error {
	if pl.MultiCluster.NumProcessors() > MaxLPProcessors {
		return nil
	}
	opt, err := optround.MultiCluster(ctx, pl, nil)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.Warnings = append(s.Warnings, fmt.Sprintf("the optimal round could not be computed for gap_to_lp: %v", err))
		return nil
	}
	s.Metrics["lp_T"] = opt.T
	s.Metrics["gap_to_lp"] = 0 // no load: both are 0
	if opt.T > 0 {
		s.Metrics["gap_to_lp"] = s.Metrics["T"]/opt.T - 1
	}
	return nil
}

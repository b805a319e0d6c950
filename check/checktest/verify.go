package checktest

import (
	"context"
	"testing"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Verify replays s on p in the given mode, checks that it solves pr
// (check.Replay), and fails tb unless the schedule is verified: the replay
// accepts it, neither the replay nor the problem checks find a violation,
// and the simulated makespan keeps the claim (equals it when timed, is not
// above it when ordered). It reports at most five violations and returns
// the result.
func Verify(tb testing.TB, p *models.Platform, pr *models.Problem, s *sim.Schedule, mode sim.Mode) *sim.Result {
	tb.Helper()
	res := Solves(tb, p, pr, s, mode)
	if !res.Matches() {
		tb.Errorf("%s (%s): simulated makespan %.12g, claimed %.12g (gap %g)", s.Policy, mode, res.Makespan, res.Claimed, res.Gap())
	}
	return res
}

// Solves is Verify without the claim: the replay accepts the schedule and
// neither the replay nor the problem checks find a violation, whatever its
// makespan. It returns the result.
func Solves(tb testing.TB, p *models.Platform, pr *models.Problem, s *sim.Schedule, mode sim.Mode) *sim.Result {
	tb.Helper()
	res, err := check.Replay(context.Background(), p, pr, s, mode)
	if err != nil {
		tb.Fatalf("%s (%s): %v", s.Policy, mode, err)
	}
	reportViolations(tb, s, res)
	return res
}

// reportViolations fails tb with the first five violations of res.
func reportViolations(tb testing.TB, s *sim.Schedule, res *sim.Result) {
	tb.Helper()
	for i, v := range res.Violations {
		if i == 5 {
			tb.Errorf("%s (%s): and %d more violations", s.Policy, res.Mode, len(res.Violations)-i)
			break
		}
		tb.Errorf("%s (%s): %v", s.Policy, res.Mode, v)
	}
}

package heft_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/shareddata"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/scenarios"
)

// genomeScenario is the 1000genome workflow on two clusters of eight
// processors, as processors gives them (%[2]s: cluster a's, %[3]s: b's).
const genomeScenario = `platform:
  multicluster:
    beta: 8.0e-8
    alpha: 0.001
    clusters:
      - {name: a, beta: 8.0e-9, processors: %[2]s}
      - {name: b, beta: 8.0e-9, processors: %[3]s}
problem: {dag: {from: {wfcommons: %[1]q}}}
policies: [heft, cpop, dsc]
`

// TestOverlapAssumed runs the comparison issue 39 found decided by a
// default: HEFT and CPOP assume that communication overlaps computation
// (Topcuoglu, Hariri and Wu 2002), and on generated processors without
// overlap the loader warns once, naming both and the field to set; with
// overlap set on the generator (the word gamma) there is no warning, and
// HEFT's schedule is the one it makes on the same 16 processors listed.
func TestOverlapAssumed(t *testing.T) {
	file := filepath.Join(shareddata.WfCommonsDir(t), "1000genome-chameleon-2ch-100k-001.json")
	load := func(a, b string) *scenarios.Scenario {
		t.Helper()
		sc, err := scenarios.Parse(filepath.Join(t.TempDir(), "genome.yaml"), []byte(fmt.Sprintf(genomeScenario, file, a, b)))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	bare := load("{count: 8, name: a, gamma: 1}", "{count: 8, name: b, gamma: 1}")
	var overlapWarnings []string
	for _, w := range bare.Warnings {
		if strings.Contains(w, "communication overlaps computation") {
			overlapWarnings = append(overlapWarnings, w)
		}
	}
	if len(overlapWarnings) != 2 || !strings.Contains(overlapWarnings[0], "heft, cpop assume") ||
		!strings.Contains(overlapWarnings[0], "overlap: {intra: gamma, inter: gamma}") || !strings.Contains(overlapWarnings[1], "dsc assumes") {
		t.Errorf("without overlap: warnings %q, want one for heft and cpop naming the field, one for dsc", overlapWarnings)
	}
	generated := load("{count: 8, name: a, gamma: 1, overlap: {intra: gamma, inter: gamma}}", "{count: 8, name: b, gamma: 1, overlap: {intra: gamma, inter: gamma}}")
	var la, lb []string
	for i := range 8 {
		la = append(la, fmt.Sprintf("{name: a%d, gamma: 1, overlap: {intra: 1, inter: 1}}", i))
		lb = append(lb, fmt.Sprintf("{name: b%d, gamma: 1, overlap: {intra: 1, inter: 1}}", i))
	}
	listed := load("["+strings.Join(la, ", ")+"]", "["+strings.Join(lb, ", ")+"]")
	if len(generated.Warnings)+len(listed.Warnings) > 0 {
		t.Errorf("with overlap: warnings %q and %q, want none", generated.Warnings, listed.Warnings)
	}
	heft, _ := policies.Lookup("heft")
	makespan := func(sc *scenarios.Scenario) float64 {
		t.Helper()
		s, err := heft.Planner.Plan(context.Background(), sc.Instance(0, 1))
		if err != nil {
			t.Fatal(err)
		}
		return s.Claimed
	}
	without, gen, list := makespan(bare), makespan(generated), makespan(listed)
	if gen != list || !(without > gen) {
		t.Errorf("HEFT makespans: %v without overlap, %v generated with overlap, %v listed with overlap; want the last two equal, below the first", without, gen, list)
	}
}

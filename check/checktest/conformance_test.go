package checktest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/sim"
)

// TestPlatformsDeclared walks the registry: every policy declares the
// platform kinds it runs on (netsched list prints them), every bundled
// scenario names a policy only on a platform it declares, and a policy
// refuses an instance of its family on every platform kind it does not
// declare.
func TestPlatformsDeclared(t *testing.T) {
	suite := new(checktest.Suite)
	for _, e := range policies.All() {
		suite.Declared(t, e)
	}
}

// TestConformance runs the conformance suite (checktest.Suite) on every
// registered policy: a policy added to the registry is covered without a
// test of its own.
//
// Every metric a schedule reports must be explained in policies' glossary
// and in the Metrics section of docs/scenarios.md, with its meaning.
func TestConformance(t *testing.T) {
	reference := readReference(t)
	suite := &checktest.Suite{Check: func(t *testing.T, e policies.Entry, s *sim.Schedule) { explained(t, e.Name, s, reference) }}
	if testing.Short() {
		suite.Random = 8
	}
	for _, e := range policies.All() {
		suite.Run(t, e)
	}
}

// readReference reads the Metrics section of the committed scenario
// reference, docs/scenarios.md.
func readReference(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, metrics, ok := strings.Cut(string(b), "\n## Metrics\n")
	if !ok {
		t.Fatal("docs/scenarios.md has no section Metrics (go run ./cmd/netsched doc > docs/scenarios.md)")
	}
	return metrics
}

// explained checks that every metric the schedule of policy reports is
// in the glossary (policies.LookupMetric) and in the reference, in a row
// of its Metrics table with its meaning.
func explained(t *testing.T, policy string, s *sim.Schedule, reference string) {
	t.Helper()
	for name := range s.Metrics {
		m, ok := policies.LookupMetric(policy, name)
		if !ok {
			t.Errorf("%s reports metric %s, which policies' glossary does not explain for it", policy, name)
			continue
		}
		_, line, _ := strings.Cut(reference, "\n| `"+m.Name+"` | ")
		line, _, _ = strings.Cut(line, "\n")
		if !strings.HasSuffix(line, " | "+strings.ReplaceAll(m.Doc, "|", `\|`)+" |") {
			t.Errorf("docs/scenarios.md has no row for metric %s with its meaning (go run ./cmd/netsched doc > docs/scenarios.md)", m.Name)
		}
	}
}

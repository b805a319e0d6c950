package scenarios_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/scenarios"
)

// TestParseCancelled: parsing stops on a done context with its error and
// no scenario, whatever the platform and problem (a list of processors, a
// generator, a generated task graph), and a live context parses the same
// file.
func TestParseCancelled(t *testing.T) {
	var list strings.Builder
	list.WriteString("platform: {crossbar: {beta: 0.01, duplex: full, processors: [")
	for i := range 2000 {
		fmt.Fprintf(&list, "{name: p%d, gamma: 0.1, load: %d},", i, i%3)
	}
	list.WriteString("]}}\nproblem: {divisible: {rounds: 1}}\npolicies: [single-round]\n")
	for _, tc := range []struct{ name, text string }{
		{"list", list.String()},
		{"generator", string(generated("{count: 1000, gamma: 1}"))},
		{"gauss", "platform: {delay: {rho: 3}}\nproblem: {dag: {from: {gauss: 20}}}\npolicies: [cross]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			sc, err := scenarios.ParseWithin(ctx, tc.name+".yaml", []byte(tc.text), budget.Default())
			if !errors.Is(err, context.Canceled) || sc != nil {
				t.Errorf("cancelled: %v, %v; want no scenario and context.Canceled", sc, err)
			}
			if _, err := scenarios.ParseWithin(context.Background(), tc.name+".yaml", []byte(tc.text), budget.Default()); err != nil {
				t.Errorf("live context: %v", err)
			}
		})
	}
}

package scenarios_test

import (
	"fmt"
	"strings"

	_ "github.com/netsched/netsched/policies/all" // the policies scenarios name
	"github.com/netsched/netsched/scenarios"
)

// Load finds a bundled scenario by name (or reads a file by path) and
// validates it: platform, problem, policies and sweep axes.
func ExampleLoad() {
	sc, err := scenarios.Load("crossbar-hetero")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sc.Name, sc.Platform.Kind(), sc.Problem.Family(), sc.Platform.NumNodes(), "processors")
	var ids []string
	for _, p := range sc.Policies {
		ids = append(ids, p.ID())
	}
	fmt.Println(strings.Join(ids, ", "))
	fmt.Println(sc.Sweep[0].Path, sc.Sweep[0].Values)
	// Output:
	// crossbar-hetero crossbar divisible 8 processors
	// mmdl, mmdl-forward, single-round, no-redistribution, direct
	// beta [0.005 0.01 0.02 0.05]
}

// A scenario that does not load is an error naming the source, the line
// and the field.
func ExampleParse() {
	_, err := scenarios.Parse("mine.yaml", []byte(`
platform:
  delay: {rho: -1}
problem:
  dag: {tasks: [{weight: 1}]}
policies: [sequential]
`))
	fmt.Println(err)
	// Output:
	// scenario mine.yaml: line 3: platform.delay.rho: must be a finite number >= 0, got -1
}

package policies_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all" // registers every built-in policy
)

// Lookup finds a registered policy by name; its Planner schedules an
// instance: here a chain of two tasks and a third task beside it, on the
// delay platform (a delay ρ = 2 between tasks on different processors).
func ExampleLookup() {
	e, ok := policies.Lookup("unclustered")
	if !ok {
		fmt.Println("not registered")
		return
	}
	fmt.Println(e.Name, e.Family, e.Platforms)
	in := policies.Instance{
		Platform: &models.Platform{Delay: &models.Delay{Rho: 2}},
		Problem: &models.Problem{DAG: &models.DAG{
			Tasks: []models.Task{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}, {Name: "c", Weight: 2}},
			Edges: []models.DAGEdge{{From: 0, To: 1}},
		}},
		Seed: 1,
	}
	s, err := e.Planner.Plan(context.Background(), in)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range s.Actions {
		fmt.Printf("%s on P%d from %g\n", a.Label, a.Node, *a.Start)
	}
	fmt.Println("claimed makespan", s.Claimed)
	// Output:
	// unclustered dag [delay]
	// a on P0 from 0
	// c on P2 from 0
	// b on P1 from 3
	// claimed makespan 6
}

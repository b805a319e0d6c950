package formats_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/formats"
	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
)

// A scenario's task graph given by a source (here a generated family; a
// file's path starts at dir) is loaded into the DAG, within the memory
// budget.
func ExampleResolveDAG() {
	g := &models.DAG{From: &models.DAGSource{FFT: 4}}
	warnings, err := formats.ResolveDAG(context.Background(), g, "problem.dag", "", budget.Default())
	fmt.Println(len(g.Tasks), "tasks,", len(g.Edges), "edges;", len(warnings), "warnings;", err)
	g = &models.DAG{From: &models.DAGSource{FFT: 4, Gauss: 3}}
	_, err = formats.ResolveDAG(context.Background(), g, "problem.dag", "", budget.Default())
	fmt.Println(err)
	// Output:
	// 15 tasks, 22 edges; 0 warnings; <nil>
	// problem.dag.from: must set exactly one of stg, dot, wfcommons, fft, gauss
}

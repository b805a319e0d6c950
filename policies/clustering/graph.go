package clustering

import (
	"context"

	"github.com/netsched/netsched/models"
)

// Graph is a task graph prepared once for the algorithms of the package:
// its levels, the topological order of eval′ and the precedence relation,
// none of which depends on ρ. Running several algorithms at several delays
// on one Graph prepares the graph once; the package's functions of a
// *models.DAG prepare it at every call.
type Graph struct{ p *prepared }

// Prepare checks g and prepares it. Computing the precedence relation
// takes time and memory quadratic in the number of tasks; Prepare returns
// ctx.Err() when ctx is done first.
func Prepare(ctx context.Context, g *models.DAG) (*Graph, error) {
	p, err := prepare(g)
	if err != nil {
		return nil, err
	}
	if err := p.withReach(ctx); err != nil {
		return nil, err
	}
	return &Graph{p}, nil
}

// CrossA runs Cross-A on the graph (see the function CrossA).
func (g *Graph) CrossA(ctx context.Context, rho float64, prm Params) (*Result, error) {
	return recursiveAlgorithm("cross").run(ctx, g.p, rho, prm)
}

// ConvexA runs Convex-A on the graph (see the function ConvexA).
func (g *Graph) ConvexA(ctx context.Context, rho float64, prm Params) (*Result, error) {
	return recursiveAlgorithm("convex").run(ctx, g.p, rho, prm)
}

// CASS2 runs CASS-II on the graph (see the function CASS2).
func (g *Graph) CASS2(rho float64) (*Plan, error) {
	return g.p.cass2Checked(rho, CASSParams{})
}

// CASS2With runs CASS-II on the graph with the given reading (see the
// function CASS2With).
func (g *Graph) CASS2With(rho float64, prm CASSParams) (*Plan, error) {
	return g.p.cass2Checked(rho, prm)
}

// EvalPrime is eval′ of a clustering of the graph (see the function
// EvalPrime).
func (g *Graph) EvalPrime(c Clustering, rho float64) (*Plan, error) {
	if err := c.check(g.p.n); err != nil {
		return nil, err
	}
	return g.p.plan(c.Normalize(), g.p.order, rho), nil
}

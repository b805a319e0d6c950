package clustering

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/heft"
	"github.com/netsched/netsched/sim"
)

// A clusterer computes the clustering of an algorithm for task graph g
// under the uniform delay rho, with the instance's options and seed.
type clusterer func(ctx context.Context, in policies.Instance, g *models.DAG, rho float64) (*Plan, error)

// mappedOn makes a planner that plans with delayPlan on the delay
// platform and with Mapped, the clusters of cluster mapped onto the
// processors, on a crossbar or a multi-cluster.
func mappedOn(name string, delayPlan policies.PlannerFunc, cluster clusterer) policies.PlannerFunc {
	return func(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
		switch d := in.Platform.Delay; {
		case d != nil && d.Processors > 0:
			return Bounded(ctx, name, in, cluster)
		case d != nil:
			return delayPlan(ctx, in)
		}
		return Mapped(ctx, name, in, cluster)
	}
}

// Bounded runs a clustering algorithm for the delay platform with a bound
// on its processors (platform.delay.processors = P): it clusters as on
// unbounded processors, merges the clusters onto the P processors as
// Mapped does (MapClusters, all processors equally fast: the largest
// cluster first, onto the least loaded), and times the merged clustering
// with eval′ (EvalPrime: each task as soon as its processor is free and
// its predecessors' data are there, ρ after they end on another
// processor). With P at least the clusters found, each cluster keeps a
// processor of its own. The schedule reports the clusters found before
// merging ("clusters").
func Bounded(ctx context.Context, name string, in policies.Instance, cluster clusterer) (*sim.Schedule, error) {
	g, rho := instance(in)
	plan, err := cluster(ctx, in, g, rho)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	same := make([]float64, in.Platform.Delay.Processors)
	for i := range same {
		same[i] = 1
	}
	merged, err := EvalPrime(g, Clustering(MapClusters(plan.Clustering, g, same)), rho)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := merged.schedule(g, name, in.Recycle)
	s.Metrics["clusters"] = float64(plan.Clustering.NumClusters())
	return s, nil
}

// Mapped runs a clustering algorithm for a bounded, heterogeneous
// platform (a crossbar or a multi-cluster) in three steps:
//
//  1. Cluster on the delay model of the platform: each task weighs its
//     weight times the processors' mean time per unit γ̄, and the uniform
//     delay ρ is the mean over the graph's edges of HEFT's c̄ = α + data·β̄
//     (0 for an edge without data).
//  2. Merge the clusters onto the P processors by list scheduling
//     (MapClusters): the largest cluster first, each onto the processor
//     where the work it already holds plus the cluster's ends first.
//  3. Order and time the tasks on their processors as HEFT does with its
//     choice of processor taken away (heft.PlanMapped): the ready task of
//     highest upward rank first, with insertion, its incoming data booked
//     on the ports and uplinks.
//
// The schedule reports the clusters found ("clusters") and the ρ used.
func Mapped(ctx context.Context, name string, in policies.Instance, cluster clusterer) (*sim.Schedule, error) {
	g, pl := in.Problem.DAG, in.Platform
	gammas := processorGammas(pl)
	if gammas == nil {
		return nil, fmt.Errorf("%s: maps its clusters onto a crossbar or multicluster platform, not %q", name, pl.Kind())
	}
	meanGamma, meanComm := heft.MeanCosts(pl)
	scaled := &models.DAG{Tasks: make([]models.Task, len(g.Tasks)), Edges: g.Edges}
	for v, t := range g.Tasks {
		scaled.Tasks[v] = models.Task{Name: t.Name, Weight: t.Weight * meanGamma}
	}
	rho := 0.0
	for _, e := range g.Edges {
		rho += meanComm(e.Data) / float64(len(g.Edges))
	}
	plan, err := cluster(ctx, in, scaled, rho)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	proc := MapClusters(plan.Clustering, g, gammas)
	s, err := heft.PlanMapped(ctx, pl, g, proc, name, in.Recycle)
	if err != nil {
		return nil, err
	}
	s.Metrics["clusters"] = float64(plan.Clustering.NumClusters())
	s.Metrics["rho"] = rho
	return s, nil
}

// MapClusters merges the clusters of c onto processors of times per unit
// gammas by list scheduling, the longest-processing-time rule on related
// machines: clusters in decreasing work (the sum of their tasks' weights
// in g; ties to the cluster of the lower first task), each onto the
// processor p where (work already on p + its work)·γ_p is least (ties to
// the lower p). Fewer clusters than processors leave the slowest idle; the
// largest cluster goes to the fastest processor. It returns each task's
// processor.
func MapClusters(c Clustering, g *models.DAG, gammas []float64) []int {
	c = c.Normalize() // ids 0…k−1 in the order of their first task
	k := c.NumClusters()
	work := make([]float64, k)
	for v, id := range c {
		work[id] += g.Tasks[v].Weight
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(work[b], work[a]) })
	load := make([]float64, len(gammas))
	where := make([]int, k)
	for _, id := range order {
		best := 0
		for p := range gammas {
			if (load[p]+work[id])*gammas[p] < (load[best]+work[id])*gammas[best] {
				best = p
			}
		}
		where[id] = best
		load[best] += work[id]
	}
	proc := make([]int, len(c))
	for v, id := range c {
		proc[v] = where[id]
	}
	return proc
}

// processorGammas lists the time per unit of every processor of a
// crossbar or multi-cluster, in node order, or nil on another platform.
func processorGammas(pl *models.Platform) []float64 {
	var ps []models.Processor
	switch {
	case pl.Crossbar != nil:
		ps = pl.Crossbar.Processors
	case pl.MultiCluster != nil:
		for _, c := range pl.MultiCluster.Clusters {
			ps = append(ps, c.Processors...)
		}
	default:
		return nil
	}
	gammas := make([]float64, len(ps))
	for i := range ps {
		gammas[i] = ps[i].Gamma
	}
	return gammas
}

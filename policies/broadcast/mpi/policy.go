package mpi

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
)

// DefaultUnitBytes is how many bytes one unit of message size is, for
// MPICH's byte thresholds: the defaults of paper 004 measure messages in
// MB (trees.DefaultNetParams).
const DefaultUnitBytes = 1e6

// treePolicy is a baseline that broadcasts the whole message along a tree
// over relative ranks (binomial, linear, binary).
type treePolicy struct {
	name     string
	children func(p, root int) [][]int
}

// Plan builds the tree from the root's rank and times it on the network.
func (tp treePolicy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	nw, err := treenet.NewNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tp.name, err)
	}
	root, err := nw.RootRank(tp.name)
	if err != nil {
		return nil, err
	}
	return treenet.PlanSends(ctx, nw, tp.name, treenet.TreeSends(nw, root, tp.children(len(nw.Parts), root)))
}

// algorithmCode numbers the algorithms for Schedule.Metrics["algorithm"]:
// 0 binomial, 1 scatter and recursive doubling, 2 scatter and ring.
func algorithmCode(a Algorithm) float64 {
	return float64(slices.Index([]Algorithm{Binomial, ScatterRecursiveDoubling, ScatterRing}, a))
}

// mpichPolicy is MPICH's MPI_Bcast: with select, the algorithm its rule
// picks (binomial for short messages or few processes); without, always a
// scatter followed by the rule's allgather, or the one the allgather option
// names.
type mpichPolicy struct {
	name    string
	selects bool
}

// mpichOptions are the options of the MPICH policies.
type mpichOptions struct {
	rule      Rule
	allgather Algorithm // "" for the rule's choice
	unit      float64
}

// The options of the MPICH policies.
var (
	optRule = policies.Option{Name: "rule", Type: policies.TypeChoice, Default: string(RuleCurrent),
		Choices: []string{string(Rule2004), string(RuleCurrent)},
		Doc:     "MPICH's selection thresholds: 2004 (MPICH-1 of 2003–2004, paper 004's time) or current (since 2005)",
		Source:  "MPICH's source since 2005, what a user of MPICH runs today"}
	optUnit = policies.Option{Name: "unit_bytes", Type: policies.TypeFloat, Default: DefaultUnitBytes, Min: 0, MinOpen: true,
		Doc: "bytes in one unit of message size, for MPICH's byte thresholds", Source: "paper 004's unit: message sizes in MB"}
	optAllgather = policies.Option{Name: "allgather", Type: policies.TypeChoice, Default: "auto",
		Choices: []string{"auto", "recursive-doubling", "ring"},
		Doc:     "the allgather after the scatter: auto (the rule's choice), recursive-doubling or ring",
		Source:  "MPICH's own choice by its rule"}
)

// options reads the options of the MPICH policies.
func (mp mpichPolicy) options(o policies.Options) mpichOptions {
	opt := mpichOptions{rule: Rule(optRule.String(o)), unit: optUnit.Float(o)}
	switch optAllgather.String(o) {
	case "recursive-doubling":
		opt.allgather = ScatterRecursiveDoubling
	case "ring":
		opt.allgather = ScatterRing
	}
	return opt
}

// Plan picks the algorithm and builds its sends.
func (mp mpichPolicy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	nw, err := treenet.NewNetwork(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mp.name, err)
	}
	opt := mp.options(in.Options)
	root, err := nw.RootRank(mp.name)
	if err != nil {
		return nil, err
	}
	p := len(nw.Parts)
	// The message in whole bytes, and the unit that makes those bytes the
	// whole message: a piece of bytes [lo, hi) carries exactly its share
	// of the message, and the last piece ends at its end.
	nbytes := max(1, int(math.Round(nw.Size*opt.unit)))
	unit := float64(nbytes) / nw.Size
	alg := opt.allgather
	switch {
	case mp.selects:
		alg = opt.rule.Select(nbytes, p)
	case alg == "":
		alg = opt.rule.allgather(nbytes, p)
	}
	var sends []treenet.Send
	if alg == Binomial || p == 1 {
		sends = treenet.TreeSends(nw, root, binomialChildren(p, root))
	} else if sends, err = newScatterAllgather(nw, root, nbytes, unit).build(alg); err != nil {
		return nil, fmt.Errorf("%s: %w", mp.name, err)
	}
	s, err := treenet.PlanSends(ctx, nw, mp.name, sends)
	if err != nil {
		return nil, err
	}
	s.Metrics["bytes"] = float64(nbytes)
	if alg != Binomial && p > 1 {
		s.Warnings = append(s.Warnings, fmt.Sprintf(
			"%s moves pieces of the message (%d-byte blocks), outside paper 004's model where only a holder of the whole message sends; its time is not bounded by the optimal policy's", alg, (nbytes+p-1)/p))
	}
	s.Metrics["algorithm"] = algorithmCode(alg)
	return s, nil
}

package clustering

import (
	"fmt"
	"slices"
)

// Variant holds the readings of paper 002 §5.1 that the text leaves open,
// for Cross-A and Convex-A; the zero value is the default, the reading the
// text supports best. Each alternative is an option of the policies
// ("eval", "divide_ok", "other", "untangle", "ties"), so that its effect on
// Tables 1 and 6 can be measured (results/clustering/NOTES.md, issue 20).
type Variant struct {
	// Eval is where eval′ is taken in SelectBetterCluster (§5.1.3) and
	// DivideOK (§5.1.4): EvalLocal (default) on the subgraph C induces, as
	// the input of both procedures is a cluster set of C; EvalGlobal on the
	// whole graph, C's split inside the current clustering of the others.
	Eval string
	// DivideOK is the threshold of §5.1.4 against running C as one cluster
	// (sequentially, or in EvalGlobal the current clustering with C whole):
	// DivideTies (default) divides when the split is no slower (makespan ≤
	// Σw(C), i.e. time(S) ≤ |C|−1 for unit tasks); DivideStrict only when
	// it is faster; DivideTasks is the printed "eval′(R*) ≤ the number of
	// tasks", time(S) ≤ |C| (one unit worse than sequential allowed).
	DivideOK string
	// Other is how C_other is split (§5.1.1): OtherComponents (default)
	// into its mutually independent parts, as the text says of C_T, C_B and
	// C_other; OtherWhole keeps it one cluster.
	Other string
	// Untangle is which tasks move when a task of C_other lies between Y1
	// and Z1 (§5.1.1): UntangleFewer (default), the side with fewer
	// offending tasks (Y1 on a tie), as the text says; UntangleY always
	// moves Y1's to C_T; UntangleZ always moves Z1's to C_B.
	Untangle string
	// Ties is which of equally good splits SelectBetterCluster keeps (least
	// time(S), then least makespan): TiesFirst (default) the first drawn,
	// TiesLast the last.
	Ties string
}

// The values of Variant's fields.
const (
	EvalLocal       = "local"
	EvalGlobal      = "global"
	DivideTies      = "ties"
	DivideStrict    = "strict"
	DivideTasks     = "tasks"
	OtherComponents = "components"
	OtherWhole      = "whole"
	UntangleFewer   = "fewer"
	UntangleY       = "y"
	UntangleZ       = "z"
	TiesFirst       = "first"
	TiesLast        = "last"
)

// withDefaults fills the empty fields with the defaults and checks the
// others.
func (v Variant) withDefaults() (Variant, error) {
	for _, f := range []struct {
		name  string
		field *string
		allow []string
	}{
		{"eval", &v.Eval, []string{EvalLocal, EvalGlobal}},
		{"divide_ok", &v.DivideOK, []string{DivideTies, DivideStrict, DivideTasks}},
		{"other", &v.Other, []string{OtherComponents, OtherWhole}},
		{"untangle", &v.Untangle, []string{UntangleFewer, UntangleY, UntangleZ}},
		{"ties", &v.Ties, []string{TiesFirst, TiesLast}},
	} {
		if *f.field == "" {
			*f.field = f.allow[0]
		}
		if !slices.Contains(f.allow, *f.field) {
			return v, fmt.Errorf("%s must be one of %q, got %q", f.name, f.allow, *f.field)
		}
	}
	return v, nil
}

// divides is DivideOK's threshold: whether a split with time(S) ts and
// makespan ms is kept against running C whole (baseMS, baseTS) with tasks
// tasks.
func (v Variant) divides(ts, ms, baseTS, baseMS float64, tasks int) bool {
	switch v.DivideOK {
	case DivideStrict:
		return ms < baseMS
	case DivideTasks:
		if v.Eval == EvalGlobal {
			return ts <= baseTS+1
		}
		return ts <= float64(tasks)
	}
	return ms <= baseMS
}

// better is SelectBetterCluster's order: whether a split (ts, ms) replaces
// the best so far.
func (v Variant) better(ts, ms, bestTS, bestMS float64) bool {
	if v.Ties == TiesLast {
		return ts < bestTS || (ts == bestTS && ms <= bestMS)
	}
	return ts < bestTS || (ts == bestTS && ms < bestMS)
}

// moveY is the untangle rule: whether the offending tasks of Y1 (ny of
// them) move to C_T rather than those of Z1 (nz) to C_B.
func (v Variant) moveY(ny, nz int) bool {
	switch v.Untangle {
	case UntangleY:
		return true
	case UntangleZ:
		return false
	}
	return ny <= nz
}

package clustering

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestGraph: a prepared graph gives what the package's functions give.
func TestGraph(t *testing.T) {
	ctx := context.Background()
	g := Theorem2DAG(3)
	pg, err := Prepare(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	prm := Params{K: 3, Runs: 2, Seed: 7}
	for _, rho := range []float64{0.5, 3} {
		for name, alg := range map[string][2]func() (*Result, error){
			"cross":  {func() (*Result, error) { return CrossA(ctx, g, rho, prm) }, func() (*Result, error) { return pg.CrossA(ctx, rho, prm) }},
			"convex": {func() (*Result, error) { return ConvexA(ctx, g, rho, prm) }, func() (*Result, error) { return pg.ConvexA(ctx, rho, prm) }},
		} {
			want, err1 := alg[0]()
			got, err2 := alg[1]()
			if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s, ρ = %g: prepared %+v (%v), want %+v (%v)", name, rho, got, err2, want, err1)
			}
		}
		want, _ := CASS2(g, rho)
		if got, err := pg.CASS2(rho); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("cass2, ρ = %g: prepared %+v (%v), want %+v", rho, got, err, want)
		}
		seq := make(Clustering, len(g.Tasks))
		want, _ = EvalPrime(g, seq, rho)
		if got, err := pg.EvalPrime(seq, rho); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("eval′, ρ = %g: prepared %+v (%v), want %+v", rho, got, err, want)
		}
	}
	if _, err := pg.CASS2(-1); err == nil {
		t.Error("cass2 with ρ = −1: no error")
	}
	if _, err := pg.EvalPrime(Clustering{0}, 1); err == nil {
		t.Error("eval′ of a clustering of the wrong size: no error")
	}
}

// TestPrepareCancelled: the precedence relation's computation stops on a
// done context, keeps nothing of it, and is complete when run again.
func TestPrepareCancelled(t *testing.T) {
	g := Theorem2DAG(3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if pg, err := Prepare(ctx, g); !errors.Is(err, context.Canceled) || pg != nil {
		t.Fatalf("Prepare on a cancelled context: %v, %v; want nil, context.Canceled", pg, err)
	}
	p, err := prepare(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.withReach(ctx); !errors.Is(err, context.Canceled) || p.anc != nil || p.desc != nil {
		t.Fatalf("withReach on a cancelled context: %v, anc set %v; want context.Canceled and nothing kept", err, p.anc != nil)
	}
	if err := p.withReach(context.Background()); err != nil {
		t.Fatal(err)
	}
	want, err := Prepare(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.anc, want.p.anc) || !reflect.DeepEqual(p.desc, want.p.desc) {
		t.Error("reach sets computed after a cancelled attempt differ")
	}
}

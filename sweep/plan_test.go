package sweep_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep"
	"github.com/netsched/netsched/sweep/axis"
)

// TestPlanPoints checks the grid of a file's axes and the scenario at a
// point: each axis's value set, the base scenario untouched.
func TestPlanPoints(t *testing.T) {
	s, err := scenarios.Load("../scenarios/testdata/good-sweep.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := sweep.NewPlan(s, s.Sweep, 1, 1, sim.Timed)
	if err != nil {
		t.Fatal(err)
	}
	grid := p.Points
	if len(grid) != 2*2*1*4 || !slices.Equal(grid[0], []float64{0.1, 2, 1.5, 0}) || !slices.Equal(grid[len(grid)-1], []float64{0.2, 4, 1.5, 0.003}) {
		t.Fatalf("grid has %d points, first %v, last %v", len(grid), grid[0], grid[len(grid)-1])
	}
	pt, err := p.Scenario(len(grid) - 1)
	if err != nil {
		t.Fatal(err)
	}
	c := pt.Platform.Crossbar
	if c.Beta != 0.2 || c.Processors[1].Gamma != 4 || c.Processors[0].Overlap["send"] != 1.5 || c.Alpha != 0.003 || pt.Sweep != nil {
		t.Errorf("point: beta %v, gamma %v, overlap %v, alpha %v, sweep %v", c.Beta, c.Processors[1].Gamma,
			c.Processors[0].Overlap, c.Alpha, pt.Sweep)
	}
	o := s.Platform.Crossbar
	if o.Beta != 0.1 || o.Processors[1].Gamma != 2 || o.Processors[0].Overlap != nil || o.Alpha != 0 {
		t.Errorf("the point changed the original scenario: %+v", o)
	}
}

// TestPlanFileAxisErrors checks that a file's axis that names no number,
// or a value that makes the scenario invalid, is an error at the file's
// line naming the axis.
func TestPlanFileAxisErrors(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"bad-sweep", "bad-sweep.yaml: line 13: sweep.beta[2] = -0.5: platform.crossbar.beta: must be a finite number > 0, got -0.5"},
		{"bad-sweep-path", "bad-sweep-path.yaml: line 7: sweep.platform.delay.speed: unknown field"},
	} {
		sc, err := scenarios.Load(filepath.Join("..", "scenarios", "testdata", tc.file+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, plan := range []func() error{
			func() error { _, err := sweep.NewPlan(sc, sc.Sweep, 1, 1, sim.Timed); return err },
			func() error { _, err := sweep.Base(sc, 1, 1, sim.Timed); return err },
		} {
			if err := plan(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %q", tc.file, err, tc.want)
			}
		}
	}
}

// TestBundledPoints makes every point of every bundled scenario's sweep.
func TestBundledPoints(t *testing.T) {
	for _, name := range scenarios.Bundled() {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sweep.NewPlan(sc, sc.Sweep, 1, 1, sim.Timed)
		if err != nil {
			t.Fatalf("bundled %s: %v", name, err)
		}
		for i := range p.Points {
			if _, err := p.Scenario(i); err != nil {
				t.Errorf("bundled %s: %v", name, err)
			}
		}
	}
}

// TestPlanTwoAxes checks that a point of two axes on one part of the
// scenario (which it validates again) has both values set.
func TestPlanTwoAxes(t *testing.T) {
	sc, err := scenarios.Load("crossbar-hetero")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := axis.ParseSet("platform.crossbar.processors[0].gamma=1,2")
	b, _ := axis.ParseSet("beta=0.1,0.2")
	p, err := sweep.NewPlan(sc, []axis.Axis{a, b}, 1, 1, sim.Timed)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := p.Scenario(3)
	if err != nil {
		t.Fatal(err)
	}
	if g, beta := pt.Platform.Crossbar.Processors[0].Gamma, pt.Platform.Crossbar.Beta; g != 2 || beta != 0.2 {
		t.Errorf("point 3: gamma %v, beta %v, want 2 and 0.2", g, beta)
	}
}

// TestAxisPathSaidOnce requires an axis's error to name its path once:
// "--set cross-k9.k: cross-k9.k: no policy ..." said it twice. A path the
// error adds (the field a bare name stands for) stays.
func TestAxisPathSaidOnce(t *testing.T) {
	sc, err := scenarios.Load("ablation-cross-k")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ set, want string }{
		{"cross-k9.k=1,2", `--set cross-k9.k: no policy of the scenario is labelled or named "cross-k9"`},
		{"cross-k.kk=1,2", `--set cross-k.kk: policy cross-k: unknown option "kk"`},
		{"cross-k.k=1,0", "--set cross-k.k = 0: want a whole number >= 1, got 0"},
		{"cross-k.k=1.5", "--set cross-k.k = 1.5: want a whole number >= 1, got 1.5"},
		{"platform.delay.rhoo=1", "--set platform.delay.rhoo: unknown field"},
		{"platform.delay.rho=-1", "--set platform.delay.rho = -1: must be a finite number >= 0, got -1"},
		{"platform.delay.processors=2.5", "--set platform.delay.processors = 2.5: want a whole number, got 2.5"},
		{"rho=-1", "--set rho = -1: platform.delay.rho: must be a finite number >= 0, got -1"},
		{"rhoo=1", "--set rhoo: names no parameter of the delay platform or the dag problem of scenario ablation-cross-k; did you mean rho?"},
	} {
		ax, err := axis.ParseSet(tc.set)
		if err != nil {
			t.Fatal(err)
		}
		_, err = sweep.NewPlan(sc, []axis.Axis{ax}, 1, 1, sim.Timed)
		if err == nil || !strings.Contains(err.Error(), "ablation-cross-k: "+tc.want) {
			t.Errorf("--set %s: error %v, want %q", tc.set, err, tc.want)
		}
		said := regexp.MustCompile(`(^| )` + regexp.QuoteMeta(ax.Path) + `[: ]`)
		if err != nil && len(said.FindAllString(err.Error(), -1)) != 1 {
			t.Errorf("--set %s: %v names %s more than once", tc.set, err, ax.Path)
		}
	}
}

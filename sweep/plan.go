package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/sweep/axis"
)

// Plan is a sweep: a scenario, the axes it is swept over, the points of
// their cross product, and how each policy runs at each point.
type Plan struct {
	Base      *scenarios.Scenario // as loaded; points are copies of it
	Axes      []axis.Axis         // the sweep's axes, each value checked
	Points    [][]float64
	Seeds     int    // runs per policy and point
	FirstSeed uint64 // run k uses FirstSeed + k
	Mode      sim.Mode
	Timing    bool // record plan_seconds (outputs then differ run to run)

	targets []target // by axis: where it sets its value
	recheck part     // what a point must validate again; optionPart: nothing
}

// Job is one row to compute: a point, a policy of the scenario, a seed.
type Job struct {
	Point  int
	Policy int
	Seed   uint64
}

// NewPlan plans a sweep of the scenario over axes: its own (sc.Sweep),
// a command line's, or none (one point, the base values). Every axis is
// resolved and every value checked, once, before anything runs; an error
// names the scenario file, line and field of a file's axis, or the --set
// flag.
func NewPlan(sc *scenarios.Scenario, axes []axis.Axis, seeds int, firstSeed uint64, mode sim.Mode) (*Plan, error) {
	if seeds < 1 {
		return nil, fmt.Errorf("seeds: want at least 1, got %d", seeds)
	}
	checked, err := checkAxes(sc, axes)
	if err != nil {
		return nil, err
	}
	p := &Plan{Base: sc, Axes: axes, Points: axis.Grid(axes), Seeds: seeds, FirstSeed: firstSeed, Mode: mode,
		targets: make([]target, len(checked))}
	var changes [optionPart]int // axes per part of the scenario
	for i, c := range checked {
		p.targets[i] = c.target
		switch {
		case c.part == generatorPart: // draws the platform again
			changes[platformPart]++
		case c.part < optionPart:
			changes[c.part]++
		}
	}
	switch plat, prob := changes[platformPart], changes[problemPart]; {
	case plat >= 2:
		p.recheck = platformPart
	case plat+prob >= 2:
		p.recheck = problemPart
	default: // one axis changes each part at most: checkAxes checked every value
		p.recheck = optionPart
	}
	return p, nil
}

// Base plans the runs of the scenario at its base values, as `netsched run`
// does: its sweep axes are checked, as loading a file is strict, but not
// run.
func Base(sc *scenarios.Scenario, seeds int, firstSeed uint64, mode sim.Mode) (*Plan, error) {
	if _, err := checkAxes(sc, sc.Sweep); err != nil {
		return nil, err
	}
	return NewPlan(sc, nil, seeds, firstSeed, mode)
}

// AxisNames are the axis names as the user gave them, for CSV columns.
func (p *Plan) AxisNames() []string {
	names := make([]string, len(p.Axes))
	for i, ax := range p.Axes {
		names[i] = ax.Path
	}
	return names
}

// Scenario returns the scenario at point i: a copy of the base with each
// axis's value set, which shares with the base all it does not change (a
// task graph, say), so neither may be modified. Only what two axes or more
// change together is validated again: each value alone was checked by
// NewPlan. Points may be made concurrently.
func (p *Plan) Scenario(i int) (*scenarios.Scenario, error) {
	if len(p.Axes) == 0 {
		return p.Base, nil
	}
	values := p.Points[i]
	c := *p.Base
	c.Sweep = nil
	for _, drawn := range []bool{true, false} { // generators first: they replace processors other axes may set
		for k := range p.targets {
			if (p.targets[k].part == generatorPart) != drawn {
				continue
			}
			if err := p.targets[k].set(&c, values[k]); err != nil {
				return nil, fmt.Errorf("scenario %s: sweep: %w", p.Base.Source, err)
			}
		}
	}
	if err := validate(&c, p.recheck); err != nil {
		return nil, fmt.Errorf("scenario %s: sweep point %v: %w", p.Base.Source, values, err)
	}
	return &c, nil
}

// Jobs lists every job: points in order, then policies, then seeds.
func (p *Plan) Jobs() []Job {
	jobs := make([]Job, 0, len(p.Points)*len(p.Base.Policies)*p.Seeds)
	for pt := range p.Points {
		for pol := range p.Base.Policies {
			for k := range p.Seeds {
				jobs = append(jobs, Job{Point: pt, Policy: pol, Seed: p.FirstSeed + uint64(k)})
			}
		}
	}
	return jobs
}

// Shard is slice i of n of a sweep: the jobs whose index is i modulo n.
type Shard struct{ I, N int }

// ParseShard reads "i/n" with 0 ≤ i < n.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.I, &sh.N); err != nil || fmt.Sprintf("%d/%d", sh.I, sh.N) != s {
		return sh, fmt.Errorf("--shard %q: want i/n, such as 0/4", s)
	}
	if sh.N < 1 || sh.I < 0 || sh.I >= sh.N {
		return sh, fmt.Errorf("--shard %s: want 0 ≤ i < n", s)
	}
	return sh, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Indices lists the job indices of the shard among total jobs.
func (s Shard) Indices(total int) []int {
	idx := make([]int, 0, max(0, (total-s.I+s.N-1)/s.N))
	for k := s.I; k < total; k += s.N {
		idx = append(idx, k)
	}
	return idx
}

// Fingerprint identifies the sweep: the scenario's content, the axes, the
// seeds, the mode, whether timing is recorded and the bandwidth sharing
// (left out when there is none, so that sweeps without keep theirs). A journal or a results
// file with another fingerprint belongs to another sweep.
func (p *Plan) Fingerprint() (string, error) {
	type policy struct {
		Name    string         `yaml:"name"`
		Label   string         `yaml:"label,omitempty"`
		Options map[string]any `yaml:"options"`
		Exec    []string       `yaml:"exec,omitempty"`
		Timeout string         `yaml:"timeout,omitempty"`
	}
	doc := struct {
		Name      string      `yaml:"name"`
		Platform  any         `yaml:"platform"`
		Problem   any         `yaml:"problem"`
		Policies  []policy    `yaml:"policies"`
		Axes      []axis.Axis `yaml:"axes"`
		Seeds     int         `yaml:"seeds"`
		FirstSeed uint64      `yaml:"first_seed"`
		Mode      string      `yaml:"mode"`
		Timing    bool        `yaml:"timing"`
		Sharing   string      `yaml:"sharing,omitempty"`
	}{Name: p.Base.Name, Platform: p.Base.Platform, Problem: p.Base.Problem, Axes: p.Axes,
		Seeds: p.Seeds, FirstSeed: p.FirstSeed, Mode: p.Mode.String(), Timing: p.Timing, Sharing: p.Base.Sharing}
	for _, ps := range p.Base.Policies {
		pol := policy{Name: ps.Name, Label: ps.Label, Options: ps.Options}
		if ps.Exec != nil { // another command or timeout is another sweep
			pol.Exec, pol.Timeout = ps.Exec.Command, ps.Exec.Timeout.String()
		}
		doc.Policies = append(doc.Policies, pol)
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("fingerprint: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12]), nil
}

// RunBytes is the least memory a sweep keeps for each run until it ends:
// its job, its row with the row's point and metrics (about 0.7 KB of
// allocations in BenchmarkSweep; 1 KB resident a run measured on a sweep
// of 10^5 runs, cmd/netsched TestEstimatesOnSafeSide), with a margin. A
// run that keeps its schedule and trace (Options.KeepRuns) needs more.
const RunBytes = 2 << 10

// Runs is the number of runs of the plan: points × policies × seeds, as a
// float64 so that it cannot overflow.
func (p *Plan) Runs() float64 {
	return float64(len(p.Points)) * float64(len(p.Base.Policies)) * float64(p.Seeds)
}

// CheckMemory returns an error, before anything is allocated for the
// runs, if the plan's runs need more than the budget b at RunBytes each.
// The error names the counts that set the number of runs.
func (p *Plan) CheckMemory(b budget.Bytes) error {
	return b.Check(fmt.Sprintf("%d points × %d policies × %d seeds = %.4g runs need, for their rows,",
		len(p.Points), len(p.Base.Policies), p.Seeds, p.Runs()), p.Runs()*RunBytes)
}

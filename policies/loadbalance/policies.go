package loadbalance

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/sim"
)

// The policies of the package, as scenarios name them.
const (
	PowerDiff = "power-diff"
	Static    = "static"
	None      = "none"
	Steal     = "steal"
)

// Policy is one online policy of the package. It is a policies.Planner:
// Plan runs the online simulation and returns its realised schedule.
type Policy struct {
	Name    string
	Doc     string
	options []policies.Option
	control func(r *run, opts policies.Options, seed uint64) (controller, error)
}

// Policies lists the package's policies: power-diff, static, none, steal.
func Policies() []Policy {
	power := func(diff bool) func(*run, policies.Options, uint64) (controller, error) {
		return func(*run, policies.Options, uint64) (controller, error) { return powerRule{diff: diff}, nil }
	}
	return []Policy{
		{Name: PowerDiff, control: power(true),
			Doc: "paper 003: on Power_j with Power_i > Power_j >= 0, P_i asks P_j for Power_i - Power_j tasks"},
		{Name: Static, control: power(false),
			Doc: "paper 003's comparison: on Power_j with Power_i > Power_j >= 0, P_i asks P_j for one task"},
		{Name: None, control: func(*run, policies.Options, uint64) (controller, error) { return noBalancing{}, nil },
			Doc: "no load balancing: every processor runs its own tasks"},
		{Name: Steal, control: newStealing, options: []policies.Option{optVictims},
			Doc: "random work stealing: an idle processor asks a random victim for half its own tasks"},
	}
}

// optVictims is the option victims of work stealing.
var optVictims = policies.Option{Name: "victims", Type: policies.TypeChoice, Default: "all",
	Choices: []string{"all", "neighbours"},
	Doc:     "whom an idle processor asks: all (every other processor) or neighbours (its neighbours in the information topology)",
	Source:  "random work stealing as usually defined (not in paper 003): any processor may be the victim"}

// Lookup returns the policy of the package with the given name.
func Lookup(name string) (Policy, bool) {
	ps := Policies()
	i := slices.IndexFunc(ps, func(p Policy) bool { return p.Name == name })
	if i < 0 {
		return Policy{}, false
	}
	return ps[i], true
}

// Simulate runs the policy online on the instance's workstations platform
// and task pool, deterministically for in.Seed, and checks that every task
// was processed exactly once.
func (p Policy) Simulate(ctx context.Context, in policies.Instance) (*Outcome, error) {
	return p.simulate(ctx, in, false)
}

func (p Policy) simulate(ctx context.Context, in policies.Instance, audit bool) (*Outcome, error) {
	if err := p.entry().Admit(in); err != nil { // validates only what in.Valid does not vouch for
		return nil, err
	}
	return simulate(ctx, in.Platform.Workstations, in.Problem.Balance, in.Seed, func(r *run) (controller, error) {
		return p.control(r, in.Options, in.Seed)
	}, audit)
}

// Plan runs the policy online and returns the realised schedule: a
// compute action per task, a transfer per migration, the makespan as the
// claim, and the metrics finish_<processor> and tasks_<processor> (Tables
// 1 and 2 of paper 003), tasks_migrated, migrations, messages,
// ideal_bound, makespan_over_bound and tasks_conserved (1: every task
// processed exactly once; a run that breaks it is an error).
func (p Policy) Plan(ctx context.Context, in policies.Instance) (*sim.Schedule, error) {
	o, err := p.Simulate(ctx, in)
	if err != nil {
		return nil, err
	}
	s := o.Schedule
	s.Policy, s.Claimed = p.Name, o.Makespan
	s.Metrics = map[string]float64{
		"tasks_migrated": float64(o.Migrated), "migrations": float64(o.Migrations), "messages": float64(o.Messages),
		"ideal_bound": o.IdealBound, "makespan_over_bound": o.Makespan / o.IdealBound, "tasks_conserved": 1,
	}
	ws := in.Platform.Workstations
	for i := range ws.Processors {
		s.Metrics["finish_"+ws.Name(i)] = o.Finish[i]
		s.Metrics["tasks_"+ws.Name(i)] = float64(o.Processed[i])
	}
	return s, nil
}

// powerRule is the rule of paper 003 §2.2: P_i, receiving Power_j with
// Power_i > Power_j ≥ 0, asks P_j for Power_i − Power_j tasks (diff, the
// proposed method) or for one (the static method).
type powerRule struct{ diff bool }

func (powerRule) exchangesPower() bool { return true }

func (c powerRule) onPower(i *node, _, powerJ int) int {
	if !(i.power > powerJ && powerJ >= 0) {
		return 0
	}
	if c.diff {
		return i.power - powerJ
	}
	return 1
}

func (powerRule) onIdle(*node) int        { return -1 }
func (powerRule) onReply(*node, int, int) {}

// noBalancing moves no task.
type noBalancing struct{}

func (noBalancing) exchangesPower() bool        { return false }
func (noBalancing) onPower(*node, int, int) int { return 0 }
func (noBalancing) onIdle(*node) int            { return -1 }
func (noBalancing) onReply(*node, int, int)     {}

// stealing is random work stealing: an idle processor asks a victim
// chosen uniformly at random for half its ScheduleQueue. A victim that
// had nothing is dropped: its ScheduleQueue never grows again. A
// processor ends when no victim is left.
type stealing struct {
	rng     *rand.Rand
	victims [][]int // per processor: victims not yet found empty
}

func newStealing(r *run, opts policies.Options, seed uint64) (controller, error) {
	n := len(r.ws.Processors)
	c := &stealing{rng: rand.New(rand.NewPCG(seed, 2)), victims: make([][]int, n)}
	switch optVictims.String(opts) {
	case "all":
		for i := range n {
			for j := range n {
				if j != i {
					c.victims[i] = append(c.victims[i], j)
				}
			}
		}
	case "neighbours":
		for i, out := range r.info {
			for _, j := range out {
				c.victims[i] = append(c.victims[i], j)
				c.victims[j] = append(c.victims[j], i)
			}
		}
		for i := range c.victims {
			slices.Sort(c.victims[i])
			c.victims[i] = slices.Compact(c.victims[i])
		}
	}
	return c, nil
}

func (*stealing) exchangesPower() bool        { return false }
func (*stealing) onPower(*node, int, int) int { return 0 }

func (c *stealing) onIdle(i *node) int {
	v := c.victims[i.id]
	if len(v) == 0 {
		return -1
	}
	return v[c.rng.IntN(len(v))]
}

func (c *stealing) onReply(i *node, j, n int) {
	if n == 0 {
		c.victims[i.id] = slices.DeleteFunc(c.victims[i.id], func(v int) bool { return v == j })
	}
}

// entry is the policy's registry entry.
func (p Policy) entry() policies.Entry {
	return policies.Entry{Name: p.Name, Family: models.FamilyBalance, Doc: p.Doc, Planner: p,
		Platforms: []string{models.KindWorkstations}, Options: p.options}
}

func init() {
	for _, p := range Policies() {
		policies.Register(p.entry())
	}
}

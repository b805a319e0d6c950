// Package policies is the registry of scheduling policies. Each policy
// package registers its policies by name and family in init, the way
// database/sql drivers do, so adding a policy is adding a package and one
// import (see package all).
package policies

import (
	"context"
	"sort"
	"sync"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Instance is what a policy schedules: a platform, a problem on it, the
// policy's options from the scenario, and a seed for every random choice.
type Instance struct {
	Platform *models.Platform
	Problem  *models.Problem
	Options  Options
	Seed     uint64
	// Valid says that Platform and Problem have passed their Validate
	// methods, as the scenario loader's instances have (and sweep points,
	// validated when made). A registered planner then does not validate
	// them again; otherwise it does, before planning.
	Valid bool
	// Recycle, if not nil, is a schedule of an earlier run that nothing
	// refers to any more: a policy may build its schedule in its memory
	// with sim.Recycled, or ignore it. Sweeps that keep no schedules set it.
	Recycle *sim.Schedule
}

// Planner computes a schedule for an instance. It must be deterministic for
// a given instance and seed, and return promptly when ctx is cancelled.
//
// The planner of a registered Entry is called through the registry (Lookup,
// All), which admits the instance first (Entry.Admit): a policy's own
// Planner receives a valid platform and problem of a family and platform
// kind it supports, and options it declares, and does not check them again.
type Planner interface {
	Plan(ctx context.Context, in Instance) (*sim.Schedule, error)
}

// PlannerFunc adapts a function to Planner.
type PlannerFunc func(ctx context.Context, in Instance) (*sim.Schedule, error)

// Plan calls f.
func (f PlannerFunc) Plan(ctx context.Context, in Instance) (*sim.Schedule, error) { return f(ctx, in) }

// Entry describes one registered policy. Family, Platforms and Options
// are the one statement of what it supports: `netsched list`, `netsched
// doc`, the scenario loader and Admit all read them.
type Entry struct {
	Name    string  // unique, as scenarios name it
	Family  string  // the problem family it schedules: models.FamilyDivisible, FamilyDAG, FamilyBroadcast or FamilyBalance
	Doc     string  // one line for `netsched list`
	Planner Planner // stateless; safe for concurrent use
	// Platforms lists the platform kinds it runs on (models.KindCrossbar...),
	// at least one.
	Platforms []string
	// Options declares every option it takes, in the order the reference
	// lists them; none when it takes none.
	Options []Option
	// Assumes declares the platform model its algorithm assumes, as its
	// paper states it (overlap, unbounded processors, ...): the loader
	// warns when a scenario's platform contradicts one, or refuses it
	// when the policy cannot plan there (Contradictions).
	Assumes []Assumption
	// Memory, if not nil, estimates the memory the policy takes to plan a
	// problem on a platform beyond the schedule (which models.CheckSize
	// bounds), in bytes, and says what needs it, with its verb ("a simplex
	// tableau of 4002 rows needs"). The scenario loader refuses a policy
	// whose estimate is above the memory budget before anything runs.
	Memory func(pl *models.Platform, pr *models.Problem) (need float64, what string)
}

// registry is filled by init functions only and read afterwards; the mutex
// makes the rare late Register safe.
var registry = struct {
	sync.RWMutex
	byName map[string]Entry
}{byName: map[string]Entry{}}

// Register adds a policy; its Planner is then reached through Admit (see
// Planner). It panics on a duplicate or empty name, a missing family,
// platform kind or planner, or a bad option declaration: programming
// errors caught by any test that imports the package.
func Register(e Entry) {
	if err := e.declared(); err != nil {
		panic("policies: Register: " + err.Error())
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[e.Name]; dup {
		panic("policies: policy " + e.Name + " registered twice")
	}
	e.Planner = admitting{e: e, p: e.Planner}
	registry.byName[e.Name] = e
}

// Lookup finds a policy by name.
func Lookup(name string) (Entry, bool) {
	registry.RLock()
	defer registry.RUnlock()
	e, ok := registry.byName[name]
	return e, ok
}

// All lists the registered policies sorted by family, then name.
func All() []Entry {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Entry, 0, len(registry.byName))
	for _, e := range registry.byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].Name < out[j].Name
	})
	return out
}

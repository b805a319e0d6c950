// Package policies is the registry of scheduling policies. Each policy
// package registers its policies by name and family in init, the way
// database/sql drivers do, so adding a policy is adding a package and one
// import (see package all).
package policies

import (
	"context"
	"fmt"
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
	// Recycle, if not nil, is a schedule of an earlier run that nothing
	// refers to any more: a policy may build its schedule in its memory
	// with sim.Recycled, or ignore it. Sweeps that keep no schedules set it.
	Recycle *sim.Schedule
}

// Planner computes a schedule for an instance. It must be deterministic for
// a given instance and seed, and return promptly when ctx is cancelled.
type Planner interface {
	Plan(ctx context.Context, in Instance) (*sim.Schedule, error)
}

// PlannerFunc adapts a function to Planner.
type PlannerFunc func(ctx context.Context, in Instance) (*sim.Schedule, error)

// Plan calls f.
func (f PlannerFunc) Plan(ctx context.Context, in Instance) (*sim.Schedule, error) { return f(ctx, in) }

// Entry describes one registered policy.
type Entry struct {
	Name    string  // unique, as scenarios name it
	Family  string  // models.FamilyDivisible, FamilyDAG, FamilyBroadcast, or "balance"
	Doc     string  // one line for `netsched list`
	Planner Planner // stateless; safe for concurrent use
	// Platforms lists the platform kinds it runs on; empty means any.
	Platforms []string
}

// registry is filled by init functions only and read afterwards; the mutex
// makes the rare late Register safe.
var registry = struct {
	sync.RWMutex
	byName map[string]Entry
}{byName: map[string]Entry{}}

// Register adds a policy. It panics on a duplicate or empty name, a
// programming error caught by any test that imports the package.
func Register(e Entry) {
	registry.Lock()
	defer registry.Unlock()
	if e.Name == "" || e.Planner == nil {
		panic("policies: Register needs a name and a planner")
	}
	if _, dup := registry.byName[e.Name]; dup {
		panic("policies: policy " + e.Name + " registered twice")
	}
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

// Options are a policy's settings from a scenario, such as k: 10.
type Options map[string]any

// Float returns option name as a float64, or def if absent.
func (o Options) Float(name string, def float64) (float64, error) {
	v, ok := o[name]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	}
	return 0, fmt.Errorf("option %s: want a number, got %v", name, v)
}

// Int returns option name as an int, or def if absent.
func (o Options) Int(name string, def int) (int, error) {
	v, ok := o[name]
	if !ok {
		return def, nil
	}
	switch x := v.(type) {
	case int:
		return x, nil
	case float64:
		if x == float64(int(x)) {
			return int(x), nil
		}
	}
	return 0, fmt.Errorf("option %s: want a whole number, got %v", name, v)
}

// String returns option name as a string, or def if absent.
func (o Options) String(name string, def string) (string, error) {
	v, ok := o[name]
	if !ok {
		return def, nil
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", fmt.Errorf("option %s: want a word, got %v", name, v)
}

// Bool returns option name as a bool, or def if absent.
func (o Options) Bool(name string, def bool) (bool, error) {
	v, ok := o[name]
	if !ok {
		return def, nil
	}
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, fmt.Errorf("option %s: want true or false, got %v", name, v)
}

// Known returns an error naming the first option that is not in names, so
// a misspelt option in a scenario is reported instead of ignored.
func (o Options) Known(names ...string) error {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		found := false
		for _, n := range names {
			found = found || n == k
		}
		if !found {
			return fmt.Errorf("unknown option %q (known: %v)", k, names)
		}
	}
	return nil
}

package policies

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/netsched/netsched/sim"
)

// Supports reports whether the policy schedules problems of the family on
// platforms of the kind, and if not, why not.
func (e Entry) Supports(family, kind string) error {
	if family != e.Family {
		return fmt.Errorf("policy %s schedules %s problems, not %s", e.Name, e.Family, orNone(family))
	}
	if !slices.Contains(e.Platforms, kind) {
		return fmt.Errorf("policy %s runs on %s platforms, not %s", e.Name, strings.Join(e.Platforms, " or "), orNone(kind))
	}
	return nil
}

// Option returns the declaration of the policy's option name.
func (e Entry) Option(name string) (Option, bool) {
	i := slices.IndexFunc(e.Options, func(o Option) bool { return o.Name == name })
	if i < 0 {
		return Option{}, false
	}
	return e.Options[i], true
}

// CheckOption reports whether v is a value of the policy's option name:
// a declared option, of its type, in its range or among its choices.
func (e Entry) CheckOption(name string, v any) error {
	o, ok := e.Option(name)
	if !ok {
		return e.unknownOption(name)
	}
	return o.Check(v)
}

// CheckOptions checks every option of opts, in name order, and returns the
// first error.
func (e Entry) CheckOptions(opts Options) error {
	names := make([]string, 0, len(opts))
	for name := range opts {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := e.CheckOption(name, opts[name]); err != nil {
			return err
		}
	}
	return nil
}

func (e Entry) unknownOption(name string) error {
	if len(e.Options) == 0 {
		return fmt.Errorf("unknown option %q: %s takes no options", name, e.Name)
	}
	names := make([]string, len(e.Options))
	for i, o := range e.Options {
		names[i] = o.Name
	}
	return fmt.Errorf("unknown option %q: %s takes %s", name, e.Name, strings.Join(names, ", "))
}

// Admit checks that the policy can plan in: a platform and a problem, both
// valid unless in.Valid says they are, of a family and platform kind it
// supports, and options it declares. The registry's planners call it
// before planning.
func (e Entry) Admit(in Instance) error {
	if err := in.Validate(); err != nil {
		return fmt.Errorf("%s: %w", e.Name, err)
	}
	if err := e.Supports(in.Problem.Family(), in.Platform.Kind()); err != nil {
		return err
	}
	if err := e.CheckOptions(in.Options); err != nil {
		return fmt.Errorf("%s: %w", e.Name, err)
	}
	return nil
}

// Validate checks that in has a platform and a problem and, unless
// in.Valid says they have passed it already, validates both (errors are
// *models.FieldError). Functions that take an Instance outside the
// registry's planners call it first.
func (in Instance) Validate() error {
	if in.Platform == nil || in.Problem == nil {
		return errors.New("the instance needs a platform and a problem")
	}
	if in.Valid {
		return nil
	}
	if err := in.Platform.Validate(); err != nil {
		return err
	}
	return in.Problem.Validate(in.Platform)
}

// declared checks an entry before Register accepts it.
func (e Entry) declared() error {
	if e.Name == "" || e.Family == "" || len(e.Platforms) == 0 || e.Planner == nil {
		return fmt.Errorf("policy %q needs a name, a family, at least one platform kind and a planner", e.Name)
	}
	var errs []error
	for i, o := range e.Options {
		errs = append(errs, o.validDeclaration())
		if slices.ContainsFunc(e.Options[:i], func(p Option) bool { return p.Name == o.Name }) {
			errs = append(errs, fmt.Errorf("option %s declared twice", o.Name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("policy %s: %w", e.Name, err)
	}
	return nil
}

// admitting is the planner the registry hands out: Admit, then the
// policy's own planner.
type admitting struct {
	e Entry
	p Planner
}

// Plan admits in and plans it.
func (a admitting) Plan(ctx context.Context, in Instance) (*sim.Schedule, error) {
	if err := a.e.Admit(in); err != nil {
		return nil, err
	}
	in.Valid = true
	return a.p.Plan(ctx, in)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

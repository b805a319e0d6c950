package sweep

import (
	"fmt"
	"math"
	"strings"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/suggest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/sweep/axis"
)

// part is what of a scenario an axis changes, and so what must be
// validated again when it does.
type part int

const (
	platformPart  part = iota // the platform, and the problem on it
	problemPart               // the problem
	optionPart                // one option of one policy variant
	generatorPart             // a number of a processor generator: the platform is drawn again
)

// target is an axis's path compiled against a scenario: where it sets its
// value, found once so that making a point reads no path.
type target struct {
	part   part
	steps  []step          // platformPart, problemPart: the full path, fields resolved
	policy int             // optionPart: the variant's index in the scenario
	option policies.Option // optionPart: the option's declaration
	gen    int             // generatorPart: the generator's index in the scenario's Generated
	field  string          // generatorPart: seed or count
}

// compile resolves an axis path on sc: a dotted path into the platform or
// problem, a bare parameter name of either (beta, rho, size), or a
// variant's option, LABEL.OPTION (its label, or its name when it has
// none).
func compile(sc *scenarios.Scenario, path string) (target, error) {
	head, rest, dotted := strings.Cut(path, ".")
	if dotted && head != "platform" && head != "problem" && !strings.Contains(head, "[") {
		return compileOption(sc, head, rest)
	}
	if t, ok, err := compileGenerator(sc, path); ok {
		return t, err
	}
	full := qualify(sc, path)
	if !strings.ContainsAny(full, ".[") {
		return target{}, fmt.Errorf("names no parameter of the %s platform or the %s problem of scenario %s%s",
			sc.Platform.Kind(), sc.Problem.Family(), sc.Name, suggest.DidYouMean(path, parameterNames(sc)))
	}
	steps, err := splitPath(full)
	if err != nil {
		return target{}, err
	}
	resolveFields(steps)
	t := target{part: platformPart, steps: steps}
	if steps[0].Key == "problem" {
		t.part = problemPart
	}
	c := *sc
	return t, setSteps(&c, steps, 0) // does the path lead to a number?
}

// parameterNames lists the bare names an axis may give for sc: the
// numbers the reference declares directly under its platform kind and
// problem family (scenarios.Fields).
func parameterNames(sc *scenarios.Scenario) []string {
	var names []string
	for _, f := range scenarios.Fields() {
		if f.Type != "number" && f.Type != "whole number" {
			continue
		}
		for _, prefix := range []string{"platform." + sc.Platform.Kind() + ".", "problem." + sc.Problem.Family() + "."} {
			if name, ok := strings.CutPrefix(f.Path, prefix); ok && !strings.ContainsAny(name, ".[") {
				names = append(names, name)
			}
		}
	}
	return names
}

// qualify turns a bare parameter name (beta, rho, size) into the path of
// that field of the platform, or else of the problem; other paths are
// returned as they are.
func qualify(sc *scenarios.Scenario, path string) string {
	if strings.ContainsAny(path, ".[") {
		return path
	}
	for _, prefix := range []string{"platform." + sc.Platform.Kind(), "problem." + sc.Problem.Family()} {
		full := prefix + "." + path
		steps, _ := splitPath(full)
		if c := *sc; setSteps(&c, steps, 0) == nil {
			return full
		}
	}
	return path
}

// compileOption resolves LABEL.OPTION: the variant must exist and the
// option be a number its policy declares (policies.Entry.Options).
func compileOption(sc *scenarios.Scenario, id, option string) (target, error) {
	var ids []string
	for i, spec := range sc.Policies {
		if spec.ID() == id {
			o, err := numericOption(spec, option)
			if err != nil {
				return target{}, fmt.Errorf("policy %s: %w", id, err)
			}
			return target{part: optionPart, policy: i, option: o}, nil
		}
		ids = append(ids, spec.ID())
	}
	return target{}, fmt.Errorf("no policy of the scenario is labelled or named %q (it has %s; a path into the platform or problem starts with platform. or problem.)",
		id, strings.Join(ids, ", "))
}

// numericOption returns the declaration of the variant's option, which
// must be a number to be swept; an external policy's options are any
// numbers.
func numericOption(spec scenarios.PolicySpec, name string) (policies.Option, error) {
	if spec.Exec != nil { // declares nothing: any option, any finite number, passed as it is
		return policies.Option{Name: name, Type: policies.TypeFloat, Min: math.Inf(-1)}, nil
	}
	e, _ := policies.Lookup(spec.Name) // registered: the loader checked
	o, ok := e.Option(name)
	if !ok {
		return o, e.CheckOption(name, nil) // says which options it takes
	}
	if o.Type != policies.TypeInt && o.Type != policies.TypeFloat {
		return o, fmt.Errorf("option %s is %s, not a number, and cannot be swept", name, o.Range())
	}
	return o, nil
}

// compileGenerator resolves a path to a number of a processor generator,
// such as platform.crossbar.processors.seed: ok is false when the path
// is under no generator of sc.
func compileGenerator(sc *scenarios.Scenario, path string) (t target, ok bool, err error) {
	for i, g := range sc.Generated {
		field, under := strings.CutPrefix(path, g.Path+".")
		if !under {
			continue
		}
		if field != "seed" && field != "count" {
			return target{}, true, fmt.Errorf("%s: a sweep of a generator sets its seed or count (%s.seed, %s.count), not %q", path, g.Path, g.Path, field)
		}
		return target{part: generatorPart, gen: i, field: field}, true, nil
	}
	return target{}, false, nil
}

// setGenerator sets the generator's seed or count to x and draws the
// platform's processors again.
func (t *target) setGenerator(c *scenarios.Scenario, x float64) error {
	g := c.Generated[t.gen].Gen
	if x != math.Trunc(x) || x < 0 || x > 1<<53 {
		return fmt.Errorf("%s.%s: want a whole number >= 0, got %v", c.Generated[t.gen].Path, t.field, x)
	}
	if t.field == "seed" {
		g.Seed = uint64(x)
	} else {
		g.Count = int(x)
		if err := models.CheckProcessorCount(x, len(g.Name), budget.Default()); err != nil {
			return fmt.Errorf("%s.count: %w", c.Generated[t.gen].Path, err)
		}
	}
	return c.Regenerate(t.gen, g)
}

// set stores x where t points in c, a shallow copy of the scenario t was
// compiled on, copying first what it changes.
func (t *target) set(c *scenarios.Scenario, x float64) error {
	switch t.part {
	case generatorPart:
		return t.setGenerator(c, x)
	case platformPart, problemPart:
		return setSteps(c, t.steps, x)
	}
	specs := append([]scenarios.PolicySpec(nil), c.Policies...)
	opts := make(policies.Options, len(specs[t.policy].Options)+1)
	for k, v := range specs[t.policy].Options {
		opts[k] = v
	}
	opts[t.option.Name] = optionValue(x)
	specs[t.policy].Options = opts
	c.Policies = specs
	return nil
}

// optionValue is how a swept option is stored: a whole number as an int
// (which Options.Float reads too), else a float64.
func optionValue(x float64) any {
	if x == math.Trunc(x) && math.Abs(x) < 1<<31 {
		return int(x)
	}
	return x
}

// check checks value x of the axis on c, the base scenario with x set:
// what its part needs (validate), or the option's declared range.
func (t *target) check(c *scenarios.Scenario, x float64) error {
	if t.part == optionPart {
		err := t.option.Check(optionValue(x))
		if err != nil {
			err = pathOnce{"option " + t.option.Name, err} // the axis names the option
		}
		return err
	}
	return validate(c, t.part)
}

// validate checks what the changes of a point need checked again: the
// platform and the problem on it when the platform changed, the problem
// when only it did; an option change needs nothing here.
func validate(c *scenarios.Scenario, changed part) error {
	switch changed {
	case platformPart, generatorPart:
		if err := c.Platform.Validate(); err != nil {
			return err
		}
		fallthrough
	case problemPart:
		return c.Problem.Validate(&c.Platform)
	}
	return nil
}

// checkedAxis is an axis whose path is compiled and every value checked on
// the base scenario.
type checkedAxis struct {
	axis.Axis
	target
}

// checkAxes compiles each axis on sc and checks every value alone, so that
// a point that changes one part through one axis needs no validation
// again. Errors name the file, line and field of a file's axis, or the
// --set flag.
func checkAxes(sc *scenarios.Scenario, axes []axis.Axis) ([]checkedAxis, error) {
	if _, err := axis.Points(axes); err != nil {
		return nil, axisError(sc, &axes[0], -1, err)
	}
	out := make([]checkedAxis, len(axes))
	for i := range axes {
		a := &axes[i]
		t, err := compile(sc, a.Path)
		if err != nil {
			return nil, axisError(sc, a, -1, err)
		}
		for j, x := range a.Values {
			c := *sc
			err := t.set(&c, x)
			if err == nil {
				err = t.check(&c, x)
			}
			if err != nil {
				return nil, axisError(sc, a, j, err)
			}
		}
		out[i] = checkedAxis{*a, t}
	}
	return out, nil
}

// axisError places an error about value j of an axis (j < 0: the axis
// itself): at its file line for an axis of the scenario's sweep section,
// at its flag for --set.
func axisError(sc *scenarios.Scenario, a *axis.Axis, j int, err error) error {
	msg := fmt.Errorf("%s: %w", a.Field(j), pathOnce{a.Path, err})
	if j >= 0 {
		msg = fmt.Errorf("%s = %v: %w", a.Field(j), a.Values[j], pathOnce{a.Path, err})
	}
	if a.Line == 0 {
		return fmt.Errorf("scenario %s: %w", sc.Source, msg)
	}
	return &scenarios.Error{Source: sc.Source, Line: a.LineOf(j), Err: msg}
}

// pathOnce is an error about an axis whose message may start with the
// axis's own path, which the place of the error (axis.Axis.Field) has
// said already: it prints the message without it ("sweep.k9.k: k9.k: ..."
// said the path twice). A path that says more than the axis, such as
// the field a bare name stands for, is kept.
type pathOnce struct {
	path string
	err  error
}

func (e pathOnce) Error() string {
	msg := e.err.Error()
	if rest, ok := strings.CutPrefix(msg, e.path+": "); ok {
		return rest
	}
	return msg
}

func (e pathOnce) Unwrap() error { return e.err }

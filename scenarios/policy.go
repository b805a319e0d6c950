package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/suggest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"go.yaml.in/yaml/v3"
)

// policies reads the list of policies and checks each against the
// registry, the problem family and the platform kind.
func (p *parser) policies(n *yaml.Node, s *Scenario, b budget.Bytes) ([]PolicySpec, error) {
	n = resolveAlias(n)
	if n == nil || n.Kind == 0 || n.Tag == "!!null" {
		return nil, p.errAt(p.root.Line, "policies: must name at least one policy, e.g. policies: [direct]")
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, p.errAt(n.Line, "policies: must be a list of at least one policy, e.g. [direct], got %s", models.DescribeNode(n))
	}
	specs := make([]PolicySpec, 0, len(n.Content))
	seen := map[string]int{} // ID → line
	var contradicted assumed // the policies' assumptions the platform contradicts
	for i, item := range n.Content {
		where := fmt.Sprintf("policies[%d]", i)
		spec, err := p.policy(resolveAlias(item), where)
		if err != nil {
			return nil, err
		}
		if spec.Exec == nil { // an external policy takes any problem and options
			if err := fits(spec.Name, s); err != nil {
				return nil, p.errAt(item.Line, "%s: %v", where, err)
			}
			if err := fitsMemory(spec.Name, s, b); err != nil {
				return nil, p.errAt(item.Line, "%s: %s: %v", where, spec.Name, err)
			}
			if err := p.checkOptions(resolveAlias(item), spec, where); err != nil {
				return nil, err
			}
			if err := p.checkAssumptions(item.Line, spec.Name, where, s, &contradicted); err != nil {
				return nil, err
			}
		}
		if line, dup := seen[spec.ID()]; dup {
			return nil, p.errAt(item.Line, "%s", duplicateID(where, spec, line))
		}
		seen[spec.ID()] = item.Line
		if spec.Line == 0 {
			spec.Line = item.Line
		}
		specs = append(specs, spec)
	}
	s.Warnings = append(s.Warnings, contradicted.warnings(p)...)
	return specs, nil
}

// duplicateID says why the ID of the variant at where is taken by the
// one at line.
func duplicateID(where string, spec PolicySpec, line int) string {
	if spec.Label != "" {
		return fmt.Sprintf("%s.label: %q already names the policy at line %d; labels must be unique", where, spec.Label, line)
	}
	return fmt.Sprintf("%s: %s is already listed at line %d; give one of them a label, e.g. {name: %s, label: %s-2}",
		where, spec.Name, line, spec.Name, spec.Name)
}

// policy reads one policy: a name, or a mapping with name and options.
func (p *parser) policy(n *yaml.Node, where string) (PolicySpec, error) {
	if n == nil {
		return PolicySpec{}, p.errAt(0, "%s: bad alias", where)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!str" || n.Value == "" {
			return PolicySpec{}, p.errAt(n.Line, "%s: want a policy name, got %q", where, n.Value)
		}
		return PolicySpec{Name: n.Value}, nil
	case yaml.MappingNode:
		if hasKey(n, "exec") {
			return p.execPolicy(n, where)
		}
		return p.policyMapping(n, where)
	}
	return PolicySpec{}, p.errAt(n.Line, "%s: want a policy name, {name: ..., option: value} or {exec: [...], label: ...}, got %s", where, models.DescribeNode(n))
}

func (p *parser) policyMapping(n *yaml.Node, where string) (PolicySpec, error) {
	spec := PolicySpec{Options: policies.Options{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			if _, isPolicy := policies.Lookup(k.Value); isPolicy && len(n.Content) == 2 && v != nil && v.Kind == yaml.MappingNode {
				return PolicySpec{}, p.errAt(k.Line, "%s: a policy's options go beside its name: write %s", where, besideName(k.Value, v))
			}
			if k.Value == "options" && v != nil && v.Kind == yaml.MappingNode {
				return PolicySpec{}, p.errAt(k.Line, "%s.options: a built-in policy's options go directly in the entry, beside its name: write %s (options: is for exec policies)",
					where, besideName(scalarOf(n, "name", "POLICY"), v))
			}
			return PolicySpec{}, p.errAt(k.Line, "%s.%s: want a single value (number, word or true/false)", where, k.Value)
		}
		switch k.Value {
		case "name", "label":
			if v.Tag != "!!str" || v.Value == "" {
				return PolicySpec{}, p.errAt(k.Line, "%s.%s: want a word, got %q", where, k.Value, v.Value)
			}
			if k.Value == "label" {
				if err := checkLabel(v.Value); err != nil {
					return PolicySpec{}, p.errAt(k.Line, "%s.label: %v", where, err)
				}
				spec.Label = v.Value
			} else {
				spec.Name = v.Value
			}
			continue
		}
		if _, dup := spec.Options[k.Value]; dup {
			return PolicySpec{}, p.errAt(k.Line, "%s.%s: given twice", where, k.Value)
		}
		var x any
		if err := v.Decode(&x); err != nil {
			return PolicySpec{}, p.errAt(k.Line, "%s.%s: %v", where, k.Value, err)
		}
		spec.Options[k.Value] = x
	}
	if spec.Name == "" {
		return PolicySpec{}, p.errAt(n.Line, "%s: a policy with options needs a name: {name: ..., option: value}", where)
	}
	return spec, nil
}

// besideName writes the entry {name: NAME, option: value, ...} that a
// mapping NAME: {option: value, ...} meant.
func besideName(name string, opts *yaml.Node) string {
	parts := []string{"name: " + name}
	for i := 0; i+1 < len(opts.Content); i += 2 {
		parts = append(parts, opts.Content[i].Value+": "+opts.Content[i+1].Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// scalarOf returns the value of key in the mapping n, or def when n has
// no such scalar.
func scalarOf(n *yaml.Node, key, def string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; n.Content[i].Value == key && v.Kind == yaml.ScalarNode {
			return v.Value
		}
	}
	return def
}

// checkLabel accepts a label that can name files and sweep axes: letters,
// digits, '-' and '_' (no '.', which separates a label from its option in
// an axis such as cross-k5.k).
func checkLabel(label string) error {
	for _, r := range label {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Errorf("%q: a label has letters, digits, '-' and '_' only", label)
		}
	}
	if label == "platform" || label == "problem" {
		return fmt.Errorf("%q: a label cannot be platform or problem, which start sweep paths", label)
	}
	return nil
}

// fits checks that a policy is registered and can schedule the scenario's
// problem on its platform.
func fits(name string, s *Scenario) error {
	e, ok := policies.Lookup(name)
	if !ok {
		known := registered()
		return fmt.Errorf("no policy is named %q%s (known: %s)", name, suggest.DidYouMean(name, known), strings.Join(known, ", "))
	}
	family, kind := s.Problem.Family(), s.Platform.Kind()
	if err := e.Supports(family, kind); err != nil {
		var fit []string
		for _, other := range policies.All() {
			if other.Supports(family, kind) == nil {
				fit = append(fit, other.Name)
			}
		}
		slices.Sort(fit)
		if len(fit) == 0 {
			return fmt.Errorf("%w (no policy schedules a %s problem on a %s platform)", err, family, kind)
		}
		return fmt.Errorf("%w (for a %s problem on a %s platform: %s)", err, family, kind, strings.Join(fit, ", "))
	}
	return nil
}

// checkAssumptions checks the assumptions of policy name (at line of the
// file) against the scenario's platform and problem: one it cannot plan
// without is an error; the others contradicted are kept in contradicted,
// by what they say, with the policies that assume it.
func (p *parser) checkAssumptions(line int, name, where string, s *Scenario, contradicted *assumed) error {
	e, _ := policies.Lookup(name) // registered: fits has checked
	cs, err := e.Contradictions(&s.Platform, &s.Problem)
	if err != nil {
		return p.errAt(line, "%s: %v", where, err)
	}
	for _, c := range cs {
		contradicted.add(c.String(), name, line)
	}
	return nil
}

// assumed gathers the contradicted assumptions of a scenario's policies,
// so that each is one warning naming every policy that assumes it.
type assumed struct {
	says     []string            // in the order first met
	policies map[string][]string // what it says → the policies, each once
	line     map[string]int      // what it says → the line of the first policy
}

func (a *assumed) add(says, policy string, line int) {
	if a.policies == nil {
		a.policies, a.line = map[string][]string{}, map[string]int{}
	}
	if _, ok := a.policies[says]; !ok {
		a.says = append(a.says, says)
		a.line[says] = line
	}
	if !slices.Contains(a.policies[says], policy) {
		a.policies[says] = append(a.policies[says], policy)
	}
}

// warnings are the gathered assumptions as the scenario's warnings.
func (a *assumed) warnings(p *parser) []string {
	var out []string
	for _, says := range a.says {
		who, verb := a.policies[says], "assume"
		if len(who) == 1 {
			verb = "assumes"
		}
		out = append(out, p.errAt(a.line[says], "policies: %s %s %s", strings.Join(who, ", "), verb, says).Error())
	}
	return out
}

// fitsMemory checks the memory a registered policy estimates it takes
// to plan s (policies.Entry.Memory) against the budget b.
func fitsMemory(name string, s *Scenario, b budget.Bytes) error {
	e, _ := policies.Lookup(name)
	if e.Memory == nil {
		return nil
	}
	need, what := e.Memory(&s.Platform, &s.Problem)
	return b.Check(what, need)
}

// checkOptions checks each option of a registered policy against its
// declaration (policies.Entry.CheckOption), naming the line of the first
// bad one.
func (p *parser) checkOptions(n *yaml.Node, spec PolicySpec, where string) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	e, _ := policies.Lookup(spec.Name) // registered: fits has checked
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		v, isOption := spec.Options[k.Value]
		if !isOption {
			continue // name, or another key of the entry
		}
		if err := e.CheckOption(k.Value, v); err != nil {
			msg := optionError(err, k.Value)
			if _, declared := e.Option(k.Value); !declared {
				names := make([]string, len(e.Options))
				for i, o := range e.Options {
					names[i] = o.Name
				}
				if hint := suggest.DidYouMean(k.Value, names); hint != "" {
					what, rest, _ := strings.Cut(msg, ": ") // unknown option "kk": cross takes ...
					msg = what + hint + " (" + rest + ")"
				}
			}
			return p.errAt(k.Line, "%s.%s: %s", where, k.Value, msg)
		}
	}
	return nil
}

// optionError drops the "option NAME: " prefix of a check's error, which
// the field path already says.
func optionError(err error, name string) string {
	msg, _ := strings.CutPrefix(err.Error(), "option "+name+": ")
	return msg
}

// registered lists the names of all registered policies.
func registered() []string {
	var names []string
	for _, e := range policies.All() {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	return names
}

package scenarios

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/external"
	"go.yaml.in/yaml/v3"
)

// execKeys are the keys of an external policy's entry.
var execKeys = []string{"exec", "label", "timeout", "persistent", "options"}

// hasKey says whether mapping n has the key.
func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// execPolicy reads an external policy (package external):
//
//	{exec: [python3, my_sched.py], label: mine, timeout: 60s, persistent: true, options: {k: 3}}
//
// The label is required; the timeout defaults to external.DefaultTimeout.
// The command runs in the scenario file's directory, and its program must
// be found there or in PATH.
func (p *parser) execPolicy(n *yaml.Node, where string) (PolicySpec, error) {
	spec := PolicySpec{Exec: &external.Spec{Dir: p.dir()}, Options: policies.Options{}}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		field := where + "." + k.Value
		if !slices.Contains(execKeys, k.Value) {
			return PolicySpec{}, p.errAt(k.Line, "%s: unknown key; an exec policy takes %s (options go under options:)",
				field, strings.Join(execKeys, ", "))
		}
		if seen[k.Value] {
			return PolicySpec{}, p.errAt(k.Line, "%s: given twice", field)
		}
		seen[k.Value] = true
		if v == nil {
			return PolicySpec{}, p.errAt(k.Line, "%s: bad alias", field)
		}
		var err error
		switch k.Value {
		case "exec":
			spec.Exec.Command, err = p.command(v, field)
			spec.Line = k.Line
		case "label":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Value == "" {
				err = p.errAt(v.Line, "%s: want a word, got %s", field, models.DescribeNode(v))
			} else if lerr := checkLabel(v.Value); lerr != nil {
				err = p.errAt(v.Line, "%s: %v", field, lerr)
			}
			spec.Label = v.Value
		case "timeout":
			spec.Exec.Timeout, err = p.duration(v, field)
		case "persistent":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				err = p.errAt(v.Line, "%s: want true or false, got %s", field, models.DescribeNode(v))
			} else {
				err = v.Decode(&spec.Exec.Persistent)
			}
		case "options":
			err = p.execOptions(v, field, spec.Options)
		}
		if err != nil {
			return PolicySpec{}, err
		}
	}
	if spec.Label == "" {
		return PolicySpec{}, p.errAt(n.Line, "%s: an exec policy needs a label, which names it in every output: {exec: [...], label: mine}", where)
	}
	if spec.Exec.Timeout == 0 {
		spec.Exec.Timeout = external.DefaultTimeout
	}
	return spec, nil
}

// dir is the directory an external policy of the scenario runs in: the
// scenario file's, or the current one for a bundled scenario.
func (p *parser) dir() string {
	if strings.HasPrefix(p.source, bundledPrefix) {
		return ""
	}
	return filepath.Dir(p.source)
}

// command reads exec: a list of words, the first a program found in PATH
// or, when it has a '/', relative to the scenario's directory.
func (p *parser) command(v *yaml.Node, field string) ([]string, error) {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, p.errAt(v.Line, "%s: want a list of at least the program, e.g. [python3, my_sched.py], got %s", field, models.DescribeNode(v))
	}
	argv := make([]string, len(v.Content))
	for i, w := range v.Content {
		w = resolveAlias(w)
		if w == nil || w.Kind != yaml.ScalarNode || w.Tag == "!!null" || w.Value == "" {
			return nil, p.errAt(v.Line, "%s[%d]: want a word", field, i)
		}
		argv[i] = w.Value
	}
	prog := argv[0]
	if strings.ContainsRune(prog, '/') && !filepath.IsAbs(prog) {
		// Relative to the scenario's directory, and still a path: Join
		// cleans ./x to x, which LookPath would look for in PATH.
		prog = "." + string(filepath.Separator) + filepath.Join(p.dir(), prog)
	}
	if _, err := exec.LookPath(prog); err != nil {
		return nil, p.errAt(v.Content[0].Line, "%s[0]: cannot run %s: %v", field, argv[0], lookPathReason(err))
	}
	return argv, nil
}

// lookPathReason drops the program's name that exec.LookPath's error
// repeats.
func lookPathReason(err error) error {
	if ee, ok := err.(*exec.Error); ok {
		return ee.Err
	}
	return err
}

// duration reads a timeout: a Go duration such as 90s or 2m, or a number
// of seconds.
func (p *parser) duration(v *yaml.Node, field string) (time.Duration, error) {
	if v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Tag == "!!float") {
		var s float64
		if err := v.Decode(&s); err == nil && s > 0 && s <= 1e6 {
			return time.Duration(s * float64(time.Second)), nil
		}
	} else if v.Kind == yaml.ScalarNode && v.Tag == "!!str" {
		if d, err := time.ParseDuration(v.Value); err == nil && d > 0 {
			return d, nil
		}
	}
	return 0, p.errAt(v.Line, "%s: want a positive duration such as 60s or 2m (or seconds), got %s", field, models.DescribeNode(v))
}

// execOptions reads the options an external policy receives as they are:
// a mapping of scalars.
func (p *parser) execOptions(v *yaml.Node, field string, opts policies.Options) error {
	if v.Kind != yaml.MappingNode {
		return p.errAt(v.Line, "%s: want a mapping of option: value, got %s", field, models.DescribeNode(v))
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, x := v.Content[i], resolveAlias(v.Content[i+1])
		if x == nil || x.Kind != yaml.ScalarNode || x.Tag == "!!null" {
			return p.errAt(k.Line, "%s.%s: want a single value (number, word or true/false)", field, k.Value)
		}
		if _, dup := opts[k.Value]; dup {
			return p.errAt(k.Line, "%s.%s: given twice", field, k.Value)
		}
		var val any
		if err := x.Decode(&val); err != nil {
			return p.errAt(k.Line, "%s.%s: %v", field, k.Value, err)
		}
		opts[k.Value] = val
	}
	return nil
}

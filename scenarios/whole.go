package scenarios

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
)

// checkWhole refuses, before the file is decoded, a number with a fraction
// (or an infinity) where the scenario's Go types want a whole number: the
// YAML library would truncate `seeds: 10.5` to 10 and `from: 0.5` to 0
// without a word. It walks the node tree n beside the type t that decodes
// it, so every integer field of the file's types is covered, and names
// the field by its path with indices ("problem.dag.edges[3].from").
// Whatever does not fit t is left to the decoder to report.
func (p *parser) checkWhole(n *yaml.Node, t reflect.Type) error {
	w := &wholeWalk{p: p, fields: map[reflect.Type][]yamlField{}, holds: map[reflect.Type]bool{}}
	return w.walk(n, t, 0)
}

// wholeWalk is one walk of checkWhole: the path to the node it is at, as
// steps (formatted only for an error), and what it has learnt of the
// types on the way.
type wholeWalk struct {
	p      *parser
	steps  []wholeStep
	fields map[reflect.Type][]yamlField // the YAML keys of a struct type
	holds  map[reflect.Type]bool        // whether a type holds an integer field
}

// wholeStep is a key (index < 0) or a list index on the path.
type wholeStep struct {
	key   string
	index int
}

func (w *wholeWalk) walk(n *yaml.Node, t reflect.Type, depth int) error {
	if n == nil || depth > maxDepth {
		return nil
	}
	line := n.Line // where the value is written, or the alias to it
	if n = resolveAlias(n); n == nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !w.holdsWhole(t) {
		return nil // a list of 10^6 processors has no integer to check
	}
	if t == reflect.TypeFor[models.Processors]() {
		if n.Kind == yaml.MappingNode { // a generator in place of the list
			return w.walk(n, reflect.TypeFor[models.ProcessorGen](), depth+1)
		}
		return w.walk(n, reflect.TypeFor[[]models.Processor](), depth+1)
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && !wholeFloat(n.Value) {
			return w.p.errAt(line, "%s: want a whole number, got %s", w.path(), n.Value)
		}
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, v := n.Content[i], n.Content[i+1]
			if key.Value == "<<" && key.ShortTag() == "!!merge" { // <<: *base merges a mapping, or a list of them
				if err := w.merge(v, t, depth); err != nil {
					return err
				}
				continue
			}
			if f, ok := w.field(t, key.Value); ok {
				if err := w.step(wholeStep{key: key.Value, index: -1}, v, f, depth); err != nil {
					return err
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			return nil
		}
		for i, item := range n.Content {
			if err := w.step(wholeStep{index: i}, item, t.Elem(), depth); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := w.step(wholeStep{key: n.Content[i].Value, index: -1}, n.Content[i+1], t.Elem(), depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// step walks n, of type t, one step below the current path.
func (w *wholeWalk) step(s wholeStep, n *yaml.Node, t reflect.Type, depth int) error {
	w.steps = append(w.steps, s)
	err := w.walk(n, t, depth+1)
	w.steps = w.steps[:len(w.steps)-1]
	return err
}

// merge walks what a merge key brings into a mapping of type t.
func (w *wholeWalk) merge(v *yaml.Node, t reflect.Type, depth int) error {
	if v = resolveAlias(v); v != nil && v.Kind == yaml.SequenceNode {
		for _, m := range v.Content {
			if err := w.walk(m, t, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return w.walk(v, t, depth+1)
}

// field returns the type of the field of struct type t whose YAML key is
// key.
func (w *wholeWalk) field(t reflect.Type, key string) (reflect.Type, bool) {
	fs, ok := w.fields[t]
	if !ok {
		fs = yamlFields(t)
		w.fields[t] = fs
	}
	for _, f := range fs {
		if f.name == key {
			return t.FieldByIndex(f.index).Type, true
		}
	}
	return nil, false
}

// holdsWhole reports whether a value of type t can hold an integer
// field: the walk skips what cannot.
func (w *wholeWalk) holdsWhole(t reflect.Type) bool {
	if h, ok := w.holds[t]; ok {
		return h
	}
	w.holds[t] = false // a type that refers to itself holds what its other parts hold
	h := false
	switch t {
	case reflect.TypeFor[yaml.Node](), reflect.TypeFor[models.Dist]():
		// read by hand (policies, sweep), or a number of any kind
	case reflect.TypeFor[models.Processors]():
		h = w.holdsWhole(reflect.TypeFor[models.ProcessorGen]()) || w.holdsWhole(reflect.TypeFor[[]models.Processor]())
	default:
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			h = true
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			h = w.holdsWhole(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if t.Field(i).IsExported() && w.holdsWhole(t.Field(i).Type) {
					h = true
					break
				}
			}
		}
	}
	w.holds[t] = h
	return h
}

// path prints the current path: "problem.dag.edges[3].from".
func (w *wholeWalk) path() string {
	var b strings.Builder
	for _, s := range w.steps {
		if s.index >= 0 {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// wholeFloat reports whether a YAML float's text denotes a finite whole
// number, such as 1e3 or 10.0 (the YAML library drops underscores, and
// writes infinities and NaN .inf and .nan, which are not).
func wholeFloat(text string) bool {
	x, err := strconv.ParseFloat(strings.ReplaceAll(text, "_", ""), 64)
	return err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) && x == math.Trunc(x)
}

package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/netsched/netsched/sweep/axis"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/netsched/netsched/internal/suggest"
	"github.com/netsched/netsched/models"
	"go.yaml.in/yaml/v3"
)

var (
	lineRE    = regexp.MustCompile(`^line (\d+): (?s)(.*)$`)
	unknownRE = regexp.MustCompile(`^field (.+) not found in type (\S+)$`)
	typeRE    = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*?)(?:\\.\\.\\.)?`)? into (.+)$")
	unitRE    = regexp.MustCompile(`^[-+]?[0-9.]+(?:e[-+]?[0-9]+)?\s*[a-zA-Zµ/%]+$`)
)

// parserProblems start the messages of the YAML library's parser, which
// (unlike its scanner) reports lines counted from 0, or no line for the
// first (go.yaml.in/yaml/v3, parser.fail).
var parserProblems = []string{"did not find expected", "found duplicate %", "found incompatible YAML", "found undefined tag handle"}

// syntaxError reports a YAML syntax error at its 1-based line.
func (p *locator) syntaxError(err error) *Error {
	e := p.yamlError(err.Error())
	for _, prefix := range parserProblems {
		if strings.HasPrefix(e.Err.Error(), prefix) {
			e.Line++
			break
		}
	}
	switch line := p.sourceLine(e.Line); {
	case strings.Contains(line[:len(line)-len(strings.TrimLeft(line, " \t"))], "\t"):
		e.Err = fmt.Errorf("%w (a tab in the indentation: YAML indents with spaces)", e.Err)
	case strings.HasPrefix(e.Err.Error(), "did not find expected"):
		e.Err = fmt.Errorf("%w (check the indentation of this line and the next: the items of a list, or the keys of a mapping, start in one column)", e.Err)
	}
	return e
}

// sourceLine returns line n (1-based) of the file, or "".
func (p *locator) sourceLine(n int) string {
	if n < 1 {
		return ""
	}
	rest := p.src
	for range n - 1 {
		_, after, found := bytes.Cut(rest, []byte("\n"))
		if !found {
			return ""
		}
		rest = after
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	return string(line)
}

// yamlError turns a message of the YAML library ("yaml: line 3: ...") into
// an *Error with the line split out.
func (p *locator) yamlError(msg string) *Error {
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return p.errAt(line, "%s", m[2])
	}
	return p.errAt(0, "%s", msg)
}

// decodeError reports every error of the strict decoding, an unknown field
// named by its dotted path with the fields that are known there.
func (p *locator) decodeError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		e := p.yamlError(err.Error())
		e.Line, e.Err = p.qualify(e.Line, e.Err.Error())
		return e
	}
	errs := make([]error, 0, len(te.Errors))
	for _, msg := range te.Errors {
		e := p.yamlError(msg)
		if m := unknownRE.FindStringSubmatch(e.Err.Error()); m != nil {
			e.Err = p.unknownField(e.Line, m[1], m[2])
		} else if m := typeRE.FindStringSubmatch(e.Err.Error()); m != nil {
			e.Err = p.typeError(e.Line, m[1], m[2], m[3])
		}
		errs = append(errs, e)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// typeError explains a value of the wrong YAML kind (tag: str, seq,
// map, int, ...; text: its text for a scalar, shortened by the YAML
// library) for the Go type goType, in the words of the reference:
// "platform.crossbar.beta: want a number, got \"0.1\" (a number in quotes
// is text: remove the quotes)".
func (p *locator) typeError(line int, tag, text, goType string) error {
	var path string
	var ok bool
	if tag == "seq" || tag == "map" {
		path, ok = p.kindPath(line, tag)
	} else {
		var node *yaml.Node
		path, node, ok = p.scalarAt(line, text)
		if ok && len([]rune(node.Value)) <= maxQuoted {
			text = node.Value // the whole value, which the library shortens
		}
	}
	var got string
	switch tag {
	case "seq":
		got = "a list"
	case "map":
		got = "a mapping"
	case "str":
		got = strconv.Quote(text)
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			got += " (a number in quotes is text: remove the quotes)"
		} else if unitRE.MatchString(text) {
			got += " (numbers take no unit: write the value in the units the scenario keeps to)"
		}
	default:
		got = text
	}
	msg := fmt.Sprintf("want %s, got %s", wantOf(goType), got)
	if !ok {
		return errors.New(msg)
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// scalarAt finds the scalar on line whose value starts with text (the
// value of a type error, shortened by the YAML library) and returns its
// path. Of several, a name or label (text, which no type error is about)
// is passed over: in {name: fast, overlap: {send: fast}} the error is
// about send. false when not exactly one is left.
func (p *locator) scalarAt(line int, text string) (string, *yaml.Node, bool) {
	var paths []string
	var nodes []*yaml.Node
	walk(p.root, "", 0, func(k, v *yaml.Node, path string) bool {
		if v.Kind == yaml.ScalarNode && v.Line == line && strings.HasPrefix(v.Value, text) {
			paths, nodes = append(paths, path), append(nodes, v)
		}
		return false
	})
	if len(paths) > 1 {
		for i := len(paths) - 1; i >= 0; i-- {
			if key := paths[i][strings.LastIndex(paths[i], ".")+1:]; key == "name" || key == "label" {
				paths, nodes = slices.Delete(paths, i, i+1), slices.Delete(nodes, i, i+1)
			}
		}
	}
	if len(paths) != 1 {
		return "", nil, false
	}
	return paths[0], nodes[0], true
}

// maxQuoted is the longest value an error quotes whole.
const maxQuoted = 60

// wantOf names what a Go type as the YAML library prints it holds.
func wantOf(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping"
	case goType == "float64" || goType == "float32":
		return "a number"
	case strings.HasPrefix(goType, "uint"):
		return "a whole number >= 0"
	case strings.HasPrefix(goType, "int") || goType == "models.Rounds":
		return "a whole number"
	case goType == "bool":
		return "true or false"
	case goType == "string" || goType == "models.Duplex":
		return "a word"
	}
	return "a mapping" // a struct of the scenario's types
}

// kindPath finds the list (tag seq) or mapping (tag map) that starts on
// the given line and holds no other such node on it, and returns its
// path; false when there is not exactly one.
func (p *locator) kindPath(line int, tag string) (string, bool) {
	kind := yaml.SequenceNode
	if tag == "map" {
		kind = yaml.MappingNode
	}
	var found []string
	walk(p.root, "", 0, func(_, v *yaml.Node, path string) bool {
		if v.Kind == kind && v.Line == line {
			found = append(found, path)
		}
		return false
	})
	var leaves []string
	for _, f := range found {
		inner := false
		for _, g := range found {
			if g != f && (strings.HasPrefix(g, f+".") || strings.HasPrefix(g, f+"[")) {
				inner = true
				break
			}
		}
		if !inner {
			leaves = append(leaves, f)
		}
	}
	if len(leaves) != 1 {
		return "", false
	}
	return leaves[0], true
}

// qualify names by its whole path the field that an error of a type's own
// decoder (such as models.Rounds, models.Processors) names by its key
// alone: a message "processors: count: must be ..." on the line of the key
// processors becomes "platform.crossbar.processors.count: must be ...", on
// the line of count. A message that starts with no key on that line is
// kept as it is.
func (p *locator) qualify(line int, msg string) (int, error) {
	key, rest, ok := strings.Cut(msg, ": ")
	if !ok {
		return line, p.gotPath(line, msg)
	}
	path, found := walk(p.root, "", 0, func(k, v *yaml.Node, _ string) bool {
		return k != nil && k.Value == key && (k.Line == line || v.Line == line) // a block value starts below its key
	})
	if !found {
		return line, p.gotPath(line, msg)
	}
	n := p.nodeAt(path)
	for n != nil && n.Kind == yaml.MappingNode {
		sub, more, ok := strings.Cut(rest, ": ")
		if !ok {
			break
		}
		k, v := lookupKey(n, sub)
		if k == nil && strings.ContainsAny(sub, "[] ") {
			break // not a key
		}
		if k == nil { // a key the file leaves out
			path, rest = path+"."+sub, more
			if strings.HasPrefix(more, "must ") {
				rule, _, _ := strings.Cut(more, ", got ")
				rest = "missing; it " + rule
			}
			break
		}
		path, rest, line, n = path+"."+sub, more, k.Line, resolveAlias(v)
	}
	return line, fmt.Errorf("%s: %s", path, rest)
}

// gotRE finds the quoted value a message ends on: `want a number, got "fast"`.
var gotRE = regexp.MustCompile(`got ("(?:[^"\\]|\\.)*")$`)

// gotKindRE finds a message about a list or mapping: `..., got a list`.
var gotKindRE = regexp.MustCompile(`got an? (list|mapping)\b[^"]*$`)

// gotPath prefixes msg, which names no field, with the path of the one
// scalar on the line whose value it quotes, or of the mapping holding the
// one key it quotes (a number or distribution of a processor generator,
// read by its own UnmarshalYAML, reports no path); msg as it is when there
// is not exactly one.
func (p *locator) gotPath(line int, msg string) error {
	if key, _, ok := strings.Cut(msg, ": "); ok && !strings.Contains(key, " ") {
		return errors.New(msg) // it names a field already
	}
	m := gotRE.FindStringSubmatch(msg)
	if m == nil {
		if k := gotKindRE.FindStringSubmatch(msg); k != nil {
			if path, ok := p.kindPath(line, map[string]string{"list": "seq", "mapping": "map"}[k[1]]); ok {
				return fmt.Errorf("%s: %s", path, msg)
			}
		}
		return errors.New(msg)
	}
	value, err := strconv.Unquote(m[1])
	if err != nil {
		return errors.New(msg)
	}
	var paths []string
	walk(p.root, "", 0, func(k, v *yaml.Node, path string) bool {
		switch {
		case v.Kind == yaml.ScalarNode && v.Line == line && v.Value == value:
			paths = append(paths, path)
		case k != nil && v.Kind != yaml.ScalarNode && k.Line == line && k.Value == value && len(path) > len(value):
			paths = append(paths, path[:len(path)-len(value)-1]) // a key: the mapping it is in
		}
		return false
	})
	if len(paths) != 1 {
		return errors.New(msg)
	}
	return fmt.Errorf("%s: %s", paths[0], msg)
}

// nodeAt returns the value node at a dotted path of mapping keys and list
// indices, or nil.
func (p *locator) nodeAt(path string) *yaml.Node {
	steps, err := axis.SplitPath(path)
	if err != nil {
		return nil
	}
	n := p.root
	for _, st := range steps {
		n = resolveAlias(n)
		switch {
		case n == nil:
			return nil
		case st.IsIndex && n.Kind == yaml.SequenceNode && st.Index < len(n.Content):
			n = n.Content[st.Index]
		case !st.IsIndex && n.Kind == yaml.MappingNode:
			if _, n = lookupKey(n, st.Key); n == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return resolveAlias(n)
}

// unknownField explains a key that no field of the Go type typeName takes.
func (p *locator) unknownField(line int, key, typeName string) error {
	where := key
	if path, ok := keyPath(p.root, line, key); ok {
		where = path
	}
	known := knownFields(typeName)
	if len(known) == 0 {
		return fmt.Errorf("%s: unknown field", where)
	}
	return fmt.Errorf("%s: unknown field%s (known here: %s)", where, suggest.DidYouMean(key, known), strings.Join(known, ", "))
}

// keyPath finds the mapping key named key on the given line and returns
// its dotted path.
func keyPath(root *yaml.Node, line int, key string) (string, bool) {
	return walk(root, "", 0, func(k, _ *yaml.Node, _ string) bool {
		return k != nil && k.Line == line && k.Value == key
	})
}

// walk visits every mapping value (with its key) and list item (key nil)
// below n with its dotted path, and returns the path of the first for which
// match is true.
func walk(n *yaml.Node, prefix string, depth int, match func(k, v *yaml.Node, path string) bool) (string, bool) {
	if n == nil || depth > maxDepth {
		return "", false
	}
	visit := func(k, v *yaml.Node, path string) (string, bool) {
		if match(k, v, path) {
			return path, true
		}
		return walk(v, path, depth+1, match)
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if p, ok := visit(n.Content[i], n.Content[i+1], joinKey(prefix, n.Content[i].Value)); ok {
				return p, true
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p, ok := visit(nil, c, fmt.Sprintf("%s[%d]", prefix, i)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// maxDepth bounds walks of the node tree (and of aliases within it).
const maxDepth = 64

func joinKey(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// knownFields lists the YAML keys of the Go struct type named typeName (as
// reflect prints it, e.g. "models.Crossbar") among the types of a file.
func knownFields(typeName string) []string {
	t, ok := structTypes()[typeName]
	if !ok {
		return nil
	}
	var names []string
	for _, f := range yamlFields(t) {
		names = append(names, f.name)
	}
	return names
}

// structTypes maps the name of every struct type reachable from file to it.
func structTypes() map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || out[t.String()] != nil || t == reflect.TypeOf(yaml.Node{}) {
			return
		}
		out[t.String()] = t
		for i := range t.NumField() {
			visit(t.Field(i).Type)
		}
	}
	visit(reflect.TypeOf(file{}))
	visit(reflect.TypeOf(models.ProcessorGen{})) // read in place of a list by models.Processors
	return out
}

// yamlField is one YAML key of a struct and the index path of its field.
type yamlField struct {
	name  string
	index []int
}

// yamlFields lists the keys of a struct type as the YAML library reads
// them: the tag name, or the lower-cased field name; inline structs flattened.
func yamlFields(t reflect.Type) []yamlField {
	var out []yamlField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if strings.Contains(opts, "inline") && f.Type.Kind() == reflect.Struct {
			for _, sub := range yamlFields(f.Type) {
				out = append(out, yamlField{name: sub.name, index: append([]int{i}, sub.index...)})
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out = append(out, yamlField{name: name, index: []int{i}})
	}
	return out
}

// fieldError points a validation error at the line of the field it names,
// or of the nearest ancestor present in the file.
func (p *locator) fieldError(err error) *Error {
	var fe *models.FieldError
	if errors.As(err, &fe) {
		if gen := p.generatedField(fe); gen != nil {
			err, fe = gen, gen
		}
		if p.absent(fe.Path) && strings.HasPrefix(fe.Msg, "must ") {
			// the zero value of a key the file leaves out: a required key
			rule, _, _ := strings.Cut(fe.Msg, ", got ")
			err = &models.FieldError{Path: fe.Path, Msg: "missing; it " + rule}
		}
		return &Error{Source: p.source, Line: p.lineOf(fe.Path), Err: err}
	}
	return &Error{Source: p.source, Line: p.root.Line, Err: err}
}

// generatedField turns the error of a processor that a generator drew,
// platform.crossbar.processors[i].F, into one of the generator's field F,
// which the file has: nil when fe is about no generated processor.
func (p *locator) generatedField(fe *models.FieldError) *models.FieldError {
	for _, g := range p.generatorNodes() {
		rest, ok := strings.CutPrefix(fe.Path, g.path+"[")
		i, field, found := strings.Cut(rest, "].")
		if !ok || !found {
			continue
		}
		return &models.FieldError{Path: g.path + "." + field, Msg: fe.Msg + " (processor " + i + " as drawn)"}
	}
	return nil
}

// absent reports whether the file leaves out the last key of a path
// whose mapping it gives: "platform.crossbar.beta" in a crossbar without
// beta (but not a field of a platform read from another file).
func (p *locator) absent(path string) bool {
	i := strings.LastIndexByte(path, '.')
	if i < 0 || strings.ContainsAny(path[i+1:], "[]") {
		return false
	}
	parent := p.nodeAt(path[:i])
	if parent == nil || parent.Kind != yaml.MappingNode {
		return false
	}
	k, _ := lookupKey(parent, path[i+1:])
	return k == nil
}

// lineOf returns the line of the node at a dotted path (a mapping key's own
// line, a list item's line), falling back to the deepest ancestor found.
func (p *locator) lineOf(path string) int {
	steps, err := axis.SplitPath(path)
	if err != nil {
		return p.root.Line
	}
	line, n := p.root.Line, p.root
	for _, st := range steps {
		n = resolveAlias(n)
		if n == nil {
			break
		}
		var next *yaml.Node
		switch {
		case st.IsIndex && n.Kind == yaml.SequenceNode && st.Index < len(n.Content):
			next = n.Content[st.Index]
			line = next.Line
		case !st.IsIndex && n.Kind == yaml.MappingNode:
			if k, v := lookupKey(n, st.Key); k != nil {
				next, line = v, k.Line
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return line
}

// lookupKey returns the key and value nodes of key in a mapping node.
func lookupKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// resolveAlias follows alias nodes to what they name.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxDepth; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

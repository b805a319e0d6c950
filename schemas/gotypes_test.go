package schemas_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/scenarios"
	"github.com/netsched/netsched/schemas"
	"github.com/netsched/netsched/sim"
)

// reporter is where the walker reports: a *testing.T, or a recorder in
// the walker's own test.
type reporter interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// recorder keeps what the walker reports.
type recorder struct{ errors []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic("fatal: " + r.errors[len(r.errors)-1])
}

// node is one schema object; a place in a schema is the list of nodes
// that apply there (a node and what its $ref names).
type node = map[string]any

// typeWalker compares Go types, field by field through their struct tags
// (tag is "yaml" or "json"), with the schema whose root is root.
type typeWalker struct {
	t    reporter
	tag  string
	root node
	// special are types read or written by their own methods, and what
	// the schema must say of them.
	special map[reflect.Type]func(at string, place []node)
}

// loadSchema decodes a schema file of the package.
func loadSchema(t *testing.T, name string) node {
	t.Helper()
	data, err := fs.ReadFile(schemas.Files(), name)
	if err != nil {
		t.Fatal(err)
	}
	var root node
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	return root
}

// expand adds to place the nodes its $refs name, recursively.
func (w *typeWalker) expand(at string, place []node) []node {
	var out []node
	for _, n := range place {
		for n != nil {
			out = append(out, n)
			ref, ok := n["$ref"].(string)
			if !ok {
				break
			}
			name, found := strings.CutPrefix(ref, "#/$defs/")
			if !found {
				w.t.Fatalf("%s: $ref %q: only #/$defs/... is followed", at, ref)
			}
			defs, _ := w.root["$defs"].(node)
			next, _ := defs[name].(node)
			if next == nil {
				w.t.Fatalf("%s: $ref %q names nothing", at, ref)
			}
			n = next
		}
	}
	return out
}

// types is the set of JSON types the nodes of place, or their oneOf or
// anyOf alternatives, admit.
func (w *typeWalker) types(at string, place []node) map[string]bool {
	set := map[string]bool{}
	var add func(place []node)
	add = func(place []node) {
		for _, n := range w.expand(at, place) {
			switch t := n["type"].(type) {
			case string:
				set[t] = true
			case []any:
				for _, x := range t {
					set[x.(string)] = true
				}
			}
			values, _ := n["enum"].([]any)
			if c, ok := n["const"]; ok {
				values = append(values, c)
			}
			for _, v := range values {
				switch v.(type) {
				case string:
					set["string"] = true
				case float64:
					set["number"] = true
				case bool:
					set["boolean"] = true
				}
			}
			for _, key := range []string{"oneOf", "anyOf"} {
				alts, _ := n[key].([]any)
				for _, a := range alts {
					add([]node{a.(node)})
				}
			}
		}
	}
	add(place)
	return set
}

// sub is the place of a keyword's schema (items, additionalProperties)
// below place.
func (w *typeWalker) sub(at, key string, place []node) []node {
	var out []node
	for _, n := range w.expand(at, place) {
		if s, ok := n[key].(node); ok {
			out = append(out, s)
		}
	}
	return out
}

// properties are the properties the nodes of place declare, each with
// its own place, and whether one of them forbids any other property.
func (w *typeWalker) properties(at string, place []node) (map[string][]node, bool) {
	props, closed := map[string][]node{}, false
	for _, n := range w.expand(at, place) {
		if ap, ok := n["additionalProperties"].(bool); ok && !ap {
			closed = true
		}
		ps, _ := n["properties"].(node)
		for name, p := range ps {
			props[name] = append(props[name], p.(node))
		}
	}
	return props, closed
}

// fields are the fields of struct type ty by their names under w.tag,
// with inline and embedded structs' fields lifted as the decoders lift
// them.
func (w *typeWalker) fields(ty reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range ty.Fields() {
		tag, has := f.Tag.Lookup(w.tag)
		name, opts, _ := strings.Cut(tag, ",")
		inline := f.Anonymous && name == "" && (w.tag == "json" || strings.Contains(opts, "inline")) ||
			w.tag == "yaml" && strings.Contains(opts, "inline")
		switch {
		case tag == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case inline:
			maps.Copy(out, w.fields(f.Type))
			continue
		case !has || name == "":
			w.t.Errorf("%s.%s has no %s name: give it a tag, or - to leave it out of files", ty, f.Name, w.tag)
			continue
		}
		out[name] = f.Type
	}
	return out
}

// check compares Go type ty at path at with the schema's place.
func (w *typeWalker) check(at string, ty reflect.Type, place []node) {
	if len(place) == 0 {
		w.t.Errorf("%s (%s): the schema says nothing of it", at, ty)
		return
	}
	for ty.Kind() == reflect.Pointer {
		ty = ty.Elem()
	}
	if f, ok := w.special[ty]; ok {
		f(at, place)
		return
	}
	w.noMethods(at, ty)
	want := map[reflect.Kind]string{
		reflect.String: "string", reflect.Bool: "boolean",
		reflect.Float64: "number", reflect.Float32: "number",
		reflect.Int: "integer", reflect.Int64: "integer", reflect.Int32: "integer",
		reflect.Uint: "integer", reflect.Uint64: "integer",
		reflect.Slice: "array", reflect.Array: "array",
		reflect.Struct: "object", reflect.Map: "object",
	}[ty.Kind()]
	if want == "" {
		w.t.Errorf("%s: Go type %s has no JSON counterpart the walker knows", at, ty)
		return
	}
	types := w.types(at, place)
	if !types[want] {
		w.t.Errorf("%s: Go type %s is a JSON %s; the schema admits %v", at, ty, want, slices.Sorted(maps.Keys(types)))
	}
	switch ty.Kind() {
	case reflect.Slice, reflect.Array:
		w.check(at+"[]", ty.Elem(), w.sub(at, "items", place))
	case reflect.Map:
		if ty.Key().Kind() != reflect.String {
			w.t.Errorf("%s: map key %s is not a string", at, ty.Key())
		}
		w.check(at+".*", ty.Elem(), w.sub(at, "additionalProperties", place))
	case reflect.Struct:
		w.checkStruct(at, ty, place)
	}
}

// checkStruct compares the fields of ty with the properties of place,
// both ways, and each field with its property.
func (w *typeWalker) checkStruct(at string, ty reflect.Type, place []node) {
	props, closed := w.properties(at, place)
	if !closed {
		w.t.Errorf("%s (%s): the schema must forbid unknown properties (additionalProperties: false), as the reader does", at, ty)
	}
	fields := w.fields(ty)
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		p, ok := props[name]
		if !ok {
			w.t.Errorf("%s.%s: field %s of %s is not in the schema", at, name, name, ty)
			continue
		}
		w.check(at+"."+name, fields[name], p)
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if _, ok := fields[name]; !ok {
			w.t.Errorf("%s.%s: the schema has a property %s that %s has not", at, name, name, ty)
		}
	}
}

// noMethods fails for a type that decodes or encodes itself under w.tag
// and is not in special: what its methods accept is not what its kind
// says, so the schema needs a case of its own.
func (w *typeWalker) noMethods(at string, ty reflect.Type) {
	var ifaces []reflect.Type
	if w.tag == "yaml" {
		ifaces = []reflect.Type{reflect.TypeFor[yaml.Unmarshaler](), reflect.TypeFor[yaml.Marshaler]()}
	} else {
		ifaces = []reflect.Type{reflect.TypeFor[json.Unmarshaler](), reflect.TypeFor[json.Marshaler]()}
	}
	for _, i := range ifaces {
		if ty.Implements(i) || reflect.PointerTo(ty).Implements(i) {
			w.t.Errorf("%s: %s implements %s: add a case for it to the walker's special types, saying what the schema must admit", at, ty, i)
		}
	}
}

// place is the place of a JSON pointer into the schema, such as
// "/properties/platform".
func (w *typeWalker) place(pointer string) []node {
	n := w.root
	for _, key := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		next, ok := n[key].(node)
		if !ok {
			w.t.Fatalf("schema has no %s", pointer)
		}
		n = next
	}
	return []node{n}
}

// TestScenarioSchemaMatchesGoTypes walks the Go types a scenario file is
// read into (models.Platform, models.Problem and the fields of
// scenarios.Scenario) and the scenario schema side by side: a field added
// to the Go types and not to the schema, or the other way round, fails.
func TestScenarioSchemaMatchesGoTypes(t *testing.T) {
	w := &typeWalker{t: t, tag: "yaml", root: loadSchema(t, schemas.ScenarioFile)}
	w.special = map[reflect.Type]func(string, []node){
		// a whole number >= 1, or the word auto
		reflect.TypeFor[models.Rounds](): func(at string, place []node) {
			types := w.types(at, place)
			if !types["integer"] || !types["string"] || len(types) != 2 {
				w.t.Errorf("%s: rounds is a whole number or auto; the schema admits %v", at, slices.Sorted(maps.Keys(types)))
			}
		},
		// a list of processors, or a generator mapping in its place
		reflect.TypeFor[models.Processors](): func(at string, place []node) { processors(w, at, place, true) },
		// a number, {uniform: [lo, hi]} or {choice: [...]}
		reflect.TypeFor[models.Dist](): func(at string, place []node) {
			types := w.types(at, place)
			if !types["number"] || !types["object"] || len(types) != 2 {
				w.t.Errorf("%s: a distribution is a number or a mapping; the schema admits %v", at, slices.Sorted(maps.Keys(types)))
			}
		},
		// a generated processor's gamma_k: a distribution, or the word gamma
		reflect.TypeFor[models.OverlapDraw](): func(at string, place []node) {
			types := w.types(at, place)
			if !types["number"] || !types["object"] || !types["string"] || len(types) != 3 {
				w.t.Errorf("%s: gamma_k is a number, a mapping or gamma; the schema admits %v", at, slices.Sorted(maps.Keys(types)))
			}
		},
	}
	w.check("platform", reflect.TypeFor[models.Platform](), w.place("/properties/platform"))
	w.check("problem", reflect.TypeFor[models.Problem](), w.place("/properties/problem"))

	// The same types written as JSON (the instance an external policy
	// reads refers to these definitions) have the same names: a json tag
	// that differs from its yaml tag fails here.
	wj := &typeWalker{t: t, tag: "json", root: w.root}
	wj.special = map[reflect.Type]func(string, []node){
		// written as JSON, always a list
		reflect.TypeFor[models.Processors](): func(at string, place []node) { processors(wj, at, place, false) },
	}
	wj.check("platform", reflect.TypeFor[models.Platform](), wj.place("/properties/platform"))
	wj.check("problem", reflect.TypeFor[models.Problem](), wj.place("/properties/problem"))

	// The top level: scenarios.Scenario's fields by their names in lower
	// case, but Source, which says where the file came from, and Warnings
	// and Generated, which the loader fills. Policies and
	// sweep are read by hand from the YAML nodes; TestScenarioRejected
	// holds their schema to the loader.
	props, closed := w.properties("", []node{w.root})
	if !closed {
		t.Error("the schema must forbid unknown top-level keys")
	}
	var fields []string
	for f := range reflect.TypeFor[scenarios.Scenario]().Fields() {
		if f.Name != "Source" && f.Name != "Warnings" && f.Name != "Generated" {
			fields = append(fields, strings.ToLower(f.Name))
		}
	}
	slices.Sort(fields)
	if keys := slices.Sorted(maps.Keys(props)); !slices.Equal(keys, fields) {
		t.Errorf("top-level properties %v, want scenarios.Scenario's fields %v", keys, fields)
	}
}

// processors checks models.Processors against place: a oneOf whose array
// alternative holds processors and, when gen, whose object alternative is
// the generator (models.ProcessorGen).
func processors(w *typeWalker, at string, place []node, gen bool) {
	var list, generator []node
	for _, n := range w.expand(at, place) {
		alts, _ := n["oneOf"].([]any)
		for _, a := range alts {
			for _, m := range w.expand(at, []node{a.(node)}) {
				switch m["type"] {
				case "array":
					list = append(list, m)
				case "object":
					generator = append(generator, m)
				}
			}
		}
	}
	if len(list) == 0 {
		w.t.Errorf("%s: the schema must admit a list of processors (oneOf an array and the generator)", at)
		return
	}
	w.check(at+"[]", reflect.TypeFor[models.Processor](), w.sub(at, "items", list))
	if gen {
		if len(generator) == 0 {
			w.t.Errorf("%s: the schema must admit a processor generator (oneOf an array and the generator)", at)
			return
		}
		w.checkStruct(at, reflect.TypeFor[models.ProcessorGen](), generator)
	}
}

// TestScheduleSchemaMatchesGoTypes walks sim.Schedule and the schedule
// schema side by side.
func TestScheduleSchemaMatchesGoTypes(t *testing.T) {
	w := &typeWalker{t: t, tag: "json", root: loadSchema(t, schemas.ScheduleFile)}
	w.special = map[reflect.Type]func(string, []node){
		// Action.MarshalJSON writes the struct's fields, node fields by
		// kind; TestScheduleRejected holds the schema's kind rules to the
		// reader.
		reflect.TypeFor[sim.Action](): func(at string, place []node) {
			w.checkStruct(at, reflect.TypeFor[sim.Action](), place)
		},
	}
	w.check("schedule", reflect.TypeFor[sim.Schedule](), []node{w.root})
}

// TestTypeWalkerFails checks that the walker finds a field the schema
// lacks, a property the type lacks, a wrong type and an open object.
func TestTypeWalkerFails(t *testing.T) {
	type inner struct {
		X float64 `json:"x"`
	}
	type outer struct {
		A  int      `json:"a"`
		B  []inner  `json:"b"`
		C  string   `json:"c"`
		In struct{} `json:"-"`
	}
	schema := `{"type": "object", "additionalProperties": false, "properties": {
		"a": {"type": "string"},
		"b": {"type": "array", "items": {"$ref": "#/$defs/inner"}},
		"d": {"type": "string"}},
		"$defs": {"inner": {"type": "object", "properties": {"x": {"type": "number"}}}}}`
	var root node
	if err := json.Unmarshal([]byte(schema), &root); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	w := &typeWalker{t: rec, tag: "json", root: root}
	w.check("outer", reflect.TypeFor[outer](), []node{root})
	for _, want := range []string{
		"outer.a: Go type int is a JSON integer",
		"outer.c: field c of",
		"outer.d: the schema has a property d",
		"outer.b[] (schemas_test.inner): the schema must forbid unknown properties",
	} {
		if !slices.ContainsFunc(rec.errors, func(e string) bool { return strings.Contains(e, want) }) {
			t.Errorf("the walker did not report %q; it reported %q", want, rec.errors)
		}
	}
}
